// SPDX-License-Identifier: MIT
#pragma once
// The allow-list of what a candidate's own tokens may name (docs/candidate-contract.md, "What a
// candidate may not do"). A name that exists outside the candidate (in any header the preprocessor
// read) is usable only when it is listed here; names the candidate introduces itself are free.
//
// Listed: C++ keywords (not `asm`), the AscendC API the kwb emulator implements (names declared in
// namespace AscendC by core/emulator/include, minus harness entry points), the kwb_tiling.h API,
// fixed-width integer and size types, and side-effect-free std / math.h names (math functions,
// min/max/clamp/swap, numeric_limits, type traits, std::array, initializer_list, memcpy/memset).

#include <optional>
#include <string>
#include <unordered_set>

namespace kwb {

struct AllowedNames {
  std::unordered_set<std::string> keywords;    // C++20 keywords and alternative tokens, no asm
  std::unordered_set<std::string> external;    // names from headers a candidate may use
  std::unordered_set<std::string> reserved;    // __x / _X names allowed (__func__, the INFINITY/NAN builtins)
  std::unordered_set<std::string> attributes;  // [[x]] a candidate may write
  // Also usable in host code (PolicyOptions::hostCode): the standard containers, strings, numeric
  // algorithms and utilities an operator project's TilingFunc uses; the tiling sandbox runs it.
  std::unordered_set<std::string> hostExternal;
};

const AllowedNames& allowedNames();

// Reserved identifiers (C++ [lex.name]): two underscores anywhere... the compiler's and library's
// namespace; we check the leading forms `__x` and `_X`.
bool isReservedIdentifier(const std::string& name);

// Why a header name is refused and what to use instead, for the common ones; nullopt for the rest.
std::optional<std::string> refusalHint(const std::string& name);

// Names refused even when the candidate declares them itself (process, file, environment, exit,
// allocation and harness names): a global variable of the candidate's is not mangled, so defining
// `environ` or `stdout` would interpose the C library's; and no kernel needs these spellings.
bool isAlwaysRefused(const std::string& name);

}  // namespace kwb
