// SPDX-License-Identifier: MIT
#include "core/sandbox/SeccompFilter.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>

namespace kwb {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_X86_64;
constexpr bool kHasX32 = true;  // x32 system calls share the arch value and set this bit
constexpr const char* kArchName = "x86_64";
#define KWB_SECCOMP_SUPPORTED 1
#elif defined(__aarch64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
constexpr bool kHasX32 = false;
constexpr const char* kArchName = "aarch64";
#define KWB_SECCOMP_SUPPORTED 1
#endif

constexpr std::uint32_t kX32Bit = 0x40000000u;

// A tiny assembler for classic BPF with symbolic jump targets.
class BpfProgram {
 public:
  void label(const std::string& name) { labels_[name] = code_.size(); }
  void load(std::uint32_t offset) { emit(BPF_LD | BPF_W | BPF_ABS, offset); }
  void ret(std::uint32_t value) { emit(BPF_RET | BPF_K, value); }
  // if (A <op> k) goto ifTrue else goto ifFalse; "" means the next instruction.
  void jump(std::uint16_t op, std::uint32_t k, const std::string& ifTrue, const std::string& ifFalse) {
    jumps_.push_back({code_.size(), ifTrue, ifFalse});
    emit(BPF_JMP | op | BPF_K, k);
  }
  std::vector<sock_filter> finish() const {
    std::vector<sock_filter> out = code_;
    for (const auto& j : jumps_) {
      out[j.at].jt = offset(j.at, j.ifTrue);
      out[j.at].jf = offset(j.at, j.ifFalse);
    }
    return out;
  }

 private:
  struct Jump {
    std::size_t at;
    std::string ifTrue, ifFalse;
  };
  void emit(std::uint16_t code, std::uint32_t k) { code_.push_back(sock_filter{code, 0, 0, k}); }
  std::uint8_t offset(std::size_t from, const std::string& target) const {
    if (target.empty()) return 0;
    return static_cast<std::uint8_t>(labels_.at(target) - from - 1);  // forward jumps only
  }
  std::vector<sock_filter> code_;
  std::vector<Jump> jumps_;
  std::map<std::string, std::size_t> labels_;
};

}  // namespace

bool seccompFilterSupported() {
#ifdef KWB_SECCOMP_SUPPORTED
  return true;
#else
  return false;
#endif
}

std::vector<std::uint8_t> buildNetworkSeccompFilter() {
#ifdef KWB_SECCOMP_SUPPORTED
  BpfProgram p;
  p.load(offsetof(seccomp_data, arch));
  p.jump(BPF_JEQ, kAuditArch, "", "kill");
  p.load(offsetof(seccomp_data, nr));
  if (kHasX32) p.jump(BPF_JGE, kX32Bit, "kill", "");
  p.jump(BPF_JEQ, SYS_socket, "socket", "");
#ifdef SYS_io_uring_setup
  p.jump(BPF_JEQ, SYS_io_uring_setup, "enosys", "");
#endif
  p.ret(SECCOMP_RET_ALLOW);
  p.label("socket");
  // The low 32 bits of the first argument (the address family) on these little-endian targets.
  p.load(offsetof(seccomp_data, args));
  p.jump(BPF_JEQ, AF_UNIX, "allow", "kill");
  p.label("allow");
  p.ret(SECCOMP_RET_ALLOW);
  p.label("enosys");
  p.ret(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
  p.label("kill");
  p.ret(SECCOMP_RET_KILL_PROCESS);
  std::vector<sock_filter> code = p.finish();
  std::vector<std::uint8_t> bytes(code.size() * sizeof(sock_filter));
  memcpy(bytes.data(), code.data(), bytes.size());
  return bytes;
#else
  return {};
#endif
}

std::optional<std::string> networkSeccompFilterFile(std::string& error) {
  static std::once_flag once;
  static std::optional<std::string> path;
  static std::string problem;
  std::call_once(once, [] {
    if (!seccompFilterSupported()) {
      problem = "no seccomp filter for this architecture";
      return;
    }
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    dir /= "kwb-sandbox-" + std::to_string(geteuid());
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      problem = "cannot create " + dir.string() + ": " + strerror(errno);
      return;
    }
    // The folder lives in a shared temp directory: only use it when it is really ours and private.
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077) != 0) {
      problem = "refusing to use " + dir.string() + ": not a private folder owned by uid " +
                std::to_string(geteuid());
      return;
    }
#ifdef KWB_SECCOMP_SUPPORTED
    std::string name = std::string("network-filter-") + kArchName + "-v1.bpf";
#else
    std::string name = "network-filter.bpf";
#endif
    std::filesystem::path target = dir / name;
    std::filesystem::path tmp = dir / (name + "." + std::to_string(getpid()) + ".tmp");
    std::vector<std::uint8_t> bytes = buildNetworkSeccompFilter();
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
      problem = "cannot write " + tmp.string() + ": " + strerror(errno);
      return;
    }
    bool ok = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    ok = (close(fd) == 0) && ok;
    if (!ok || rename(tmp.c_str(), target.c_str()) != 0) {
      problem = "cannot write " + target.string() + ": " + strerror(errno);
      unlink(tmp.c_str());
      return;
    }
    path = target.string();
  });
  if (!path) error = problem;
  return path;
}

}  // namespace kwb
