// SPDX-License-Identifier: MIT
#pragma once
// Content hashes for change detection (locked source regions, candidate identity, store integrity).
// FNV-1a 64 is enough: these detect accidental edits and truncation, not adversaries; the candidate
// policy checks compare the locked text itself, not only its hash.

#include <cstdint>
#include <string>
#include <string_view>

namespace kwb {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ULL);
// 16 lower-case hex digits.
std::string hashHex(std::string_view data);

}  // namespace kwb
