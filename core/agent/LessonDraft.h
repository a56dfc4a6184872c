// SPDX-License-Identifier: MIT
#pragma once
// A lesson draft made from a real session: the chosen iterations become lesson steps (their kernels as
// step files, their recorded feedback and the diff to the previous chosen step), with TODO placeholders
// for the engineer's explanations. The draft is a lesson folder that replays as recorded
// (docs/lessons.md, "Lessons from a session").

#include <filesystem>
#include <string>
#include <vector>

#include "core/model/Session.h"

namespace kwb {

struct LessonDraftOptions {
  std::string name;  // the lesson's name; default: the out folder's name
};

// "1,3,7" -> {1, 3, 7}; throws std::invalid_argument naming the bad element (empty, not a number,
// not positive, repeated).
std::vector<int> parseStepList(const std::string& text);

// Writes the draft into outDir (created; it must not exist or be empty) and returns the lesson.json
// path. Throws std::runtime_error naming the iteration or file on any problem: an unknown id, an
// iteration that has not finished or has no candidate, a task folder that cannot be found.
std::filesystem::path writeLessonDraft(const Session& session, const std::vector<int>& iterationIds,
                                       const std::filesystem::path& outDir,
                                       const LessonDraftOptions& options = {});

}  // namespace kwb
