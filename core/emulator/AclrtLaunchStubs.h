// SPDX-License-Identifier: MIT
#pragma once
// The kernel-launch samples' NPU branch calls a kernel through `aclrtlaunch_<kernel>.h`, a header CANN's
// `ascendc_library()` generates at build time for every kernel of the library's sources, with
// `ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...)` expanding to `aclrtlaunch_<kernel>(...)`
// (docs/emulator.md, "Launch forms"). The emulator's `ascendc_library()` (cmake/cann/ascendc.cmake) runs
// `kwb sim launch-stubs` on each kernel source: it finds the `__global__` kernels, writes one such header
// per kernel, and writes the translation unit the library compiles: the source (its <<<>>> launches
// rewritten, ChevronRewrite.h) followed by the definition of each `aclrtlaunch_<kernel>`, which launches
// the kernel on the emulator with device memory semantics.
//
// Parameters in the launch function: a pointer kernel parameter (GM_ADDR, `__gm__ T*`) becomes `void*`,
// an arithmetic one keeps its type, and any other (a tiling struct passed by value) becomes a pointer
// to it, whose pointee is copied into the launch, as CANN's generated launch functions do.

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct KernelParam {
  std::string type;  // as written in the kernel's definition, e.g. "GM_ADDR", "AddCustomTilingData"
  std::string name;  // as written, or argN when the definition leaves it unnamed
  enum class Kind { Pointer, Scalar, ByValue } kind = Kind::ByValue;
};

struct KernelEntry {
  std::string name;
  int line = 0;  // 1-based line of the kernel's name in the source
  std::vector<KernelParam> params;
};

struct KernelEntryScan {
  std::vector<KernelEntry> kernels;  // non-template `__global__` function definitions, in source order
  std::vector<std::string> skipped;  // a sentence for each kernel that cannot get a launch function
};

// Finds the kernel definitions of a source (comments and literals ignored).
KernelEntryScan findKernelEntries(std::string_view source);

// The text of `aclrtlaunch_<kernel>.h`.
std::string aclrtLaunchHeader(const KernelEntry& kernel, const std::string& sourceName);

// The definitions of the launch functions, appended to the kernel's translation unit; `sourceName` is
// the file the #line directive names (the kernel's own source).
std::string aclrtLaunchDefinitions(const std::vector<KernelEntry>& kernels, const std::string& sourceName);

// `kwb sim launch-stubs SRC --header-dir DIR -o OUT`: writes `DIR/aclrtlaunch_<kernel>.h` for every
// kernel of SRC and the translation unit OUT. Prints the written headers' names on stdout (one a line)
// and each problem on stderr naming SRC; returns 0, or 1 when SRC cannot be used (unreadable, a
// malformed <<<>>> launch, no kernel), 3 when a file cannot be written.
int writeAclrtLaunchStubs(const std::string& source, const std::string& headerDir, const std::string& output);

}  // namespace kwb
