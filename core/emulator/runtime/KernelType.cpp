// SPDX-License-Identifier: MIT
// The kernel type of a launch (KernelType.h, docs/emulator.md "Mixed AIC/AIV kernels"): from the
// __mix__ section the kernel function lies in, or from a probe run of block 0 that stops at the kernel's
// KERNEL_TASK_TYPE_DEFAULT. The probe cannot touch GM (the kernel views are protected; a fault ends it)
// and stops at its first emulated API call, so nothing it does reaches the launch.

#include "KernelType.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "BlockContext.h"
#include "kwb_sim/kernel_type.h"

// The linker's bounds of the __mix__ sections (kwb_sim/base.h); weak: a program without such a kernel
// has none.
// NOLINTBEGIN(bugprone-reserved-identifier,readability-identifier-naming)
extern "C" {
extern const char __start_kwb_mix_1_0[] __attribute__((weak));
extern const char __stop_kwb_mix_1_0[] __attribute__((weak));
extern const char __start_kwb_mix_0_1[] __attribute__((weak));
extern const char __stop_kwb_mix_0_1[] __attribute__((weak));
extern const char __start_kwb_mix_1_1[] __attribute__((weak));
extern const char __stop_kwb_mix_1_1[] __attribute__((weak));
extern const char __start_kwb_mix_1_2[] __attribute__((weak));
extern const char __stop_kwb_mix_1_2[] __attribute__((weak));
}
// NOLINTEND(bugprone-reserved-identifier,readability-identifier-naming)

