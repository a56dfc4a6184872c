// SPDX-License-Identifier: MIT
// The Slurm executor's pure parts (core/suite/SlurmCommands.h, SlurmArrayManifest.h): the sbatch argv
// (job arrays included), option validation, the array manifest, and the parsing of squeue/sbatch/sacct
// output captured from a real single-node slurmctld 22.05 (tests/fixtures/slurm/, made with
// tests/services/start-slurm.sh).
#include "core/suite/SlurmCommands.h"

#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/suite/SlurmArrayManifest.h"
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
  const std::string wrap =
      "--wrap=exec /opt/kwb/bin/kwb suite run-sample /shared/suite add_custom 1 "
      "--model 'it'\\''s'";
  EXPECT_EQ(sbatchArgv(job()),
            (std::vector<std::string>{"sbatch", "--parsable", "--job-name=kwb-add_custom-1", "--nodes=1",
                                      "--ntasks=1", "--chdir=/shared/suite",
                                      "--output=/shared/suite/slurm/add_custom.sample-1.try-1.out", wrap}));
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

TEST(SlurmCommandsTest, SqueueArgvAsksForEveryStateOfEveryArrayElement) {
  EXPECT_EQ(squeueArgv({"4", "7"}),
            (std::vector<std::string>{"squeue", "--noheader", "--array", "--states=all", "--jobs=4,7",
                                      "--format=%i|%T|%r"}));
}

TEST(SlurmCommandsTest, SbatchArgvOfAJobArrayThrottledToTheWorkers) {
  SlurmJobRequest j = job();
  j.outputFile = "/shared/suite/slurm/array-1.%a.out";
  j.command = {"/opt/kwb/bin/kwb", "suite",      "run-sample",
               "/shared/suite",    "--manifest", "/shared/suite/slurm/array-1.json"};
  j.arraySize = 5;
  j.arrayThrottle = 2;
  const std::string wrap =
      "--wrap=exec /opt/kwb/bin/kwb suite run-sample /shared/suite --manifest "
      "/shared/suite/slurm/array-1.json";
  EXPECT_EQ(sbatchArgv(j),
            (std::vector<std::string>{"sbatch", "--parsable", "--job-name=kwb-add_custom-1", "--nodes=1",
                                      "--ntasks=1", "--array=0-4%2", "--chdir=/shared/suite",
                                      "--output=/shared/suite/slurm/array-1.%a.out", wrap}));
  // sbatch --parsable prints the array's job id alone; the elements are <id>_<index>.
  EXPECT_EQ(parseSbatchJobId(fixture("sbatch-array-parsable.txt")), "5");
}

TEST(SlurmCommandsTest, ArraySpecs) {
  EXPECT_EQ(slurmArraySpec(1, 2), "0%2");
  EXPECT_EQ(slurmArraySpec(1, 0), "0");
  EXPECT_EQ(slurmArraySpec(3, 0), "0-2");
  EXPECT_EQ(slurmArraySpec(kMaxSlurmArraySize, 64), "0-999%64");
  EXPECT_THROW(slurmArraySpec(0, 2), std::invalid_argument);
  EXPECT_THROW(slurmArraySpec(kMaxSlurmArraySize + 1, 2), std::invalid_argument);
  EXPECT_THROW(slurmArraySpec(3, -1), std::invalid_argument);
}

TEST(SlurmCommandsTest, ArrayElementIds) {
  EXPECT_EQ(parseSlurmArrayElementId("12_3"), (SlurmArrayElementId{"12", 3}));
  EXPECT_EQ(parseSlurmArrayElementId("12"), std::nullopt);
  EXPECT_EQ(parseSlurmArrayElementId("12_"), std::nullopt);
  EXPECT_EQ(parseSlurmArrayElementId("12_[2-3]"), std::nullopt);
  EXPECT_EQ(parseSlurmArrayElementId("_3"), std::nullopt);
  EXPECT_EQ(slurmArrayElementJobId("12", 3), "12_3");
}

TEST(SlurmCommandsTest, ParsesOneLinePerArrayElement) {
  // squeue --array while a 4-element array throttled to 2 runs: two running, two held by the throttle.
  const auto jobs = parseSqueue(fixture("squeue-array-running.txt"));
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(jobs.at("1_0"), (SlurmJobState{"1_0", "RUNNING", "None", SlurmJobPhase::Running}));
  EXPECT_EQ(jobs.at("1_1").phase, SlurmJobPhase::Running);
  EXPECT_EQ(jobs.at("1_2"), (SlurmJobState{"1_2", "PENDING", "JobArrayTaskLimit", SlurmJobPhase::Queued}));
  EXPECT_EQ(jobs.at("1_3").phase, SlurmJobPhase::Queued);
}

