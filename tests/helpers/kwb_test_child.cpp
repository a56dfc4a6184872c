// SPDX-License-Identifier: MIT
// A deliberately misbehaving child for the ProcessRunner tests. One mode per invocation:
//
//   lines N [TEXT]          N lines "TEXT i" on stdout (TEXT defaults to "line")
//   stderr N                N lines "err i" on stderr
//   partial                 "no newline" on stdout without a trailing newline
//   flood BYTES [err]       BYTES of 'x' lines (80 columns) on stdout (or stderr), then exit 0
//   flood-forever           'x' lines on stdout until killed
//   sleep MS                sleep MS milliseconds, print "slept", exit 0
//   hang                    sleep until killed
//   hang-ignore-term        ignore SIGTERM, sleep until SIGKILLed
//   crash                   die of SIGSEGV
//   abort                   abort() (SIGABRT)
//   exit CODE               exit with CODE
//   grandchild PIDFILE hang|exit
//                           fork a grandchild that writes its pid to PIDFILE and sleeps forever; the
//                           child then hangs or exits 0 once the pid file is there
//   daemon PIDFILE          double-fork + setsid (leaves the process group) keeping stdout open, the
//                           daemon sleeps 10 s; the child exits 0 at once
//   echo-stdin              copy stdin to stdout
//   exit-early-stdin        exit 0 without reading stdin
//   env NAME                print the value of NAME, or "<unset>" and exit 3
//   env-count               print the number of environment variables
//   env-dump                print every NAME=value of the environment, one per line
//   cwd                     print the working directory
//   cat-fd FD               copy descriptor FD to stdout
//   list-fds                print the open descriptors, space separated
//   hog-children K MIB      fork K children that each touch MIB MiB and hold it 500 ms; exit with the
//                           number of children that did not exit 0 (killed or failed to allocate)
//   fill-cwd MIB            write up to MIB MiB into ./fill, print the bytes written, exit 0
//   write-file PATH         write "x" to PATH (which must exist), print "wrote" or the error
//   create-file PATH        create PATH, print "created" or the error

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern char** environ;

