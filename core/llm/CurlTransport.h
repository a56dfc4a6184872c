// SPDX-License-Identifier: MIT
#pragma once
// One streaming HTTP POST over libcurl, driven by curl's multi interface so that cancellation and the
// idle (stall) timeout are checked every ~50 ms rather than at curl's once-a-second progress ticks.
// Safe to call from several threads at once: each call owns its handles.

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kwb {

struct HttpPostSpec {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // may hold secrets: never log this struct
  std::string body;
  std::chrono::milliseconds connectTimeout{20'000};
  std::chrono::milliseconds totalTimeout{600'000};
  std::chrono::milliseconds idleTimeout{180'000};  // no byte received for this long aborts
};

enum class HttpFailure {
  None,
  Connect,    // could not resolve / connect / TLS handshake
  Timeout,    // connect or total timeout
  Idle,       // no byte for idleTimeout
  Cancelled,  // the cancel flag was raised
  Aborted,    // the body sink returned false
  Network,    // connection broke after it was established (reset, partial body, ...)
};

struct HttpOutcome {
  long status = 0;                             // 0 when no response line arrived
  std::map<std::string, std::string> headers;  // lower-case names, of the final response
  HttpFailure failure = HttpFailure::None;
  std::string curlMessage;        // curl's explanation when failure != None
  std::size_t bytesReceived = 0;  // body bytes
};

// Receives body bytes as they arrive; status and headers are already known (see outcome argument).
// Return false to abort the transfer.
using HttpBodySink = std::function<bool(const HttpOutcome& soFar, std::string_view chunk)>;

HttpOutcome curlStreamingPost(const HttpPostSpec& spec, const HttpBodySink& sink,
                              const std::atomic<bool>* cancel);

}  // namespace kwb
