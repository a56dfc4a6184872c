// SPDX-License-Identifier: MIT
// `kwb doctor` reports the isolation candidate runs really get: its bubblewrap check is the sandbox
// module's own probe, not a probe of its own.

#include <algorithm>

#include <gtest/gtest.h>

#include "core/doctor/Doctor.h"
#include "core/sandbox/MemoryCgroup.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxHost.h"

namespace kwb {
namespace {

TEST(Doctor, BubblewrapCheckIsTheSandboxProbe) {
  DoctorOptions options;
  options.probeVersions = false;
  const DoctorReport report = runDoctor(options);
  auto it = std::find_if(report.checks.begin(), report.checks.end(),
                         [](const DoctorCheck& c) { return c.name == "bubblewrap"; });
  ASSERT_NE(it, report.checks.end());
  const SandboxHost& host = sandboxHost();
  EXPECT_EQ(it->detail, Sandbox::isolationDescription());
  if (Sandbox::bubblewrapAvailable()) {
    EXPECT_EQ(it->status, "ok");
  } else {
    EXPECT_EQ(it->status, host.bwrapPath.empty() ? "missing" : "warning");
    EXPECT_NE(it->detail.find("rlimits only"), std::string::npos) << it->detail;
  }
  EXPECT_EQ(it->path.value_or(""), host.bwrapPath);
}

TEST(Doctor, MemoryCgroupCheckSaysWhetherRunsAreCappedInTotal) {
  DoctorOptions options;
  options.probeVersions = false;
  const DoctorReport report = runDoctor(options);
  auto it = std::find_if(report.checks.begin(), report.checks.end(),
                         [](const DoctorCheck& c) { return c.name == "memory-cgroup"; });
  ASSERT_NE(it, report.checks.end());
  std::string problem;
  const bool available = MemoryCgroup::create(1u << 20, problem) != nullptr;
  EXPECT_EQ(it->status, available ? "ok" : "warning");
  if (!available) {
    EXPECT_NE(it->detail.find("MEMORY NOT CAPPED IN TOTAL"), std::string::npos) << it->detail;
  }
}

}  // namespace
}  // namespace kwb
