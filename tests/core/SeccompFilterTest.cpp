// SPDX-License-Identifier: MIT
// The seccomp filter on its own, loaded into a forked child: non-unix sockets kill with SIGSYS,
// everything else (unix sockets included) works.

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>

#include "core/sandbox/SeccompFilter.h"

namespace kwb {
namespace {

// Runs `body` in a child under the filter; returns its wait status.
int runFiltered(const std::function<int()>& body) {
  std::vector<std::uint8_t> bytes = buildNetworkSeccompFilter();
  pid_t pid = fork();
  if (pid == 0) {
    sock_fprog prog{static_cast<unsigned short>(bytes.size() / sizeof(sock_filter)),
                    reinterpret_cast<sock_filter*>(bytes.data())};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(100);
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) _exit(101);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(SeccompFilter, InternetSocketKillsWithSigsys) {
  if (!seccompFilterSupported()) GTEST_SKIP() << "no filter for this architecture";
  int status = runFiltered([] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; });
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGSYS);
  status = runFiltered([] { return socket(AF_INET6, SOCK_DGRAM, 0) >= 0 ? 0 : 1; });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGSYS);
}

TEST(SeccompFilter, UnixSocketsAndOrdinaryCallsWork) {
  if (!seccompFilterSupported()) GTEST_SKIP() << "no filter for this architecture";
  int status = runFiltered([] {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 2;
    if (write(fds[0], "x", 1) != 1) return 3;
    char c = 0;
    if (read(fds[1], &c, 1) != 1 || c != 'x') return 4;
    return getpid() > 0 ? 0 : 5;
  });
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(SeccompFilter, FilterFileHoldsTheFilter) {
  if (!seccompFilterSupported()) GTEST_SKIP() << "no filter for this architecture";
  std::string error;
  auto path = networkSeccompFilterFile(error);
  ASSERT_TRUE(path.has_value()) << error;
  std::ifstream in(*path, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::uint8_t> bytes = buildNetworkSeccompFilter();
  EXPECT_EQ(content, std::string(bytes.begin(), bytes.end()));
  EXPECT_EQ(bytes.size() % sizeof(sock_filter), 0u);
}

}  // namespace
}  // namespace kwb
