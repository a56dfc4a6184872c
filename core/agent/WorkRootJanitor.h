// SPDX-License-Identifier: MIT
#pragma once
// Scratch folders of the agent loop ($TMPDIR/kwb-agent-XXXXXX, tens of MB each) are removed when the
// loop ends; a kwb killed with SIGKILL cannot do that. So each folder carries an owner marker, and
// every new loop removes the folders whose owner is gone. Only folders that are provably kwb's own
// are touched: a real directory (not a symlink) owned by this user, with a regular-file marker in
// the format written here, naming a process that no longer exists (by pid and start time, on this
// boot). Anything else with the prefix is left alone. See docs/reliability.md, "Leftovers".

#include <filesystem>
#include <string>
#include <vector>

namespace kwb {

// The marker inside each scratch folder.
inline constexpr const char* kScratchOwnerFile = ".kwb-owner";
// The agent loop's scratch folders: $TMPDIR/kwb-agent-XXXXXX.
inline constexpr const char* kAgentScratchPrefix = "kwb-agent-";

// Writes the marker naming this process into `root`. Returns an error message, empty on success.
std::string writeScratchOwner(const std::filesystem::path& root);

// Removes the folders `<base>/<prefix>*` whose marker names a process that is gone; returns them.
std::vector<std::filesystem::path> removeAbandonedScratch(const std::filesystem::path& base,
                                                          const std::string& prefix);
// removeAbandonedScratch on $TMPDIR with kAgentScratchPrefix: what every new loop does first, and what
// the GUI does at start (a launch without a provider creates no loop; docs/reliability.md).
std::vector<std::filesystem::path> removeAbandonedAgentScratch();

}  // namespace kwb
