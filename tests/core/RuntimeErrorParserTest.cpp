// SPDX-License-Identifier: MIT
// Runtime failure logs: the fixtures are assembled from the documented CANN formats (no NPU here), see
// tests/fixtures/runtime/README.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/diag/RuntimeErrorParser.h"

using namespace kwb;

namespace {

std::string readFixture(const std::string& name) {
  const std::string path = std::string(KWB_FIXTURES_DIR) + "/runtime/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool hasNote(const Diagnostic& d, const std::string& text) {
  for (const auto& n : d.notes)
    if (n == text) return true;
  return false;
}

}  // namespace

TEST(RuntimeErrorParser, CodeTableNamesAndCategories) {
  auto info = lookupAclError(507035);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->name, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION");
  EXPECT_EQ(info->meaning, "vector core exception");
  EXPECT_EQ(info->category, "runtime-crash");
  for (int timeoutCode : {107020, 507014, 507034, 507046}) {
    SCOPED_TRACE(timeoutCode);
    ASSERT_TRUE(lookupAclError(timeoutCode));
    EXPECT_EQ(lookupAclError(timeoutCode)->category, "timeout");
  }
  EXPECT_EQ(lookupAclError(100000)->name, "ACL_ERROR_INVALID_PARAM");
  EXPECT_EQ(lookupAclError(100000)->category, "invalid-param");
  EXPECT_EQ(lookupAclError(207018)->meaning, "device out of memory");
  EXPECT_EQ(lookupAclError(507044)->name, "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW");
  EXPECT_EQ(lookupAclError(507899)->name, "ACL_ERROR_RT_DRV_INTERNAL_ERROR");
  EXPECT_FALSE(lookupAclError(123456));
  EXPECT_FALSE(lookupAclError(-1));
}

TEST(RuntimeErrorParser, VectorCoreExceptionWithUbOutOfBounds) {
  const auto d = parseRuntimeErrors(readFixture("documented_vector_core_exception.txt"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].source, "runtime");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].category, "ub-out-of-bounds");  // the device's errorStr says so; the code alone is a crash
  EXPECT_EQ(d[0].api, "aclrtSynchronizeStream");
  EXPECT_EQ(d[0].pipe, "V");
  EXPECT_EQ(d[0].message,
            "aclrtSynchronizeStream failed with error 507035 ACL_ERROR_RT_VECTOR_CORE_EXCEPTION (vector core "
            "exception); device reports: VEC instruction error: the ub address out of bounds");
  EXPECT_TRUE(hasNote(d[0], "EZ9999: Inner Error!"));
  EXPECT_TRUE(hasNote(d[0], "device exception: aivec error on core 36, error code 0x4000000000000000"));
  EXPECT_TRUE(hasNote(d[0], "errorStr: VEC instruction error: the ub address out of bounds"));
  EXPECT_TRUE(hasNote(d[0], "Kernel task happen error, retCode=0x31, [vector core exception]"));
  EXPECT_TRUE(hasNote(d[0], "AIV Kernel happen error, retCode=0x31"));
  for (const auto& n : d[0].notes) {
    EXPECT_EQ(n.find("[FUNC:"), std::string::npos) << n;  // CANN's source trailers are stripped
    EXPECT_EQ(n.find("TraceBack"), std::string::npos) << n;
  }
}

TEST(RuntimeErrorParser, CheckAclLinesGiveFileLineAndTimeout) {
  const auto d = parseRuntimeErrors(readFixture("documented_check_acl_timeout.txt"));
  ASSERT_EQ(d.size(), 2u);  // the repeated line 63 counts once; aclError:0 is success
  EXPECT_EQ(d[0].file, "/home/dev/add_custom/main.cpp");
  EXPECT_EQ(d[0].line, 61);
  EXPECT_EQ(d[0].category, "timeout");
  EXPECT_FALSE(d[0].api);
  EXPECT_EQ(d[0].message,
            "ACL call failed with error 507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (stream sync time out)");
  EXPECT_EQ(d[1].line, 63);
  EXPECT_TRUE(d[1].notes.empty());
}

TEST(RuntimeErrorParser, TorchWrapperAndAicoreException) {
  const auto d = parseRuntimeErrors(readFixture("documented_torch_npu_aicore_exception.txt"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].api, "aclrtSynchronizeDevice");
  EXPECT_EQ(d[0].category, "runtime-crash");
  EXPECT_EQ(
      d[0].message,
      "aclrtSynchronizeDevice failed with error 507015 ACL_ERROR_RT_AICORE_EXCEPTION (aicore exception); "
      "device reports: aicore exception");
  EXPECT_TRUE(hasNote(d[0], "[Error]: The aicore execution is abnormal."));
  EXPECT_TRUE(hasNote(d[0], "device exception: aicore error on core 3, error code 0x800000000000"));
  EXPECT_FALSE(d[0].pipe);
}

TEST(RuntimeErrorParser, DeviceReportWithoutFailingCallStillReported) {
  const std::string log =
      "EZ9999: Inner Error!\n"
      "EZ9999[PID: 1] 2025-01-01-00:00:00.000.000 (EZ9999):  The error from device(chipId:0, dieId:0), "
      "serial "
      "number is 1, there is an exception of aivec error, core id is 2, error code = 0x4000000000000000\n"
      "       The extend info: errcode:(0x4000000000000000, 0, 0) errorStr: VEC instruction error: the ub "
      "address "
      "out of bounds. subErrType:4.\n";
  const auto d = parseRuntimeErrors(log);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].category, "ub-out-of-bounds");
  EXPECT_EQ(d[0].message, "device error: VEC instruction error: the ub address out of bounds");
  EXPECT_TRUE(d[0].file.empty());
}

