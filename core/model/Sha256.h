// SPDX-License-Identifier: MIT
#pragma once
// SHA-256 (FIPS 180-4) of bytes and of files. Used where a digest must resist someone who chooses the
// bytes (cached binaries that are executed later); core/model/Hash.h's FNV-1a is only good against
// accidents.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kwb {

// Incremental hashing, for data that arrives in pieces (a file being copied).
class Sha256 {
 public:
  void update(const void* data, std::size_t size);
  // 64 lower-case hex digits. Call once; the object is spent afterwards.
  std::string hexDigest();

 private:
  void compress(const unsigned char* block);
  std::array<std::uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};  // FIPS 180-4, 5.3.3
  std::array<unsigned char, 64> pending_{};
  std::size_t pendingLen_ = 0;
  std::uint64_t total_ = 0;
};

// 64 lower-case hex digits.
std::string sha256Hex(std::string_view data);
// Of the file's bytes, read in chunks (no size limit); nullopt when it cannot be read.
std::optional<std::string> sha256FileHex(const std::filesystem::path& file);

}  // namespace kwb
