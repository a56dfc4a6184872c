// SPDX-License-Identifier: MIT
// The Slurm executor's pure parts (core/suite/SlurmCommands.h): the sbatch argv, option validation,
// and the parsing of squeue/sbatch output captured from a real single-node slurmctld 22.05
// (tests/fixtures/slurm/, made with tests/services/start-slurm.sh).
#include "core/suite/SlurmCommands.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/suite/SlurmExecutor.h"

namespace kwb::suite {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/slurm/" + name);
  EXPECT_TRUE(in) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

SlurmJobRequest job() {
  SlurmJobRequest j;
  j.jobName = "kwb-add_custom-1";
  j.workDir = "/shared/suite";
  j.outputFile = "/shared/suite/slurm/add_custom.sample-1.try-1.out";
  j.command = {"/opt/kwb/bin/kwb", "suite", "run-sample", "/shared/suite",
               "add_custom",       "1",     "--model",    "it's"};
  return j;
}

TEST(SlurmCommandsTest, SbatchArgvWithoutOptionalSettings) {
  EXPECT_EQ(sbatchArgv(job()),
            (std::vector<std::string>{
                "sbatch", "--parsable", "--job-name=kwb-add_custom-1", "--nodes=1", "--ntasks=1",
                "--chdir=/shared/suite", "--output=/shared/suite/slurm/add_custom.sample-1.try-1.out",
                "--wrap=exec /opt/kwb/bin/kwb suite run-sample /shared/suite add_custom 1 "
                "--model 'it'\\''s'"}));
}

TEST(SlurmCommandsTest, SbatchArgvWithPartitionTimeAndAccount) {
  SlurmJobRequest j = job();
  j.partition = "gpu-a";
  j.timeLimit = "1:30:00";
  j.account = "proj.42";
  const auto argv = sbatchArgv(j);
  ASSERT_GE(argv.size(), 8u);
  EXPECT_EQ(argv[5], "--partition=gpu-a");
  EXPECT_EQ(argv[6], "--time=1:30:00");
  EXPECT_EQ(argv[7], "--account=proj.42");
}

TEST(SlurmCommandsTest, RejectsOptionsThatCouldInjectArguments) {
  EXPECT_EQ(slurmOptionProblem("--partition", "debug"), "");
  EXPECT_EQ(slurmOptionProblem("--time", "2-12"), "");
  EXPECT_NE(slurmOptionProblem("--partition", "a b"), "");
  EXPECT_NE(slurmOptionProblem("--partition", "-x"), "");
  EXPECT_NE(slurmOptionProblem("--time", "1h"), "");
  EXPECT_NE(slurmOptionProblem("--account", std::string(65, 'a')), "");
  SlurmJobRequest j = job();
  j.account = "x;rm";
  EXPECT_THROW(sbatchArgv(j), std::invalid_argument);
  j = job();
  j.command.clear();
  EXPECT_THROW(sbatchArgv(j), std::invalid_argument);
}

TEST(SlurmCommandsTest, ParsesSbatchParsableOutput) {
  EXPECT_EQ(parseSbatchJobId(fixture("sbatch-parsable.txt")), "6");
  EXPECT_EQ(parseSbatchJobId("812;cluster-b\n"), "812");
  EXPECT_EQ(parseSbatchJobId("sbatch: error: Batch job submission failed\n"), std::nullopt);
  EXPECT_EQ(parseSbatchJobId(""), std::nullopt);
}

TEST(SlurmCommandsTest, SqueueArgvAsksForEveryStateOfTheJobs) {
  EXPECT_EQ(squeueArgv({"4", "7"}), (std::vector<std::string>{"squeue", "--noheader", "--states=all",
                                                              "--jobs=4,7", "--format=%i|%T|%r"}));
}

TEST(SlurmCommandsTest, ParsesQueuedRunningAndCancelledJobs) {
  const auto jobs = parseSqueue(fixture("squeue-mixed.txt"));
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs.at("1"), (SlurmJobState{"1", "CANCELLED", "None", SlurmJobPhase::Finished}));
  EXPECT_EQ(jobs.at("4"), (SlurmJobState{"4", "PENDING", "Resources", SlurmJobPhase::Queued}));
  EXPECT_EQ(jobs.at("5").reason, "Priority");
  EXPECT_EQ(jobs.at("2").phase, SlurmJobPhase::Running);
}

TEST(SlurmCommandsTest, ParsesFinishedJobs) {
  const auto jobs = parseSqueue(fixture("squeue-finished.txt"));
  ASSERT_EQ(jobs.size(), 5u);
  EXPECT_EQ(jobs.at("2").state, "COMPLETED");
  EXPECT_EQ(jobs.at("4"), (SlurmJobState{"4", "FAILED", "NonZeroExitCode", SlurmJobPhase::Finished}));
  for (const auto& [id, s] : jobs) EXPECT_EQ(s.phase, SlurmJobPhase::Finished) << id;
}

TEST(SlurmCommandsTest, PhasesOfOtherStates) {
  EXPECT_EQ(slurmJobPhase("PREEMPTED"), SlurmJobPhase::Finished);
  EXPECT_EQ(slurmJobPhase("NODE_FAIL"), SlurmJobPhase::Finished);
  EXPECT_EQ(slurmJobPhase("TIMEOUT"), SlurmJobPhase::Finished);
  EXPECT_EQ(slurmJobPhase("REQUEUED"), SlurmJobPhase::Queued);
  EXPECT_EQ(slurmJobPhase("COMPLETING"), SlurmJobPhase::Running);
  // A "CANCELLED by 0" state keeps its first word.
  EXPECT_EQ(parseSqueue("9|CANCELLED by 0|None\n").at("9").state, "CANCELLED");
  EXPECT_EQ(parseSqueue("  12_3|RUNNING|None\n").count("12_3"), 1u);
}

TEST(SlurmCommandsTest, MalformedSqueueLineNamesTheLine) {
  try {
    parseSqueue("1|RUNNING|None\nslurm_load_jobs error: Socket timed out\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Socket timed out"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseSqueue("x1|RUNNING|None\n"), std::runtime_error);
  EXPECT_THROW(parseSqueue("1|RUNNING\n"), std::runtime_error);
}

TEST(SlurmCommandsTest, NoKnownJobIsAnEmptyListing) {
  EXPECT_TRUE(squeueFoundNoneOfTheJobs(1, fixture("squeue-unknown-job.stderr.txt")));
  EXPECT_FALSE(squeueFoundNoneOfTheJobs(1, "slurm_load_jobs error: Unable to contact slurm controller"));
  EXPECT_FALSE(squeueFoundNoneOfTheJobs(0, ""));
}

TEST(SlurmCommandsTest, OnlyKilledJobsAreRetried) {
  EXPECT_TRUE(slurmJobWasKilled(std::nullopt));  // SIGKILL, node failure: no status file
  EXPECT_TRUE(slurmJobWasKilled(143));           // scancel's or the preemption's SIGTERM
  EXPECT_FALSE(slurmJobWasKilled(0));
  EXPECT_FALSE(slurmJobWasKilled(1));  // a suite budget
  EXPECT_FALSE(slurmJobWasKilled(4));  // the LLM endpoint failed
}

}  // namespace
}  // namespace kwb::suite
