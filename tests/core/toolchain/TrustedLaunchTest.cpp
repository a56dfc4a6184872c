// SPDX-License-Identifier: MIT
// The trusted side's readers on hostile bytes: result files that are links, FIFOs or of the wrong
// size; records that are empty, cut, duplicated, forged or incomplete; output provenance.

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>

#include "core/emulator/analysis/RecordFormat.h"
#include "core/toolchain/ResultFile.h"
#include "core/toolchain/TrustedLaunch.h"

using namespace kwb;
namespace fs = std::filesystem;
namespace rec = kwb_sim::records;

namespace {

fs::path tempDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("kwb-trusted-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string frame(rec::FrameKind kind, std::int32_t block, const std::string& payload) {
  rec::FrameHeader h;
  h.kind = static_cast<std::uint32_t>(kind);
  h.block = block;
  h.length = payload.size();
  return std::string(reinterpret_cast<const char*>(&h), sizeof h) + payload;
}

// A block trace with one GM write of `bytes` at `addr` (the .trace format parseTrace reads).
std::string traceBytes(bool complete, std::uint64_t addr, std::uint64_t bytes) {
  const std::string api = "DataCopyPad", file = "kernel.cpp";
  std::uint64_t header[4] = {rec::kTraceMagic, 1, 0, (2u << 1) | (complete ? 1u : 0u)};
  std::string s(reinterpret_cast<const char*>(header), sizeof header);
  for (const std::string& str : {api, file}) {
    const std::uint32_t len = static_cast<std::uint32_t>(str.size());
    s.append(reinterpret_cast<const char*>(&len), sizeof len);
    s += str;
  }
  kwb_sim::Instr i;
  i.api = 0;
  i.file = 1;
  i.line = 7;
  i.pipe = kwb_sim::Pipe::MTE3;
  i.dstSpace = kwb_sim::MemSpace::GM;
  i.srcSpace = kwb_sim::MemSpace::UB;
  i.bytes = bytes;
  i.gmAddr = addr;
  i.burstCount = 1;
  i.burstLen = static_cast<std::uint32_t>(bytes);
  i.gmStride = bytes;
  s.append(reinterpret_cast<const char*>(&i), sizeof i);
  return s;
}

LaunchExpectation expectation() {
  LaunchExpectation e;
  e.kernel = "add_custom";
  e.blockDim = 1;
  e.soc = "Ascend910B1";
  e.socFile = fs::path(KWB_SOURCE_DIR) / "resources" / "soc" / "Ascend910B1.json";
  e.tensors = {{"x", 64}, {"z", 64}};
  e.candidateLines = std::vector<std::string>(10, "  DataCopyPad(zGm, zLocal, params);");
  return e;
}

std::string goodRecords(bool complete = true) {
  const std::string launch =
      R"({"kernel":"add_custom","blockDim":1,"soc":"Ascend910B1","autoSync":true,)"
      R"("blocks":[{"status":"ok","exit_code":0,"signal":0,"wall_ms":1,"timeout_ms":0}]})";
  const std::string tensors = R"([{"name":"x","addr":4096,"bytes":64},{"name":"z","addr":8192,"bytes":64}])";
  return frame(rec::FrameKind::HostDiagnostics, -1, "") + frame(rec::FrameKind::Tensors, -1, tensors) +
         frame(rec::FrameKind::BlockDiagnostics, 0, "") +
         frame(rec::FrameKind::BlockTrace, 0, traceBytes(complete, 8192, 64)) +
         frame(rec::FrameKind::Launch, -1, launch);
}

bool says(const TrustedLaunch& t, const std::string& words) {
  for (const auto& d : t.diagnostics)
    if (d.isError() && d.message.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(ResultFileRead, RegularFileOfTheExpectedSizeOnly) {
  const fs::path d = tempDir("result");
  { std::ofstream(d / "ok.bin") << "12345678"; }
  EXPECT_TRUE(readResultFile(d / "ok.bin", 8, 8).bytes);
  const auto wrongSize = readResultFile(d / "ok.bin", 16, 16);
  EXPECT_FALSE(wrongSize.bytes);
  EXPECT_NE(wrongSize.error.find("expected exactly 16"), std::string::npos) << wrongSize.error;
  fs::create_symlink("/etc/passwd", d / "link.bin");
  const auto link = readResultFile(d / "link.bin", std::nullopt, 1 << 20);
  EXPECT_FALSE(link.bytes) << "a link planted in place of a result must never be followed";
  EXPECT_EQ(link.error.find("root:"), std::string::npos);
  ASSERT_EQ(::mkfifo((d / "fifo.bin").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const auto fifo = readResultFile(d / "fifo.bin", std::nullopt, 1 << 20);
  EXPECT_FALSE(fifo.bytes);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2))
      << "a FIFO must not block the reader";
  EXPECT_FALSE(readResultFile("/dev/zero", std::nullopt, 1 << 20).bytes);
  std::string error;
  EXPECT_FALSE(createEmptyFile(d / "ok.bin", error)) << "result files are created fresh, never reused";
  fs::remove_all(d);
}

TEST(TrustedLaunchRecords, CompleteRecordsGiveTheTrustedProfileAndTheWrites) {
  const TrustedLaunch t = analyzeLaunchRecords(goodRecords(), expectation());
  EXPECT_FALSE(t.hasErrors()) << (t.diagnostics.empty() ? "" : t.diagnostics.front().message);
  EXPECT_TRUE(t.complete);
  ASSERT_EQ(t.writes.size(), 1u);
  EXPECT_EQ(t.writes[0].lo, 8192u);
  EXPECT_EQ(t.writes[0].hi, 8256u);
  EXPECT_EQ(t.tensorAddress.at("z"), 8192u);
  ASSERT_TRUE(t.profile.is_object());
  EXPECT_TRUE(t.profile.contains("total_us")) << t.profile.dump();
}

TEST(TrustedLaunchRecords, MissingCutOrForgedRecordsAreErrors) {
  EXPECT_TRUE(says(analyzeLaunchRecords("", expectation()), "without the emulator's launch records"));
  const std::string good = goodRecords();
  EXPECT_TRUE(says(analyzeLaunchRecords(std::string_view(good).substr(0, good.size() - 5), expectation()),
                   "malformed frame"));
  EXPECT_TRUE(says(analyzeLaunchRecords("garbage that is no frame at all", expectation()), "frame"));
  EXPECT_TRUE(says(analyzeLaunchRecords(good + good, expectation()), "twice"));
  LaunchExpectation other = expectation();
  other.blockDim = 4;
  EXPECT_TRUE(says(analyzeLaunchRecords(good, other), "but the workbench launched"));
  LaunchExpectation sizes = expectation();
  sizes.tensors[1].bytes = 128;
  EXPECT_TRUE(says(analyzeLaunchRecords(good, sizes), "tensor table does not match"));
}

TEST(TrustedLaunchRecords, IncompleteOrAbsentTraceIsAMissingEndOfKernel) {
  const TrustedLaunch cut = analyzeLaunchRecords(goodRecords(false), expectation());
  EXPECT_FALSE(cut.complete);
  EXPECT_TRUE(says(cut, "ended without its end-of-kernel record"));
  // A trace header that claims more strings than exist.
  std::string forged = traceBytes(true, 8192, 64);
  std::uint64_t claim = (1000u << 1) | 1u;
  std::memcpy(forged.data() + 24, &claim, sizeof claim);
  const std::string launch = R"({"kernel":"add_custom","blockDim":1,"blocks":[{"status":"ok"}]})";
  const std::string tensors = R"([{"name":"x","addr":4096,"bytes":64},{"name":"z","addr":8192,"bytes":64}])";
  const std::string records = frame(rec::FrameKind::Tensors, -1, tensors) +
                              frame(rec::FrameKind::BlockTrace, 0, forged) +
                              frame(rec::FrameKind::Launch, -1, launch);
  EXPECT_TRUE(says(analyzeLaunchRecords(records, expectation()), "end-of-kernel record"));
}

TEST(TrustedLaunchRecords, DiagnosticsNeverOpenTheFilesTheyName) {
  const std::string line =
      R"({"category":"gm-out-of-bounds","severity":"error","api":"DataCopyPad","file":"/etc/passwd","line":1,"operand":0,"message":"m"})"
      "\n";
  std::string records = goodRecords();
  records = frame(rec::FrameKind::BlockDiagnostics, 0, line) + records.substr(0);
  // The block's diagnostics frame appears twice now (the forged one first): refused outright.
  EXPECT_TRUE(says(analyzeLaunchRecords(records, expectation()), "twice"));
  const std::string launch = R"({"kernel":"add_custom","blockDim":1,"blocks":[{"status":"ok"}]})";
  const std::string tensors = R"([{"name":"x","addr":4096,"bytes":64},{"name":"z","addr":8192,"bytes":64}])";
  const std::string one = frame(rec::FrameKind::Tensors, -1, tensors) +
                          frame(rec::FrameKind::BlockDiagnostics, 0, line) +
                          frame(rec::FrameKind::BlockTrace, 0, traceBytes(true, 8192, 64)) +
                          frame(rec::FrameKind::Launch, -1, launch);
  const TrustedLaunch t = analyzeLaunchRecords(one, expectation());
  ASSERT_FALSE(t.diagnostics.empty());
  for (const auto& d : t.diagnostics) {
    EXPECT_EQ(d.excerpt.find("root"), std::string::npos) << "a host file was read for an excerpt";
    EXPECT_NE(d.file, "/etc/passwd");
  }
}

TEST(TrustedLaunchProvenance, ChangedBytesMustLieInRecordedWrites) {
  const std::vector<std::uint8_t> poison(64, 0xA5);
  std::vector<std::uint8_t> after = poison;
  for (int k = 0; k < 32; ++k) after[k] = 1;
  const std::vector<sim::GmRange> firstHalf = {{8192, 8192 + 32}};
  EXPECT_TRUE(checkProvenance("z", 8192, poison, after, firstHalf, "kernel.cpp").empty());
  after[40] = 2;
  const auto bad = checkProvenance("z", 8192, poison, after, firstHalf, "kernel.cpp");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].message.find("1 byte(s) of output z changed (first at byte 40)"), std::string::npos)
      << bad[0].message;
  EXPECT_FALSE(checkProvenance("z", 8192, poison, after, {}, "kernel.cpp").empty());
  EXPECT_FALSE(checkInputsUnwritten("x", 4096, 64, {{4100, 4104}}, "kernel.cpp").empty());
  EXPECT_TRUE(checkInputsUnwritten("x", 4096, 64, {{8192, 8256}}, "kernel.cpp").empty());
}

// The records' cause facts: a gm_range access moves to the loop of the candidate's own text, a related
// list is read into roles (bounded, in the candidate's name).
TEST(TrustedLaunchRecords, GmRangeFactsAndRelatedLinesReachTheDiagnostic) {
  const std::string oob =
      R"j({"category":"gm-out-of-bounds","severity":"error","api":"DataCopy","file":"/w/kernel.cpp","line":3,)j"
      R"j("operand":1,"block":0,"message":"DataCopy reads GM bytes [64, 96)",)j"
      R"j("gm_range":{"first":64,"length":32,"range_bytes":64,"write":false}})j"
      "\n";
  const std::string hang =
      R"j({"category":"queue-misuse","severity":"error","api":"EnQue","file":"/w/kernel.cpp","line":4,)j"
      R"j("operand":-2,"block":0,"message":"nothing was EnQue'd",)j"
      R"j("related":[{"role":"the DeQue that waits forever","file":"/w/kernel.cpp","line":5},)j"
      R"j({"role":"","file":"kernel.cpp","line":2},{"role":"bad line","file":"kernel.cpp","line":-1}]})j"
      "\n";
  const std::string launch = R"({"kernel":"add_custom","blockDim":1,"blocks":[{"status":"ok"}]})";
  const std::string tensors = R"([{"name":"x","addr":4096,"bytes":64},{"name":"z","addr":8192,"bytes":64}])";
  const std::string records = frame(rec::FrameKind::Tensors, -1, tensors) +
                              frame(rec::FrameKind::BlockDiagnostics, 0, oob + hang) +
                              frame(rec::FrameKind::BlockTrace, 0, traceBytes(true, 8192, 64)) +
                              frame(rec::FrameKind::Launch, -1, launch);
  LaunchExpectation e = expectation();
  e.candidateFile = "kernel.cpp";
  e.candidateLines = {"void f() {",
                      "  for (int r = 0; r <= rows; ++r) {",
                      "    DataCopy(l, xGm[r * 8], 8);",
                      "    q.EnQue(l);",
                      "    q.DeQue<float>();",
                      "  }",
                      "}"};
  const TrustedLaunch t = analyzeLaunchRecords(records, e);
  const Diagnostic* moved = nullptr;
  const Diagnostic* queue = nullptr;
  for (const auto& d : t.diagnostics) {
    if (d.category == "gm-out-of-bounds") moved = &d;
    if (d.category == "queue-misuse") queue = &d;
  }
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->line, 2);
  EXPECT_NE(moved->message.find("runs one iteration too many"), std::string::npos) << moved->message;
  ASSERT_FALSE(moved->related.empty());
  EXPECT_EQ(moved->related[0].line, 3);
  EXPECT_EQ(moved->related[0].file, "kernel.cpp");
  ASSERT_NE(queue, nullptr);
  ASSERT_EQ(queue->related.size(), 1u);  // the entries without a role or a line are dropped
  EXPECT_EQ(queue->related[0], (RelatedLocation{"the DeQue that waits forever", "kernel.cpp", 5}));
}