namespace kwb_sim {

namespace {
// Bit per KernelMetaType a kernel of this program can declare (set before main by kernel_type.h).
std::uint32_t& typesInProgram() {
  static std::uint32_t mask = 0;
  return mask;
}
int g_probeFd = -1;          // probe child: where the declared type goes
int g_launchType = -1;       // block child: the type the launch ran the kernel as
std::string g_launchOrigin;  // block child: where that type came from

bool inSection(const void* fn, const char* start, const char* stop) {
  const auto* p = static_cast<const char*>(fn);
  return start != nullptr && stop != nullptr && p >= start && p < stop;
}

void probeFault(int /*sig*/) {
  ::_exit(0);  // the kernel touched GM or faulted before any declaration: not declared
}

bool changesLayout(int type) {
  return type == KERNEL_TYPE_AIC_ONLY || type == KERNEL_TYPE_MIX_AIC_1_0 || type == KERNEL_TYPE_MIX_AIC_1_1 ||
         type == KERNEL_TYPE_MIX_AIC_1_2;
}

rt::KernelLayout layoutOf(int type, std::string origin) {
  rt::KernelLayout l;
  l.type = type;
  l.origin = std::move(origin);
  switch (type) {
    case KERNEL_TYPE_AIC_ONLY:
    case KERNEL_TYPE_MIX_AIC_1_0:
      l.aicPerBlock = true;
      l.aivPerBlock = 0;
      break;
    case KERNEL_TYPE_MIX_AIC_1_1:
      l.aicPerBlock = true;
      l.aivPerBlock = 1;
      break;
    case KERNEL_TYPE_MIX_AIC_1_2:
      l.aicPerBlock = true;
      l.aivPerBlock = 2;
      break;
    default:
      break;
  }
  return l;
}
}  // namespace

bool noteKernelTypeInProgram(int type) noexcept {
  if (type >= 0 && type < 32 && changesLayout(type)) typesInProgram() |= 1u << type;
  return true;
}

void declareKernelType(int type, SrcLoc loc) {
  if (g_probeFd >= 0) {
    const int msg[2] = {type, static_cast<int>(loc.line)};
    const ssize_t w = ::write(g_probeFd, msg, sizeof(msg));
    (void)w;
    ::_exit(0);
  }
  if (g_launchType < 0) return;  // outside a launch
  const bool asMix = changesLayout(type);
  const bool ranMix = changesLayout(g_launchType);
  if ((asMix || ranMix) && type != g_launchType) {
    report(Cat::InvalidParam, "KERNEL_TASK_TYPE_DEFAULT", loc, Pipe::S, 0,
           std::string("the kernel declares ") + rt::kernelTypeName(type) +
               " here, but the launch ran it as " + rt::kernelTypeName(g_launchType) +
               (g_launchOrigin.empty() ? std::string(" (nothing declared before its first API call)")
                                       : " (" + g_launchOrigin + ")") +
               ": the declaration must be the kernel's first statement, reached before any API call, and "
               "the same on every path (the number of AIC/AIV cores per block follows from it)");
  }
}

namespace rt {

const char* kernelTypeName(int type) {
  static const char* const names[] = {"KERNEL_TYPE_AIV_ONLY",    "KERNEL_TYPE_AIC_ONLY",
                                      "KERNEL_TYPE_MIX_AIV_1_0", "KERNEL_TYPE_MIX_AIC_1_0",
                                      "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2",
                                      "KERNEL_TYPE_AICORE",      "KERNEL_TYPE_VECTORCORE",
                                      "KERNEL_TYPE_MIX_AICORE",  "KERNEL_TYPE_MIX_VECTOR_CORE"};
  return type >= 0 && type < 10 ? names[type] : "an unknown kernel type";
}

void setBlockLayout(const KernelLayout& layout) {
  g_launchType = layout.type;
  g_launchOrigin = layout.origin;
}

KernelLayout resolveKernelLayout(const void* entry, MixRatio declared, KernelThunk thunk, void* ctx,
                                 const std::string& workDir, std::int64_t blockDim, long timeoutMs) {
  if (inSection(entry, __start_kwb_mix_1_2, __stop_kwb_mix_1_2))
    return layoutOf(KERNEL_TYPE_MIX_AIC_1_2, "__mix__(1, 2)");
  if (inSection(entry, __start_kwb_mix_1_1, __stop_kwb_mix_1_1))
    return layoutOf(KERNEL_TYPE_MIX_AIC_1_1, "__mix__(1, 1)");
  if (inSection(entry, __start_kwb_mix_1_0, __stop_kwb_mix_1_0))
    return layoutOf(KERNEL_TYPE_MIX_AIC_1_0, "__mix__(1, 0)");
  if (inSection(entry, __start_kwb_mix_0_1, __stop_kwb_mix_0_1))
    return layoutOf(KERNEL_TYPE_MIX_AIV_1_0, "__mix__(0, 1)");
  const std::string declaredText =
      "__mix__(" + std::to_string(declared.cube) + ", " + std::to_string(declared.vector) + ")";
  if (declared.cube == 1 && declared.vector == 2) return layoutOf(KERNEL_TYPE_MIX_AIC_1_2, declaredText);
  if (declared.cube == 1 && declared.vector == 1) return layoutOf(KERNEL_TYPE_MIX_AIC_1_1, declaredText);
  if (declared.cube == 1 && declared.vector == 0) return layoutOf(KERNEL_TYPE_MIX_AIC_1_0, declaredText);
  if (declared.cube == 0 && declared.vector == 1) return layoutOf(KERNEL_TYPE_MIX_AIV_1_0, declaredText);
  if (typesInProgram() == 0) return KernelLayout{};
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return KernelLayout{};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    g_probeFd = fds[1];
    R().probing = true;
    beginBlock(workDir, 0, blockDim);
    if (R().diagFd >= 0) ::close(R().diagFd);
    R().diagFd = -1;
    R().diagPath[0] = 0;
    R().workDir.clear();  // nothing of the probe is kept: block 0 rewrites its own files
    struct sigaction sa {};
    sa.sa_handler = probeFault;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(sig, &sa, nullptr);
    gmProtectKernelViews(PROT_NONE);
    thunk(ctx);
    ::_exit(0);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return KernelLayout{};
  }
  int msg[2] = {-1, 0};
  pollfd pfd{fds[0], POLLIN, 0};
  if (::poll(&pfd, 1, static_cast<int>(timeoutMs)) > 0 && ::read(fds[0], msg, sizeof(msg)) != sizeof(msg))
    msg[0] = -1;
  ::close(fds[0]);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (msg[0] < 0 || !changesLayout(msg[0])) return msg[0] < 0 ? KernelLayout{} : layoutOf(msg[0], "");
  return layoutOf(msg[0], "KERNEL_TASK_TYPE_DEFAULT at line " + std::to_string(msg[1]));
}

}  // namespace rt
}  // namespace kwb_sim
