// SPDX-License-Identifier: MIT
#pragma once
// Failures of the session store that are not malformed JSON (those are kwb::LoadError): I/O errors,
// a session locked by another writer, writes to a read-only store, strict opens of a damaged session.

#include <filesystem>
#include <stdexcept>
#include <string>

namespace kwb {

class StoreError : public std::runtime_error {
 public:
  StoreError(std::filesystem::path path, const std::string& message)
      : std::runtime_error(path.empty() ? message : path.string() + ": " + message), path_(std::move(path)) {}
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Another process (or another store in this one) holds the session's write lock.
class SessionLockedError : public StoreError {
 public:
  SessionLockedError(std::filesystem::path lockFile, int holderPid, const std::string& message)
      : StoreError(std::move(lockFile), message), holderPid_(holderPid) {}
  int holderPid() const { return holderPid_; }  // 0 when the holder did not record one

 private:
  int holderPid_;
};

}  // namespace kwb
