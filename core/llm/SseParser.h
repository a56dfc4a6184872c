// SPDX-License-Identifier: MIT
#pragma once
// Incremental Server-Sent Events parser (WHATWG event-stream rules): bytes arrive in arbitrary chunks;
// lines end in LF, CRLF or CR (also when the CR and LF land in different chunks); ':' lines are
// comments; several data: lines of one event are joined with '\n'; a blank line dispatches the event.

#include <functional>
#include <string>
#include <string_view>

namespace kwb {

struct SseEvent {
  std::string event;  // "" when the stream gave no event: field (OpenAI); "message_start", ... (Anthropic)
  std::string data;
  std::string id;
};

class SseParser {
 public:
  // Return false from the handler to stop parsing (the rest of the chunk is ignored).
  using Handler = std::function<bool(const SseEvent&)>;

  explicit SseParser(Handler handler) : handler_(std::move(handler)) {}

  // Returns false once the handler asked to stop.
  bool feed(std::string_view bytes);
  // End of stream: an event still pending without its blank line is dispatched (lenient: some servers
  // close right after the last data line). Returns false if the handler asked to stop.
  bool finish();

  std::size_t eventsDispatched() const { return dispatched_; }
  std::size_t commentsSeen() const { return comments_; }

 private:
  bool line(std::string_view l);
  bool dispatch();

  Handler handler_;
  std::string partial_;
  SseEvent pending_;
  bool hasData_ = false;
  bool lastWasCr_ = false;
  bool stopped_ = false;
  std::size_t dispatched_ = 0;
  std::size_t comments_ = 0;
};

}  // namespace kwb
