// SPDX-License-Identifier: MIT
#pragma once
// A scripted LLM server for tests and demos: speaks the OpenAI Chat Completions wire format (SSE stream
// and plain JSON) on any path ending in /chat/completions and the Anthropic Messages format (SSE) on any
// path ending in /messages, answering each request with the next scripted reply, optionally with an
// injected fault. Records every request (headers and JSON body) so tests can assert on what was sent.
//
// Binds 127.0.0.1 on an ephemeral port, serves on its own thread, stops in the destructor. Extra routes
// for out-of-process users (kwb-llm-test-server): GET /__kwb/requests (recorded requests as JSON),
// POST /__kwb/script (append replies: the same JSON as scriptFromJson), POST /__kwb/shutdown (httplib
// answers 400 to a POST without a body: send an empty one, e.g. curl -d "").

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace httplib {
class Server;
}

namespace kwb::testsupport {

enum class LlmFault {
  None,          // a normal streamed reply
  JsonNoStream,  // 200 application/json with the whole reply, as servers that ignore "stream" do
  RateLimited,   // 429 with an error body and, if set, Retry-After
  ServerError,   // 500 (or `status`) with a JSON error body
  Unauthorized,  // 401 whose error body echoes the key it received (as real providers partly do)
  Html,          // `status` (default 502) with an HTML page, as proxies and gateways send
  Garbage,       // 200 text/event-stream whose events are not JSON
  Stall,         // streams `cutAfterChars` of text, then sends nothing for `stallMs`, then closes
  Cut,           // streams `cutAfterChars` of text, then ends the body without the end marker
  StreamError,   // streams `cutAfterChars`, then an in-stream error (Anthropic overloaded_error event)
  Raw,           // `status`, `contentType` and `body` sent exactly as given
};

struct ScriptedReply {
  std::string text;
  std::string reasoning;       // sent as reasoning_content / thinking deltas first
  std::size_t chunkChars = 8;  // characters per delta event
  int chunkDelayMs = 0;        // pause between deltas (a slow drip, for cancellation)
  int promptTokens = 42;
  int completionTokens = 17;
  std::string finishReason;  // default "stop" (OpenAI) / "end_turn" (Anthropic)
  std::string model = "test-model";
  LlmFault fault = LlmFault::None;
  std::string retryAfter;         // RateLimited: Retry-After header value; empty = none
  int status = 0;                 // ServerError/Html/Raw status; 0 = the fault's default
  std::string contentType;        // Raw
  std::string body;               // Raw / Html body; empty = a default page
  std::string errorMessage;       // message inside error bodies; empty = a default
  std::size_t cutAfterChars = 0;  // Stall/Cut/StreamError: text sent before the fault
  int stallMs = 5000;             // Stall
  bool abortConnection = false;   // Cut: drop the connection mid-chunk instead of ending cleanly
  bool crlf = false;              // end SSE lines with CRLF
  bool multiLineData = false;     // split the first event's JSON over several data: lines
};

struct RecordedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  nlohmann::json json;     // parsed body; null when it was not JSON
  std::string wireFormat;  // "openai" or "anthropic"

  std::string header(const std::string& lowerName) const;
  // System prompt plus every message's content, joined by newlines, for "the request contains X" asserts.
  std::string allText() const;
  nlohmann::json toJson() const;
};

// Throws std::invalid_argument naming the offending entry/field.
ScriptedReply replyFromJson(const nlohmann::json& j);
// Accepts {"replies": [...], "fallback": {...}} or a bare array of replies.
std::vector<ScriptedReply> scriptFromJson(const nlohmann::json& j,
                                          std::optional<ScriptedReply>* fallback = nullptr);

class LlmTestServer {
 public:
  explicit LlmTestServer(std::vector<ScriptedReply> script = {});
  ~LlmTestServer();
  LlmTestServer(const LlmTestServer&) = delete;
  LlmTestServer& operator=(const LlmTestServer&) = delete;

  int port() const { return port_; }
  std::string baseUrl() const;  // "http://127.0.0.1:PORT" (no /v1)

  void push(ScriptedReply reply);
  // Reply used once the script is exhausted; without one, an exhausted script answers 500.
  void setFallback(std::optional<ScriptedReply> reply);

  std::vector<RecordedRequest> requests() const;
  std::size_t requestCount() const;
  bool waitForRequests(std::size_t n, std::chrono::milliseconds timeout) const;
  // Blocks until a shutdown was requested over HTTP (POST /__kwb/shutdown) or stop() was called.
  void waitForShutdownRequest() const;

  void stop();

 private:
  void handleCompletion(const std::string& wireFormat, const void* request, void* response);
  std::optional<ScriptedReply> next();
  bool sleepUnlessStopping(int ms) const;

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<ScriptedReply> script_;
  std::size_t cursor_ = 0;
  std::optional<ScriptedReply> fallback_;
  std::vector<RecordedRequest> requests_;
  bool shutdownRequested_ = false;
};

}  // namespace kwb::testsupport
