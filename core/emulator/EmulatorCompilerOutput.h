// SPDX-License-Identifier: MIT
#pragma once
// What the user reads when g++ rejects a program built against the emulator's headers (`kwb sim build`,
// `kwb sim cc`; docs/emulator.md, "Errors at the user's line"). g++ reports a failed emulator
// static_assert inside the emulator's header with the user's call in a "required from here" line, lists
// the emulator's own declarations as candidates and suggests emulator internals ("did you mean
// 'kwb_sim::VOp::Copy'?"). This rewrite, a pure function of the captured output:
//  - gives every error reported inside the emulator's headers the user's line (the innermost frame of
//    its instantiation chain in a user file), with one note saying where g++ saw it;
//  - turns the emulator's refusals ("static assertion failed: kwb-sim: ...") into one line at that call,
//    without the chain, the macro notes and the header excerpts;
//  - turns "'X' is not a member of 'AscendC'" into "`AscendC::X` is not emulated yet ..." and drops
//    every suggestion, note and line that names an emulator internal (kwb_sim::, Kwb*, KWB_SIM_*);
//  - drops the "In file included from" chains and excerpts of the emulator's headers.
// Anything else (user-file errors, warnings, linker output) passes unchanged.

#include <string>
#include <string_view>

namespace kwb {

// `emulatorIncludeDir`: the folder the emulator's headers were included from, as g++ prints it.
std::string cleanEmulatorCompilerOutput(std::string_view output, std::string_view emulatorIncludeDir);

}  // namespace kwb
