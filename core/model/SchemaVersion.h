// SPDX-License-Identifier: MIT
#pragma once
// Version of every JSON document kwb writes (session.json, iteration.json, embedded tasks). Readers
// refuse documents with a higher number instead of silently dropping fields they do not know; bump it
// whenever a change would make an older kwb misread a newer file.

namespace kwb {
inline constexpr int kSchemaVersion = 1;
}  // namespace kwb
