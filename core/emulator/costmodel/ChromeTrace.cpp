// SPDX-License-Identifier: MIT
// Chrome trace (Perfetto, chrome://tracing, MindStudio Insight) of a costed launch. Written by hand
// rather than through a JSON DOM: a 48-block launch has tens of thousands of slices.

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"

namespace kwb::sim {

using kwb_sim::Pipe;
using kwb_sim::SyncKind;

namespace {

// Lane names as msprof's simulator trace uses them (docs/ascend-notes.md §4.2), so the layout looks familiar.
const char* laneName(int pipe) {
  switch (static_cast<Pipe>(pipe)) {
    case Pipe::S:
      return "SCALAR";
    case Pipe::V:
      return "VECTOR";
    case Pipe::MTE1:
      return "MTE1";
    case Pipe::MTE2:
      return "MTE2";
    case Pipe::MTE3:
      return "MTE3";
    case Pipe::M:
      return "CUBE";
    case Pipe::FIX:
      return "FIXP";
    default:
      return "SCALAR";
  }
}

int laneOf(const kwb_sim::Instr& in) {
  const int i = static_cast<int>(in.pipe);
  return i < kPipes ? i : static_cast<int>(Pipe::S);
}

std::string escaped(const std::string& s) {
  const std::string q = nlohmann::json(s).dump();
  return q.substr(1, q.size() - 2);
}

const char* flowName(SyncKind to) {
  switch (to) {
    case SyncKind::DeQue:
      return "EnQue->DeQue";
    case SyncKind::AllocTensor:
      return "FreeTensor->AllocTensor";
    default:
      return "SetFlag->WaitFlag";
  }
}

struct Num {
  explicit Num(double x) : v(x) {}
  double v;
};

// Buffers the document and formats numbers with to_chars: the trace of a 48-block launch has ~65k
// slices, and ostream/printf formatting would dominate the cost model's share of the run.
class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) { buf_.reserve(kFlush + 4096); }
  ~Writer() { flush(); }
  void sep() {
    buf_ += first_ ? "\n" : ",\n";
    first_ = false;
    if (buf_.size() >= kFlush) flush();
  }
  Writer& operator<<(std::string_view s) {
    buf_ += s;
    return *this;
  }
  Writer& operator<<(char c) {
    buf_ += c;
    return *this;
  }
  template <class Int, class = std::enable_if_t<std::is_integral_v<Int>>>
  Writer& operator<<(Int v) {
    char b[32];
    auto r = std::to_chars(b, b + sizeof b, v);
    buf_.append(b, r.ptr);
    return *this;
  }
  // Fixed 4 decimals (0.1 ns when the value is in microseconds).
  Writer& num(double v) {
    char b[64];
    auto r = std::to_chars(b, b + sizeof b, v, std::chars_format::fixed, 4);
    buf_.append(b, r.ptr);
    return *this;
  }
  Writer& operator<<(Num n) { return num(n.v); }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr size_t kFlush = 1 << 20;
  std::ostream& out_;
  std::string buf_;
  bool first_ = true;
};

}  // namespace