// A mix kernel's block is 1 AIC + 2 AIV processes, each with its own records (docs/emulator.md, "Mixed
// AIC/AIV kernels"): all three sets are read and mapped to block 0; a missing one or an impossible
// coresPerBlock is an error.
TEST(TrustedLaunchRecords, MixKernelRecordsHoldOneSetPerSubCore) {
  const std::string tensors = R"([{"name":"x","addr":4096,"bytes":64},{"name":"z","addr":8192,"bytes":64}])";
  const auto mix = [&](int perBlock, int sets) {
    std::string blocks;
    for (int u = 0; u < perBlock; ++u)
      blocks += std::string(u ? "," : "") +
                R"({"status":"ok","exit_code":0,"signal":0,"wall_ms":1,"timeout_ms":0})";
    const std::string launch = R"({"kernel":"add_custom","blockDim":1,"coresPerBlock":)" +
                               std::to_string(perBlock) +
                               R"(,"soc":"Ascend910B1","autoSync":true,"blocks":[)" + blocks + "]}";
    std::string r = frame(rec::FrameKind::Tensors, -1, tensors);
    for (int u = 0; u < sets; ++u) {
      r += frame(rec::FrameKind::BlockDiagnostics, u, "");
      // The AIC writes nothing here; each AIV writes its half of z.
      r += frame(rec::FrameKind::BlockTrace, u,
                 traceBytes(true, u == 0 ? 4096 : 8192 + 32 * (u - 1), u == 0 ? 0 : 32));
    }
    return r + frame(rec::FrameKind::Launch, -1, launch);
  };
  const TrustedLaunch t = analyzeLaunchRecords(mix(3, 3), expectation());
  EXPECT_FALSE(t.hasErrors()) << (t.diagnostics.empty() ? "" : t.diagnostics.front().message);
  EXPECT_TRUE(t.complete);
  ASSERT_EQ(t.trace.blocks.size(), 3u);
  EXPECT_EQ(t.trace.coresPerBlock, 3u);
  for (const auto& bt : t.trace.blocks) EXPECT_EQ(bt.block, 0);
  EXPECT_EQ(t.trace.blocks[0].core, 1);
  EXPECT_EQ(t.trace.blocks[2].core, 2);
  EXPECT_EQ(t.trace.blocks[2].subBlock, 1);
  const TrustedLaunch missing = analyzeLaunchRecords(mix(3, 2), expectation());
  EXPECT_FALSE(missing.complete);
  EXPECT_TRUE(says(missing, "end-of-kernel record"));
  EXPECT_TRUE(says(analyzeLaunchRecords(mix(4, 4), expectation()), "cores per block"));
}
