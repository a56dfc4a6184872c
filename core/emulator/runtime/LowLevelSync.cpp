// SPDX-License-Identifier: MIT
// set_flag / wait_flag, the CCE intrinsic spelling of SetFlag/WaitFlag that older samples use: the
// (source pipe, destination pipe) pair is translated to its HardEvent so that the sync checker orders
// the pipes exactly as for SetFlag<HardEvent::X_Y> (docs/emulator.md, "Supported API").

#include <string>

#include "kwb_sim/sync.h"

namespace kwb_sim {

namespace {

// The HardEvent whose set side is `src` and wait side is `dst`; false when the hardware has none.
bool eventForPipes(pipe_t src, pipe_t dst, AscendC::HardEvent& out) {
  const Pipe s = toPipe(src), d = toPipe(dst);
  for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
    const auto evt = static_cast<AscendC::HardEvent>(e);
    const EventPipes ep = eventPipes(evt);
    if (ep.src == s && ep.dst == d) {
      out = evt;
      return true;
    }
  }
  return false;
}

bool resolve(const char* api, pipe_t src, pipe_t dst, SrcLoc loc, AscendC::HardEvent& out) {
  if (eventForPipes(src, dst, out)) return true;
  const Pipe s = toPipe(src), d = toPipe(dst);
  report(Cat::InvalidParam, api, loc, s == Pipe::None ? Pipe::S : s, 0,
         std::string(api) + "(PIPE_" + pipeName(s) + ", PIPE_" + pipeName(d) +
             ", ...): no hardware event connects these two pipes (PIPE_ALL and unknown pipes cannot be "
             "flagged); order them with pipe_barrier(PIPE_ALL) or pick the producer and consumer pipes");
  return false;
}

}  // namespace

void flagSetPipes(pipe_t src, pipe_t dst, int id, SrcLoc loc) {
  AscendC::HardEvent evt{};
  if (resolve("set_flag", src, dst, loc, evt)) flagSet(evt, id, loc);
}

void flagWaitPipes(pipe_t src, pipe_t dst, int id, SrcLoc loc) {
  AscendC::HardEvent evt{};
  if (resolve("wait_flag", src, dst, loc, evt)) flagWait(evt, id, loc);
}

}  // namespace kwb_sim
