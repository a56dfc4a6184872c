// SPDX-License-Identifier: MIT
#include "core/store/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/store/CrashTestHook.h"
#include "core/store/StoreError.h"

namespace kwb {

namespace {

std::string errnoText(int err) {
  return std::strerror(err);
}

// Unique within the process (counter) and across processes (pid), so concurrent writers never share
// a temporary file even in the same directory.
std::filesystem::path tempPathFor(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  const auto name = std::string(kTempPrefix) + std::to_string(::getpid()) + "-" +
                    std::to_string(counter.fetch_add(1)) + "-" + target.filename().string();
  return target.parent_path() / name;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

void writeAll(int fd, std::string_view data, const std::filesystem::path& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw StoreError(path, "write failed: " + errnoText(errno));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Finishes a temporary file: flush, close (close can report deferred write errors), rename into place.
void commitTemp(Fd& fd, const std::filesystem::path& temp, const std::filesystem::path& target,
                Durability d) {
  if (d == Durability::Sync && ::fsync(fd.get()) != 0)
    throw StoreError(temp, "fsync failed: " + errnoText(errno));
  if (::close(fd.release()) != 0) throw StoreError(temp, "close failed: " + errnoText(errno));
  storeCommitPoint();  // crash tests: the temporary file complete, the target still old
  if (::rename(temp.c_str(), target.c_str()) != 0)
    throw StoreError(target, "cannot replace with " + temp.filename().string() + ": " + errnoText(errno));
  if (d == Durability::Sync) syncDirectory(target.parent_path().empty() ? "." : target.parent_path());
  storeCommitPoint();  // crash tests: the target replaced
}

}  // namespace

bool isTempFileName(std::string_view name) {
  return name.substr(0, kTempPrefix.size()) == kTempPrefix;
}

void syncDirectory(const std::filesystem::path& dir) {
  Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) throw StoreError(dir, "cannot open directory to sync it: " + errnoText(errno));
  // Some file systems do not support fsync on directories (EINVAL); their entries are durable anyway.
  if (::fsync(fd.get()) != 0 && errno != EINVAL)
    throw StoreError(dir, "fsync of directory failed: " + errnoText(errno));
}

bool makeDirectory(const std::filesystem::path& dir, Durability d) {
  if (::mkdir(dir.c_str(), 0755) == 0) {
    if (d == Durability::Sync) syncDirectory(dir.parent_path().empty() ? "." : dir.parent_path());
    storeCommitPoint();  // crash tests: the directory exists, still empty
    return true;
  }
  if (errno == EEXIST) {
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) return false;
    throw StoreError(dir, "exists but is not a directory");
  }
  throw StoreError(dir, "cannot create directory: " + errnoText(errno));
}

void writeFileAtomic(const std::filesystem::path& target, std::string_view content, Durability d) {
  const auto temp = tempPathFor(target);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw StoreError(temp, "cannot create: " + errnoText(errno));
  try {
    writeAll(fd.get(), content, temp);
    commitTemp(fd, temp, target, d);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

void copyFileAtomic(const std::filesystem::path& source, const std::filesystem::path& target, Durability d) {
  Fd in(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) throw StoreError(source, "cannot open: " + errnoText(errno));
  const auto temp = tempPathFor(target);
  Fd out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (out.get() < 0) throw StoreError(temp, "cannot create: " + errnoText(errno));
  try {
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(in.get(), buf, sizeof buf);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw StoreError(source, "read failed: " + errnoText(errno));
      }
      if (n == 0) break;
      writeAll(out.get(), std::string_view(buf, static_cast<std::size_t>(n)), temp);
    }
    commitTemp(out, temp, target, d);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

std::string readWholeFile(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw StoreError(path, "cannot open: " + errnoText(errno));
  std::string out;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw StoreError(path, "read failed: " + errnoText(errno));
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace kwb