TEST(SlurmCommandsTest, ExpandsFoldedPendingElements) {
  // The same moment without --array: the pending elements are one "1_[2-3%2]" line.
  const auto jobs = parseSqueue(fixture("squeue-array-folded.txt"));
  ASSERT_EQ(jobs.size(), 4u);
  EXPECT_EQ(jobs.at("1_2"), (SlurmJobState{"1_2", "PENDING", "JobArrayTaskLimit", SlurmJobPhase::Queued}));
  EXPECT_EQ(jobs.at("1_3").reason, "JobArrayTaskLimit");
  const auto list = parseSqueue("7_[1,4-5]|PENDING|Priority\n");
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(list.count("7_1") + list.count("7_4") + list.count("7_5"), 3u);
  EXPECT_THROW(parseSqueue("7_[5-1]|PENDING|Priority\n"), std::runtime_error);
  EXPECT_THROW(parseSqueue("7_[x]|PENDING|Priority\n"), std::runtime_error);
}

TEST(SlurmCommandsTest, RequeuedElementIsQueuedAgainUnderItsId) {
  // After `scontrol requeue 1_0` and `scancel 1_3`: 1_0 waits again, 1_3 has ended.
  const auto jobs = parseSqueue(fixture("squeue-array-requeued-cancelled.txt"));
  EXPECT_EQ(jobs.at("1_0").phase, SlurmJobPhase::Queued);
  EXPECT_EQ(jobs.at("1_3"),
            (SlurmJobState{"1_3", "CANCELLED", "JobArrayTaskLimit", SlurmJobPhase::Finished}));
  EXPECT_EQ(jobs.at("1_2").phase, SlurmJobPhase::Running);
}

TEST(SlurmCommandsTest, ParsesEndedElementsOfTwoArrays) {
  // Array 1 cancelled whole (scancel 1); array 5: one element exited 0, one exited 1, one cancelled.
  const auto jobs = parseSqueue(fixture("squeue-array-finished.txt"));
  ASSERT_EQ(jobs.size(), 7u);
  for (const auto& [id, s] : jobs) EXPECT_EQ(s.phase, SlurmJobPhase::Finished) << id;
  for (const char* id : {"1_0", "1_1", "1_2", "1_3", "5_2"}) EXPECT_EQ(jobs.at(id).state, "CANCELLED") << id;
  EXPECT_EQ(jobs.at("5_0").state, "COMPLETED");
  EXPECT_EQ(jobs.at("5_1"), (SlurmJobState{"5_1", "FAILED", "NonZeroExitCode", SlurmJobPhase::Finished}));
}

TEST(SlurmCommandsTest, SigkilledElementHasFailed) {
  // kill -9 of element 10_0's batch process (its pid from scontrol listpids): FAILED, the other runs on.
  const auto jobs = parseSqueue(fixture("squeue-array-killed.txt"));
  EXPECT_EQ(jobs.at("10_0"), (SlurmJobState{"10_0", "FAILED", "JobLaunchFailure", SlurmJobPhase::Finished}));
  EXPECT_EQ(jobs.at("10_1").phase, SlurmJobPhase::Running);
}

TEST(SlurmCommandsTest, ScancelAndSacctArgv) {
  EXPECT_EQ(scancelArgv({"5", "9"}), (std::vector<std::string>{"scancel", "5", "9"}));
  EXPECT_EQ(sacctArgv({"5", "9"}),
            (std::vector<std::string>{"sacct", "--noheader", "--parsable2", "--allocations", "--jobs=5,9",
                                      "--format=JobID,State,ExitCode"}));
}

TEST(SlurmCommandsTest, SacctWithoutSlurmdbdSaysAccountingIsDisabled) {
  // What the test cluster's sacct prints (AccountingStorageType=accounting_storage/none): exit 1, this
  // on stderr, nothing on stdout.
  EXPECT_TRUE(sacctSaysAccountingDisabled(1, fixture("sacct-disabled.stderr.txt")));
  EXPECT_FALSE(sacctSaysAccountingDisabled(0, ""));
  EXPECT_FALSE(
      sacctSaysAccountingDisabled(1, "sacct: error: Problem talking to the database: Connection refused"));
}

TEST(SlurmCommandsTest, SacctWithSlurmdbdDownIsNotDisabledAccounting) {
  // slurmdbd configured but not answering: a failure of this call, not a cluster without accounting.
  EXPECT_FALSE(sacctSaysAccountingDisabled(1, fixture("sacct-dbd-down.stderr.txt")));
}

// Captured from the test cluster with slurmdbd (MariaDB) added: an array 0-4%2 whose element 0 exited
// 0, 1 exited 3, 2 was SIGKILLed, 3 was cancelled, 4 was requeued and then cancelled with the array.
TEST(SlurmCommandsTest, ParsesSacctRecordsOfAnArraysElements) {
  const auto records = parseSacct(fixture("sacct-array-ended.txt"));
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records.at("1_0"), (SlurmAccountingRecord{"1_0", "COMPLETED", "0:0"}));
  EXPECT_EQ(records.at("1_1"), (SlurmAccountingRecord{"1_1", "FAILED", "3:0"}));
  EXPECT_EQ(records.at("1_2"), (SlurmAccountingRecord{"1_2", "FAILED", "0:9"}));
  EXPECT_EQ(records.at("1_3"), (SlurmAccountingRecord{"1_3", "CANCELLED", "0:0"}));
  EXPECT_EQ(records.at("1_4").state, "CANCELLED");
  EXPECT_EQ(sacctExitStatus(records.at("1_0")), 0);
  EXPECT_EQ(sacctExitStatus(records.at("1_1")), 3);             // kwb's own outcome: not retried
  EXPECT_EQ(sacctExitStatus(records.at("1_2")), std::nullopt);  // SIGKILL: killed, retried
  EXPECT_EQ(sacctExitStatus(records.at("1_3")), std::nullopt);
  // Without --allocations the steps come too; they are skipped, the allocations' lines win.
  EXPECT_EQ(parseSacct(fixture("sacct-array-ended-steps.txt")), records);
}

