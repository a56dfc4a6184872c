// SPDX-License-Identifier: MIT
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace kwb {

// Looks `name` up like a shell would (PATH entries in order, executable regular files only).
// `pathVariable` defaults to the process's PATH.
std::optional<std::filesystem::path> findExecutable(const std::string& name,
                                                    const std::optional<std::string>& pathVariable = {});

}  // namespace kwb