void writeChromeTrace(const Profile& p, const kwb_sim::LaunchTrace& trace, std::ostream& out) {
  const double mhz = p.clockMhz > 0 ? p.clockMhz : 1;
  std::vector<std::string> names(trace.strings.size());
  for (size_t i = 0; i < names.size(); ++i) names[i] = escaped(trace.strings[i]);
  const auto name = [&](std::uint32_t i) -> const std::string& {
    static const std::string empty;
    return i < names.size() ? names[i] : empty;
  };

  // Lanes: S, V, MTE2, MTE3 always; other pipes when any record uses them.
  bool lane[kPipes] = {};
  for (Pipe x : {Pipe::S, Pipe::V, Pipe::MTE2, Pipe::MTE3}) lane[static_cast<int>(x)] = true;
  for (const auto& b : trace.blocks)
    for (const auto& in : b.instrs) lane[laneOf(in)] = true;
  std::vector<bool> coreSeen(static_cast<size_t>(std::max(1, p.cores)), false);
  for (const auto& b : p.blocks)
    if (b.core >= 0 && static_cast<size_t>(b.core) < coreSeen.size())
      coreSeen[static_cast<size_t>(b.core)] = true;
  const char* coreKind = p.coupled ? "AI Core" : (p.kernelKind == "vector" ? "AIV" : "AIC");
  // A mix kernel's lanes are AIC or AIV by the processes the schedule put on them.
  std::vector<std::string> laneKind(coreSeen.size());
  for (const auto& b : p.blocks)
    if (!b.coreKind.empty() && b.core >= 0 && static_cast<size_t>(b.core) < laneKind.size())
      laneKind[static_cast<size_t>(b.core)] = b.coreKind;

  Writer w(out);
  w << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"model\":"
    << nlohmann::json("kwb emulator cost model estimate (" + p.soc + " tables), not a device measurement")
           .dump()
    << ",\"soc\":" << nlohmann::json(p.soc).dump() << ",\"kernel\":" << nlohmann::json(p.kernel).dump()
    << ",\"clock_mhz\":" << Num(mhz) << "},\"traceEvents\":[";
  for (size_t c = 0; c < coreSeen.size(); ++c) {
    if (!coreSeen[c]) continue;
    w.sep();
    w << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << c << ",\"args\":{\"name\":\"core " << c << " ("
      << (laneKind[c].empty() ? std::string(coreKind) : laneKind[c]) << ")\"}}";
    w.sep();
    w << "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" << c << ",\"args\":{\"sort_index\":" << c
      << "}}";
    for (int i = 0; i < kPipes; ++i) {
      if (!lane[i]) continue;
      w.sep();
      w << "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" << c << ",\"tid\":" << i
        << ",\"args\":{\"name\":\"" << laneName(i) << "\"}}";
      w.sep();
      w << "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":" << c << ",\"tid\":" << i
        << ",\"args\":{\"sort_index\":" << i << "}}";
    }
  }

  // Sync records take no pipe time; they get one cycle on screen so flow arrows have a slice to bind to.
  const auto spanOf = [&](const kwb_sim::Instr& in, const InstrTiming& t) {
    const double d = t.end - t.start;
    return in.sync != SyncKind::None && d < 1 ? 1.0 : d;
  };
  for (size_t b = 0; b < p.blocks.size() && b < trace.blocks.size(); ++b) {
    const auto& bp = p.blocks[b];
    const auto& instrs = trace.blocks[b].instrs;
    const InstrTiming* t = p.timings.data() + p.blockOffset[b];
    for (size_t k = 0; k < instrs.size(); ++k) {
      const auto& in = instrs[k];
      const double cycles = t[k].end - t[k].start;
      w.sep();
      w << "{\"name\":\"" << name(in.api) << "\",\"cat\":\""
        << (in.sync == SyncKind::None ? kwb_sim::pipeName(static_cast<Pipe>(laneOf(in))) : "sync")
        << "\",\"ph\":\"X\",\"ts\":" << Num((bp.startCycle + t[k].start) / mhz)
        << ",\"dur\":" << Num(spanOf(in, t[k]) / mhz) << ",\"pid\":" << bp.core << ",\"tid\":" << laneOf(in)
        << ",\"args\":{\"block\":" << bp.block << ",\"code\":\"" << name(in.file) << ':' << in.line
        << "\",\"line\":" << in.line << ",\"cycles\":" << Num(cycles);
      if (in.bytes) w << ",\"bytes\":" << in.bytes;
      if (in.count) w << ",\"count\":" << in.count;
      if (in.dtype != kwb_sim::DType::None) w << ",\"dtype\":\"" << kwb_sim::dtypeName(in.dtype) << '"';
      if (in.times > 1) w << ",\"times\":" << in.times;
      if (in.sync != SyncKind::None && in.syncId >= 0) w << ",\"id\":" << in.syncId;
      w << "}}";
    }
  }

  std::uint64_t flowId = 0;
  for (const auto& f : p.flows) {
    if (f.block >= p.blocks.size() || f.block >= trace.blocks.size()) continue;
    const auto& bp = p.blocks[f.block];
    const auto& instrs = trace.blocks[f.block].instrs;
    if (f.from >= instrs.size() || f.to >= instrs.size()) continue;
    const InstrTiming* t = p.timings.data() + p.blockOffset[f.block];
    const auto& to = instrs[f.to];
    ++flowId;
    w.sep();
    w << "{\"name\":\"" << flowName(to.sync) << "\",\"cat\":\"sync\",\"ph\":\"s\",\"id\":" << flowId
      << ",\"ts\":" << Num((bp.startCycle + t[f.from].start) / mhz) << ",\"pid\":" << bp.core
      << ",\"tid\":" << laneOf(instrs[f.from]) << '}';
    w.sep();
    w << "{\"name\":\"" << flowName(to.sync)
      << "\",\"cat\":\"sync\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" << flowId
      << ",\"ts\":" << Num((bp.startCycle + t[f.to].start + 0.99 * spanOf(to, t[f.to])) / mhz)
      << ",\"pid\":" << bp.core << ",\"tid\":" << laneOf(to) << '}';
  }
  w << "\n]}\n";
}

}  // namespace kwb::sim