TEST(SlurmCommandsTest, ParsesSacctFoldedPendingArray) {
  // Right after sbatch: the whole array is one pending record.
  const auto records = parseSacct(fixture("sacct-array-pending.txt"));
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records.at("1_4"), (SlurmAccountingRecord{"1_4", "PENDING", "0:0"}));
}

TEST(SlurmCommandsTest, SacctExitStatusOnlyForElementsThatExitedThemselves) {
  EXPECT_EQ(sacctExitStatus({"5_0", "COMPLETED", "0:0"}), 0);
  EXPECT_EQ(sacctExitStatus({"5_1", "FAILED", "3:0"}), 3);
  EXPECT_EQ(sacctExitStatus({"5_2", "CANCELLED", "0:15"}), std::nullopt);
  EXPECT_EQ(sacctExitStatus({"5_3", "FAILED", "0:9"}), std::nullopt);
  EXPECT_EQ(sacctExitStatus({"5_4", "TIMEOUT", "0:0"}), std::nullopt);
  EXPECT_EQ(sacctExitStatus({"5_5", "PREEMPTED", "0:0"}), std::nullopt);
  EXPECT_EQ(sacctExitStatus({"5_6", "FAILED", "x"}), std::nullopt);
}

TEST(SlurmCommandsTest, SacctLinesSkipStepsAndNameBadLines) {
  const auto records = parseSacct("5_0|COMPLETED|0:0\n5_0.batch|COMPLETED|0:0\n5_2|CANCELLED by 0|0:15\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records.at("5_2"), (SlurmAccountingRecord{"5_2", "CANCELLED", "0:15"}));
  try {
    parseSacct("5_0|COMPLETED|0:0\nsacct: error: Problem talking to the database\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(SlurmArrayManifestTest, RoundTripsAndRefusesWhatIsNotAManifest) {
  const std::vector<SlurmArrayElement> elements{{"add_custom", 1, 1}, {"relu_custom", 3, 2}};
  EXPECT_EQ(slurmArrayManifestFromJson(slurmArrayManifestToJson(elements), "m"), elements);
  EXPECT_THROW(slurmArrayManifestFromJson(nlohmann::json::array(), "m"), std::runtime_error);
  EXPECT_THROW(slurmArrayManifestFromJson({{"elements", {{{"task", "a"}}}}}, "m"), std::runtime_error);
  EXPECT_THROW(slurmArrayManifestFromJson({{"elements", {{{"task", "a"}, {"sample", 0}}}}}, "m"),
               std::runtime_error);
  try {
    slurmArrayManifestFromJson({{"elements", {{{"task", "../x"}, {"sample", 1}}}}}, "array-1.json");
    FAIL() << "a path as a task name";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("array-1.json: elements[0]"), std::string::npos) << e.what();
  }
}

TEST(SlurmArrayManifestTest, NumbersContinueAfterTheHighestInTheFolder) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kwb-slurm-manifest-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  EXPECT_EQ(nextSlurmArrayNumber(dir), 1);  // no slurm/ folder yet
  std::filesystem::create_directories(dir / "slurm");
  for (const char* name : {"array-2.json", "array-10.json", "array-x.json", "array-11.0.out", "other.json"})
    std::ofstream(dir / "slurm" / name) << "{}";
  EXPECT_EQ(nextSlurmArrayNumber(dir), 11);
  EXPECT_EQ(slurmArrayManifestFile("/s", 3), std::filesystem::path("/s/slurm/array-3.json"));
  EXPECT_EQ(slurmArrayOutputPattern("/s", 3), std::filesystem::path("/s/slurm/array-3.%a.out"));
  EXPECT_EQ(slurmArrayOutputFile("/s", 3, 7), std::filesystem::path("/s/slurm/array-3.7.out"));
  std::filesystem::remove_all(dir);
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

TEST(SlurmCommandsTest, OnlyKilledElementsAreRetried) {
  EXPECT_TRUE(slurmJobWasKilled(std::nullopt));  // SIGKILL, node failure: no status file
  EXPECT_TRUE(slurmJobWasKilled(143));           // scancel's or the preemption's SIGTERM
  EXPECT_FALSE(slurmJobWasKilled(0));
  EXPECT_FALSE(slurmJobWasKilled(1));  // a suite budget
  EXPECT_FALSE(slurmJobWasKilled(4));  // the LLM endpoint failed
}

}  // namespace
}  // namespace kwb::suite
