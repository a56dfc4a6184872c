// SPDX-License-Identifier: MIT
#pragma once
// The one way tool code reads the process environment. Functions that depend on the environment take
// an EnvLookup so tests (and callers with their own settings) can pass another one in; only the
// defaults read the real environment. See docs/architecture.md, "Shared basics".
// The emulator runtime (core/emulator/runtime) is linked into candidate programs, not into the tools,
// and keeps its own reads.

#include <functional>
#include <optional>
#include <string>

namespace kwb {

// A variable's value, or nullopt when it is unset or empty (an empty value never counts as a setting).
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// Reads the real process environment.
EnvLookup processEnvironment();

// processEnvironment()(name): for the few places that have no lookup passed in.
std::optional<std::string> environmentValue(const std::string& name);

}  // namespace kwb