namespace {

[[noreturn]] void sleepForever() {
  for (;;) pause();
}

void sleepMs(long ms) {
  struct timespec ts {
    ms / 1000, (ms % 1000) * 1000000L
  };
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

bool writeAll(int fd, const char* data, size_t n) {
  while (n) {
    ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

void writePidFile(const char* path) {
  std::string tmp = std::string(path) + ".tmp";
  FILE* f = fopen(tmp.c_str(), "w");
  if (!f) _exit(90);
  fprintf(f, "%d\n", static_cast<int>(getpid()));
  fclose(f);
  rename(tmp.c_str(), path);  // appears whole
}

bool fileExists(const char* path) {
  struct stat st {};
  return stat(path, &st) == 0;
}

int usage() {
  fprintf(stderr, "kwb_test_child: unknown or incomplete mode (see the comment at the top of the source)\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string mode = argv[1];
  auto arg = [&](int i) -> const char* { return i < argc ? argv[i] : nullptr; };

  if (mode == "hog-children" && arg(2) && arg(3)) {
    const int k = atoi(arg(2));
    const size_t bytes = static_cast<size_t>(atol(arg(3))) << 20;
    for (int i = 0; i < k; ++i) {
      if (fork() == 0) {
        volatile char* p = static_cast<volatile char*>(malloc(bytes));
        if (!p) _exit(2);
        for (size_t o = 0; o < bytes; o += 4096) p[o] = 1;
        struct timespec ts {
          0, 500 * 1000 * 1000
        };
        nanosleep(&ts, nullptr);
        _exit(0);
      }
    }
    int failed = 0, status = 0;
    while (wait(&status) > 0)
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    printf("failed %d\n", failed);
    return failed;
  }
  if (mode == "fill-cwd" && arg(2)) {
    const long mib = atol(arg(2));
    const int fd = open("fill", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    static char block[1 << 20];
    long written = 0;
    for (long i = 0; fd >= 0 && i < mib; ++i) {
      const ssize_t n = write(fd, block, sizeof block);
      if (n <= 0) break;
      written += n;
    }
    printf("%ld\n", written);
    return 0;
  }
  if (mode == "write-file" && arg(2)) {
    const int fd = open(arg(2), O_WRONLY);
    if (fd < 0 || write(fd, "x", 1) != 1) {
      printf("%s\n", strerror(errno));
      return 1;
    }
    printf("wrote\n");
    return 0;
  }
  if (mode == "create-file" && arg(2)) {
    const int fd = open(arg(2), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
      printf("%s\n", strerror(errno));
      return 1;
    }
    printf("created\n");
    return 0;
  }
  if (mode == "lines" && arg(2)) {
    long n = atol(arg(2));
    const char* text = arg(3) ? arg(3) : "line";
    for (long i = 0; i < n; ++i) printf("%s %ld\n", text, i);
    return 0;
  }
  if (mode == "stderr" && arg(2)) {
    long n = atol(arg(2));
    for (long i = 0; i < n; ++i) fprintf(stderr, "err %ld\n", i);
    return 0;
  }
  if (mode == "partial") {
    printf("no newline");
    return 0;
  }
  if (mode == "flood" && arg(2)) {
    long long total = atoll(arg(2));
    int fd = (arg(3) && std::string(arg(3)) == "err") ? 2 : 1;
    std::string line(79, 'x');
    line += '\n';
    std::string block;
    while (block.size() < 65536) block += line;
    while (total > 0) {
      size_t n = static_cast<size_t>(std::min<long long>(total, static_cast<long long>(block.size())));
      if (!writeAll(fd, block.data(), n)) return 2;
      total -= static_cast<long long>(n);
    }
    return 0;
  }
  if (mode == "flood-forever") {
    std::string line(79, 'x');
    line += '\n';
    for (;;)
      if (!writeAll(1, line.data(), line.size())) return 2;
  }
  if (mode == "sleep" && arg(2)) {
    sleepMs(atol(arg(2)));
    printf("slept\n");
    return 0;
  }
  if (mode == "hang") sleepForever();
  if (mode == "hang-ignore-term") {
    signal(SIGTERM, SIG_IGN);
    sleepForever();
  }
  if (mode == "crash") {
    // Sanitizers catch SIGSEGV and turn it into an exit code; the tests want the real signal.
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 1;
  }
  if (mode == "abort") abort();
  if (mode == "exit" && arg(2)) return atoi(arg(2));
  if (mode == "grandchild" && arg(2) && arg(3)) {
    const char* pidFile = arg(2);
    pid_t pid = fork();
    if (pid < 0) return 91;
    if (pid == 0) {
      writePidFile(pidFile);
      sleepForever();
    }
    while (!fileExists(pidFile)) sleepMs(5);
    printf("grandchild %d\n", static_cast<int>(pid));
    fflush(stdout);
    if (std::string(arg(3)) == "hang") sleepForever();
    return 0;
  }
  if (mode == "daemon" && arg(2)) {
    const char* pidFile = arg(2);
    pid_t pid = fork();
    if (pid < 0) return 91;
    if (pid == 0) {
      setsid();
      if (fork() != 0) _exit(0);
      writePidFile(pidFile);
      sleepMs(10000);  // holds stdout/stderr open the whole time
      _exit(0);
    }
    while (!fileExists(pidFile)) sleepMs(5);
    printf("daemon started\n");
    return 0;
  }
  if (mode == "echo-stdin") {
    char buf[65536];
    for (;;) {
      ssize_t n = read(0, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 ? 2 : 0;
      if (!writeAll(1, buf, static_cast<size_t>(n))) return 2;
    }
  }
  if (mode == "exit-early-stdin") return 0;
  if (mode == "env" && arg(2)) {
    const char* v = getenv(arg(2));
    printf("%s\n", v ? v : "<unset>");
    return v ? 0 : 3;
  }
  if (mode == "env-dump") {  // every NAME=value, one per line
    for (char** e = environ; *e; ++e) printf("%s\n", *e);
    return 0;
  }
  if (mode == "env-count") {
    int n = 0;
    for (char** e = environ; *e; ++e) ++n;
    printf("%d\n", n);
    return 0;
  }
  if (mode == "cwd") {
    char buf[4096];
    if (!getcwd(buf, sizeof buf)) return 2;
    printf("%s\n", buf);
    return 0;
  }
  if (mode == "cat-fd" && arg(2)) {
    int fd = atoi(arg(2));
    char buf[4096];
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n < 0) {
        fprintf(stderr, "cannot read fd %d: %s\n", fd, strerror(errno));
        return 2;
      }
      if (n == 0) return 0;
      writeAll(1, buf, static_cast<size_t>(n));
    }
  }
  if (mode == "list-fds") {
    DIR* d = opendir("/proc/self/fd");
    if (!d) return 2;
    int self = dirfd(d);
    std::string outText;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      if (atoi(e->d_name) == self) continue;
      outText += std::string(outText.empty() ? "" : " ") + e->d_name;
    }
    closedir(d);
    printf("%s\n", outText.c_str());
    return 0;
  }
  return usage();
}