TEST(RuntimeErrorParser, CategoryFollowsWhatTheDeviceSays) {
  // Same documented layout, other wording in errorStr / retCode (constructed variants, not captures).
  auto categoryOf = [](const std::string& errorStr, const std::string& ret) {
    const std::string log =
        "[ERROR] aclrtSynchronizeStream(stream) failed: 507035\n"
        "EZ9999: Inner Error!\n"
        "       The extend info: errcode:(0x1, 0, 0) errorStr: " +
        errorStr + ". subErrType:1.\n" + "       Kernel task happen error, retCode=0x31, [" + ret + "].\n";
    const auto d = parseRuntimeErrors(log);
    return d.empty() ? std::string("<none>") : d[0].category;
  };
  EXPECT_EQ(categoryOf("MTE instruction error: the gm address out of range", "vector core exception"),
            "gm-out-of-bounds");
  EXPECT_EQ(categoryOf("VEC instruction error: the ub address out of bounds", "vector core exception"),
            "ub-out-of-bounds");
  EXPECT_EQ(categoryOf("instruction error", "vector core timeout"), "timeout");
  EXPECT_EQ(categoryOf("illegal instruction", "vector core exception"), "runtime-crash");
}

TEST(RuntimeErrorParser, ErrorCodeLinesAndFailedCallVariants) {
  const auto ee =
      parseRuntimeErrors("EE1003: [PID: 7] The argument is invalid: invalid argument blockDim=0\n");
  ASSERT_EQ(ee.size(), 1u);
  EXPECT_EQ(ee[0].category, "invalid-param");
  EXPECT_TRUE(hasNote(ee[0], "EE1003: [PID: 7] The argument is invalid: invalid argument blockDim=0"));

  const auto variants = parseRuntimeErrors(
      "[ERROR]  aclrtMalloc failed, errorCode = 207001\n"
      "[ERROR] aclInit failed. ERROR: 100000\n"
      "copying 3 files failed: 2\n"  // not an aclError (too small), ignored
      "aclrtLaunchKernel(handle, 8, args) failed: 999999\n");
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_EQ(variants[0].api, "aclrtMalloc");
  EXPECT_EQ(variants[0].message,
            "aclrtMalloc failed with error 207001 ACL_ERROR_RT_MEMORY_ALLOCATION (memory allocation error)");
  EXPECT_EQ(variants[1].category, "invalid-param");
  EXPECT_EQ(variants[2].api, "aclrtLaunchKernel");
  EXPECT_EQ(variants[2].category, "runtime-crash");
  EXPECT_EQ(variants[2].message, "aclrtLaunchKernel failed with error 999999 (unknown code)");
}

TEST(RuntimeErrorParser, DeviceReportGoesToTheKernelFailureNotAParameterError) {
  const std::string log = "[ERROR] aclrtMemcpy(dst, n, src, n, kind) failed: 107000\n" +
                          readFixture("documented_vector_core_exception.txt");
  const auto d = parseRuntimeErrors(log);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].category, "invalid-param");
  EXPECT_TRUE(d[0].notes.empty());
  EXPECT_EQ(d[1].category, "ub-out-of-bounds");
  EXPECT_FALSE(d[1].notes.empty());
}

TEST(RuntimeErrorParser, CleanRunsYieldNothing) {
  EXPECT_TRUE(parseRuntimeErrors("").empty());
  EXPECT_TRUE(parseRuntimeErrors("[INFO] Profiling running finished. All task success.\n"
                                 "test pass\r\n/home/dev/main.cpp:70 aclError:0\r\n")
                  .empty());
}

TEST(RuntimeErrorParser, SurvivesTruncatedInput) {
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KWB_FIXTURES_DIR) + "/runtime")) {
    if (entry.path().extension() != ".txt") continue;
    const std::string text = readFixture(entry.path().filename().string());
    for (std::size_t cut = 0; cut <= text.size(); cut += 3) {
      for (const auto& d : parseRuntimeErrors(text.substr(0, cut))) {
        EXPECT_EQ(d.source, "runtime");
        EXPECT_FALSE(d.message.empty());
      }
    }
  }
  EXPECT_TRUE(parseRuntimeErrors("x.cpp:1 aclError:99999999999999999999\nfailed: 12345678901234\n").empty());
}

// Regression (fuzz_diagnostics, issue 16): a runtime log with a byte that is not UTF-8 where a field
// of the diagnostic is taken from made the diagnostic's JSON throw type_error 316 on dump.
TEST(RuntimeErrorParser, DiagnosticsFromALogWithBadBytesDumpAsJson) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/fuzz/diagnostics_bad_utf8_in_runtime_log.txt",
                   std::ios::binary);
  ASSERT_TRUE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const nlohmann::json j = parseRuntimeErrors(ss.str());
  ASSERT_FALSE(j.empty());
  EXPECT_NO_THROW((void)j.dump());
}
