// SPDX-License-Identifier: MIT
#pragma once
// Where a candidate's own declaration makes a header's name its own (docs/sandbox.md, "Names the
// candidate declares itself"). Operators reuse C library names for their data (IsClose's `atol`
// tolerance, `div`, `index`); refusing every such token refuses honest code, while a call of the
// library function is what the policy is for. C++ unqualified lookup finds the innermost declaration,
// so after `float atol` in a class or a block, every unqualified `atol` up to that scope's closing
// brace is the candidate's variable or member, never the library's function.

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/policy/PreprocessedTokens.h"

namespace kwb {

// The indexes into `tokens` (one file's or one unit's candidate tokens, in order) of identifiers in
// `names` that are the candidate's own: the declarator of a variable, data member or parameter
// (`T name` followed by ; = , [ { ) or :, where T ends in a type keyword, an identifier, * or &),
// and every later unqualified use of that name inside the class or block the declaration belongs to.
// A parameter belongs to the block that follows its parameter list. Declarations at namespace scope
// do not count (a global variable's symbol is not mangled and would interpose the library's), nor
// does anything after `::` (a qualified name reaches the library's own).
std::unordered_set<std::size_t> ownDeclaredUses(const std::vector<PpToken>& tokens,
                                                const std::unordered_set<std::string>& names);

}  // namespace kwb
