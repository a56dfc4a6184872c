// SPDX-License-Identifier: MIT
#pragma once
// The `<<<blockDim, l2ctrl, stream>>>` kernel launch of `.asc` sources is not C++, so sources that use
// it are rewritten before g++ sees them (docs/emulator.md, "Launch forms"): every
//   kernel<<<cfg>>>(args)
// becomes
//   ::kwb_sim::chevronLaunch("kernel", kernel, ::kwb_sim::SrcLoc::current(), cfg)(args)
// on the same line (newlines inside the launch are kept; a kernel the source declares `__mix__(c, v)` gets
// `::kwb_sim::MixDecl{c, v}` before cfg, because a template kernel's instances lose the attribute's section),
// and the text starts with the emulator's host header and a `#line 1 "<file>"`, so that every diagnostic and
// every recorded source location stays at the user's line. Comments, string and character literals are left
// alone.

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct ChevronRewriteError {
  int line = 0;  // 1-based, in the original text
  std::string message;
};

struct ChevronRewrite {
  std::string text;  // the rewritten source (starts with the host header and the #line directive)
  int launches = 0;  // how many <<<>>> launches were rewritten
  std::vector<ChevronRewriteError> errors;
};

// `fileName` is what the #line directive names (the original source's path).
ChevronRewrite rewriteChevronLaunches(std::string_view source, const std::string& fileName);

// True for the file names the rewrite applies to: `.asc` sources, and any source whose text has a
// `<<<` outside comments and literals (a host `.cpp` with a chevron launch).
bool needsChevronRewrite(const std::string& fileName, std::string_view source);

// For every byte of `source`: true when it is program text, false inside comments, string and character
// literals (raw strings included).
std::vector<bool> sourceCodeMask(std::string_view source);

// `text` as a C string literal for generated code (a `#line` file name, a kernel's name): quotes and
// backslashes escaped, line breaks dropped. Shared by the <<<>>> rewrite and the aclrtlaunch stubs.
std::string cString(std::string_view text);

}  // namespace kwb
