#include "core/base/TextFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kwb {

TextFileRead readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  TextFileRead r;
  auto fail = [&](const std::string& what) {
    r.error = path.string() + ": " + what;
    return r;
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below then rejects it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail("not a regular file");
  }
  if (static_cast<std::uintmax_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return fail("too large (" + std::to_string(st.st_size) + " bytes, the limit is " + std::to_string(maxBytes) +
                ")");
  }
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return fail(std::strerror(err));
    }
    if (n == 0) break;
    // The file may grow after the fstat: the limit holds for what is read, not just what was seen.
    if (text.size() + static_cast<std::size_t>(n) > maxBytes) {
      ::close(fd);
      return fail("grew past the limit of " + std::to_string(maxBytes) + " bytes while being read");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  r.text = std::move(text);
  return r;
}

std::string readTextFileOrThrow(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  auto r = readTextFile(path, maxBytes);
  if (!r.text) throw std::runtime_error(r.error);
  return std::move(*r.text);
}

std::string readTextFileOrEmpty(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  auto r = readTextFile(path, maxBytes);
  return r.text ? std::move(*r.text) : std::string();
}

}  // namespace kwb
