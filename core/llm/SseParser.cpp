// SPDX-License-Identifier: MIT
#include "core/llm/SseParser.h"

namespace kwb {

bool SseParser::feed(std::string_view bytes) {
  if (stopped_) return false;
  for (char c : bytes) {
    if (c == '\n' && lastWasCr_) {  // second half of a CRLF split or not: the line already ended at CR
      lastWasCr_ = false;
      continue;
    }
    lastWasCr_ = false;
    if (c == '\r' || c == '\n') {
      lastWasCr_ = c == '\r';
      const std::string l = std::move(partial_);
      partial_.clear();
      if (!line(l)) {
        stopped_ = true;
        return false;
      }
      continue;
    }
    partial_.push_back(c);
  }
  return true;
}

bool SseParser::finish() {
  if (stopped_) return false;
  if (!partial_.empty()) {
    const std::string l = std::move(partial_);
    partial_.clear();
    if (!line(l)) return !(stopped_ = true);
  }
  if (hasData_ || !pending_.event.empty()) {
    if (!dispatch()) return !(stopped_ = true);
  }
  return true;
}

bool SseParser::line(std::string_view l) {
  if (l.empty()) return dispatch();
  if (l.front() == ':') {
    ++comments_;
    return true;
  }
  std::string_view name = l;
  std::string_view value;
  if (auto colon = l.find(':'); colon != std::string_view::npos) {
    name = l.substr(0, colon);
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (name == "data") {
    if (hasData_) pending_.data.push_back('\n');
    pending_.data.append(value);
    hasData_ = true;
  } else if (name == "event") {
    pending_.event.assign(value);
  } else if (name == "id") {
    pending_.id.assign(value);
  }  // "retry" and unknown fields are ignored, as the spec says
  return true;
}

bool SseParser::dispatch() {
  if (!hasData_ && pending_.event.empty()) {
    pending_ = {};
    return true;
  }
  SseEvent e = std::move(pending_);
  pending_ = {};
  hasData_ = false;
  ++dispatched_;
  return handler_ ? handler_(e) : true;
}

}  // namespace kwb
