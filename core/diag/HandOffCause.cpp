// SPDX-License-Identifier: MIT
#include "core/diag/HandOffCause.h"

#include <optional>

#include "core/diag/CodeStructure.h"
#include "core/diag/TextLines.h"

namespace kwb {
namespace {

// The related location naming where the tensor was taken from its queue.
std::optional<int> takenLine(const Diagnostic& d) {
  for (const auto& r : d.related)
    if (r.file == d.file &&
        (r.role == "the AllocTensor that took the tensor" || r.role == "the DeQue that took the tensor"))
      return r.line;
  return std::nullopt;
}

}  // namespace

bool placeHandOffInOwner(Diagnostic& d, const std::vector<std::string>& lines) {
  if (d.category != "queue-misuse" || d.line <= 0) return false;
  const auto taken = takenLine(d);
  if (!taken) return false;
  const CodeText text(lines);
  const auto useAt = text.lineStart(d.line);
  const auto takenAt = text.lineStart(*taken);
  if (!useAt || !takenAt) return false;
  const auto helper = functionAround(text, *useAt);
  const auto owner = functionAround(text, *takenAt);
  if (!helper || !owner || helper->nameAt == owner->nameAt) return false;
  // The one call of the helper in the owner's body after the tensor was taken.
  std::optional<std::size_t> call;
  for (const std::size_t c : callsOf(text, helper->name)) {
    if (c <= *takenAt || c >= owner->bodyEnd) continue;
    if (call) return false;
    call = c;
  }
  if (!call) return false;
  const int callLine = text.lineOf(*call);
  // "after this Mmad" named the use; the line is now the call that contains it.
  const std::string api = d.api.value_or("");
  const std::string use = "after this " + api;
  if (!api.empty())
    if (const auto at = d.message.find(use); at != std::string::npos)
      d.message.replace(at, use.size(),
                        "after this call of " + helper->name + " (its " + api + " at line " +
                            std::to_string(d.line) + " is the tensor's last use)");
  d.related.insert(d.related.begin(),
                   RelatedLocation{"the last use of the tensor, inside " + helper->name, d.file, d.line});
  d.notes.insert(d.notes.begin(), "the runtime saw the tensor last at line " + std::to_string(d.line) +
                                      ", inside " + helper->name + ", called here");
  d.line = callLine;
  d.column = 0;
  if (static_cast<std::size_t>(callLine) <= lines.size())
    d.excerpt = std::string(textlines::trim(lines[static_cast<std::size_t>(callLine) - 1]));
  return true;
}

}  // namespace kwb
