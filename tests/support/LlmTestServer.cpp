// SPDX-License-Identifier: MIT
#include "tests/support/LlmTestServer.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace kwb::testsupport {

namespace {

using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const std::map<std::string, LlmFault>& faultNames() {
  static const std::map<std::string, LlmFault> names{{"none", LlmFault::None},
                                                     {"json", LlmFault::JsonNoStream},
                                                     {"rate_limited", LlmFault::RateLimited},
                                                     {"server_error", LlmFault::ServerError},
                                                     {"unauthorized", LlmFault::Unauthorized},
                                                     {"html", LlmFault::Html},
                                                     {"garbage", LlmFault::Garbage},
                                                     {"stall", LlmFault::Stall},
                                                     {"cut", LlmFault::Cut},
                                                     {"stream_error", LlmFault::StreamError},
                                                     {"raw", LlmFault::Raw}};
  return names;
}

// Splits text into pieces of about n characters without breaking UTF-8 sequences.
std::vector<std::string> pieces(const std::string& text, std::size_t n) {
  std::vector<std::string> out;
  n = std::max<std::size_t>(n, 1);
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t len = std::min(n, text.size() - pos);
    while (pos + len < text.size() && (static_cast<unsigned char>(text[pos + len]) & 0xC0) == 0x80) ++len;
    out.push_back(text.substr(pos, len));
    pos += len;
  }
  return out;
}

json openAiError(const std::string& message, const std::string& type) {
  return {{"error", {{"message", message}, {"type", type}, {"code", nullptr}}}};
}

json anthropicError(const std::string& message, const std::string& type) {
  return {{"type", "error"}, {"error", {{"type", type}, {"message", message}}}};
}

}  // namespace

std::string RecordedRequest::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? std::string() : it->second;
}

std::string RecordedRequest::allText() const {
  std::string out;
  if (!json.is_object()) return body;
  if (json.contains("system") && json["system"].is_string()) out += json["system"].get<std::string>() + "\n";
  if (json.contains("messages") && json["messages"].is_array())
    for (const auto& m : json["messages"])
      if (m.contains("content") && m["content"].is_string()) out += m["content"].get<std::string>() + "\n";
  return out;
}

json RecordedRequest::toJson() const {
  return {{"method", method}, {"path", path}, {"headers", headers},
          {"body", body},     {"json", json}, {"wire_format", wireFormat}};
}

ScriptedReply replyFromJson(const json& j) {
  if (!j.is_object()) throw std::invalid_argument("a scripted reply must be a JSON object");
  ScriptedReply r;
  try {
    r.text = j.value("text", r.text);
    r.reasoning = j.value("reasoning", r.reasoning);
    r.chunkChars = j.value("chunk_chars", r.chunkChars);
    r.chunkDelayMs = j.value("chunk_delay_ms", r.chunkDelayMs);
    r.promptTokens = j.value("prompt_tokens", r.promptTokens);
    r.completionTokens = j.value("completion_tokens", r.completionTokens);
    r.finishReason = j.value("finish_reason", r.finishReason);
    r.model = j.value("model", r.model);
    r.retryAfter = j.value("retry_after", r.retryAfter);
    r.status = j.value("status", r.status);
    r.contentType = j.value("content_type", r.contentType);
    r.body = j.value("body", r.body);
    r.errorMessage = j.value("error_message", r.errorMessage);
    r.cutAfterChars = j.value("cut_after_chars", r.cutAfterChars);
    r.stallMs = j.value("stall_ms", r.stallMs);
    r.abortConnection = j.value("abort_connection", r.abortConnection);
    r.crlf = j.value("crlf", r.crlf);
    r.multiLineData = j.value("multi_line_data", r.multiLineData);
    const std::string fault = j.value("fault", "none");
    auto it = faultNames().find(fault);
    if (it == faultNames().end()) throw std::invalid_argument("unknown fault \"" + fault + "\"");
    r.fault = it->second;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("scripted reply: ") + e.what());
  }
  return r;
}

std::vector<ScriptedReply> scriptFromJson(const json& j, std::optional<ScriptedReply>* fallback) {
  const json* list = &j;
  if (j.is_object()) {
    if (fallback && j.contains("fallback")) *fallback = replyFromJson(j["fallback"]);
    auto it = j.find("replies");
    if (it == j.end()) throw std::invalid_argument("script needs a \"replies\" array");
    list = &*it;
  }
  if (!list->is_array()) throw std::invalid_argument("script replies must be an array");
  std::vector<ScriptedReply> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    try {
      out.push_back(replyFromJson((*list)[i]));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("replies[" + std::to_string(i) + "]: " + e.what());
    }
  }
  return out;
}

LlmTestServer::LlmTestServer(std::vector<ScriptedReply> script)
    : server_(std::make_unique<httplib::Server>()), script_(std::move(script)) {
  auto& s = *server_;
  s.Post(R"(.*/chat/completions)", [this](const httplib::Request& req, httplib::Response& res) {
    handleCompletion("openai", &req, &res);
  });
  s.Post(R"(.*/messages)", [this](const httplib::Request& req, httplib::Response& res) {
    handleCompletion("anthropic", &req, &res);
  });
  s.Get("/__kwb/requests", [this](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const auto& r : requests()) list.push_back(r.toJson());
    res.set_content(list.dump(2), "application/json");
  });
  s.Post("/__kwb/script", [this](const httplib::Request& req, httplib::Response& res) {
    try {
      std::optional<ScriptedReply> fb;
      auto replies = scriptFromJson(json::parse(req.body), &fb);
      for (auto& r : replies) push(std::move(r));
      if (fb) setFallback(fb);
      res.set_content(R"({"ok":true})", "application/json");
    } catch (const std::exception& e) {
      res.status = 400;
      res.set_content(json{{"error", e.what()}}.dump(), "application/json");
    }
  });
  s.Post("/__kwb/shutdown", [this](const httplib::Request&, httplib::Response& res) {
    {
      std::lock_guard lock(mutex_);
      shutdownRequested_ = true;
    }
    changed_.notify_all();
    res.set_content(R"({"ok":true})", "application/json");
  });
  port_ = s.bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("LlmTestServer: cannot bind 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  for (int i = 0; i < 200 && !server_->is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

LlmTestServer::~LlmTestServer() {
  stop();
}

void LlmTestServer::stop() {
  stopping_ = true;
  {
    std::lock_guard lock(mutex_);
    shutdownRequested_ = true;
  }
  changed_.notify_all();
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string LlmTestServer::baseUrl() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

void LlmTestServer::push(ScriptedReply reply) {
  std::lock_guard lock(mutex_);
  script_.push_back(std::move(reply));
}

void LlmTestServer::setFallback(std::optional<ScriptedReply> reply) {
  std::lock_guard lock(mutex_);
  fallback_ = std::move(reply);
}

std::vector<RecordedRequest> LlmTestServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::size_t LlmTestServer::requestCount() const {
  std::lock_guard lock(mutex_);
  return requests_.size();
}

bool LlmTestServer::waitForRequests(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
}

void LlmTestServer::waitForShutdownRequest() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return shutdownRequested_; });
}

std::optional<ScriptedReply> LlmTestServer::next() {
  std::lock_guard lock(mutex_);
  if (cursor_ < script_.size()) return script_[cursor_++];
  return fallback_;
}

bool LlmTestServer::sleepUnlessStopping(int ms) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    if (stopping_) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return !stopping_;
}

void LlmTestServer::handleCompletion(const std::string& wireFormat, const void* reqPtr, void* resPtr) {
  const auto& req = *static_cast<const httplib::Request*>(reqPtr);
  auto& res = *static_cast<httplib::Response*>(resPtr);
  RecordedRequest rec;
  rec.method = req.method;
  rec.path = req.path;
  for (const auto& [k, v] : req.headers) rec.headers[lower(k)] = v;
  rec.body = req.body;
  rec.json = json::parse(req.body, nullptr, false);
  if (rec.json.is_discarded()) rec.json = nullptr;
  rec.wireFormat = wireFormat;
  std::size_t requestNumber = 0;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(rec);
    requestNumber = requests_.size();
  }
  changed_.notify_all();

  const bool anthropic = wireFormat == "anthropic";
  auto scripted = next();
  if (!scripted) {
    res.status = 500;
    const std::string msg = "LlmTestServer: script exhausted (request " + std::to_string(requestNumber) + ")";
    res.set_content((anthropic ? anthropicError(msg, "api_error") : openAiError(msg, "server_error")).dump(),
                    "application/json");
    return;
  }
  ScriptedReply r = *scripted;
  const std::string model = rec.json.is_object() && rec.json.contains("model") &&
                                    rec.json["model"].is_string() &&
                                    !rec.json["model"].get<std::string>().empty()
                                ? rec.json["model"].get<std::string>()
                                : r.model;
  const std::string id = (anthropic ? "msg_test_" : "chatcmpl-test-") + std::to_string(requestNumber);
  const std::string finish = !r.finishReason.empty() ? r.finishReason : (anthropic ? "end_turn" : "stop");
  auto errorBody = [&](const std::string& message, const std::string& type) {
    return (anthropic ? anthropicError(message, type) : openAiError(message, type)).dump();
  };

  switch (r.fault) {
    case LlmFault::RateLimited:
      res.status = 429;
      if (!r.retryAfter.empty()) res.set_header("Retry-After", r.retryAfter);
      res.set_content(errorBody(r.errorMessage.empty() ? "Rate limit reached for requests" : r.errorMessage,
                                anthropic ? "rate_limit_error" : "rate_limit_exceeded"),
                      "application/json");
      return;
    case LlmFault::ServerError:
      res.status = r.status ? r.status : 500;
      res.set_content(
          errorBody(r.errorMessage.empty() ? "The server had an error while processing your request"
                                           : r.errorMessage,
                    anthropic ? "api_error" : "server_error"),
          "application/json");
      return;
    case LlmFault::Unauthorized: {
      std::string key = rec.header(anthropic ? "x-api-key" : "authorization");
      if (key.rfind("Bearer ", 0) == 0) key = key.substr(7);
      res.status = 401;
      res.set_content(
          errorBody("Incorrect API key provided: " + key + ". You can find your API key in your account.",
                    anthropic ? "authentication_error" : "invalid_request_error"),
          "application/json");
      return;
    }
    case LlmFault::Html:
      res.status = r.status ? r.status : 502;
      res.set_content(!r.body.empty()
                          ? r.body
                          : "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center>"
                            "<h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n"
                            "</body>\r\n</html>\r\n",
                      "text/html");
      return;
    case LlmFault::Raw:
      res.status = r.status ? r.status : 200;
      res.set_content(r.body, r.contentType.empty() ? "text/plain" : r.contentType);
      return;
    case LlmFault::JsonNoStream: {
      json body;
      if (anthropic) {
        body = {{"id", id},
                {"type", "message"},
                {"role", "assistant"},
                {"model", model},
                {"content", json::array({{{"type", "text"}, {"text", r.text}}})},
                {"stop_reason", finish},
                {"usage", {{"input_tokens", r.promptTokens}, {"output_tokens", r.completionTokens}}}};
      } else {
        body = {{"id", id},
                {"object", "chat.completion"},
                {"model", model},
                {"choices", json::array({{{"index", 0},
                                          {"message", {{"role", "assistant"}, {"content", r.text}}},
                                          {"finish_reason", finish}}})},
                {"usage",
                 {{"prompt_tokens", r.promptTokens},
                  {"completion_tokens", r.completionTokens},
                  {"total_tokens", r.promptTokens + r.completionTokens}}}};
      }
      res.set_content(body.dump(), "application/json");
      return;
    }
    default:
      break;
  }

  // Streaming replies (None, Garbage, Stall, Cut, StreamError).
  res.set_header("Cache-Control", "no-cache");
  res.set_header(anthropic ? "request-id" : "x-request-id", "req_test_" + std::to_string(requestNumber));
  res.set_chunked_content_provider("text/event-stream", [this, r, anthropic, model, id, finish](
                                                            std::size_t, httplib::DataSink& sink) {
    const std::string eol = r.crlf ? "\r\n" : "\n";
    auto send = [&](const std::string& s) { return !stopping_ && sink.write(s.data(), s.size()); };
    auto event = [&](const std::string& name, const json& data, bool multiLine = false) {
      std::string out;
      if (!name.empty()) out += "event: " + name + eol;
      if (multiLine) {  // same JSON, one key per data: line (joined with '\n' by the reader)
        std::string dumped = data.dump(1);
        std::size_t start = 0;
        while (start <= dumped.size()) {
          std::size_t nl = dumped.find('\n', start);
          out +=
              "data: " + dumped.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + eol;
          if (nl == std::string::npos) break;
          start = nl + 1;
        }
      } else {
        out += "data: " + data.dump() + eol;
      }
      return send(out + eol);
    };
    auto delay = [&] { return r.chunkDelayMs <= 0 || sleepUnlessStopping(r.chunkDelayMs); };

    if (!send(": scripted by LlmTestServer" + eol + eol)) return false;
    if (r.fault == LlmFault::Garbage) {
      send("data: {\"choices\": [{\"delta\": {\"content\": \"Hel" + eol + eol);
      send("data: <html>not json</html>" + eol + eol);
      sink.done();
      return true;
    }
    const bool faultAfter =
        r.fault == LlmFault::Stall || r.fault == LlmFault::Cut || r.fault == LlmFault::StreamError;
    const std::string text = faultAfter ? r.text.substr(0, std::min(r.cutAfterChars, r.text.size())) : r.text;

    if (anthropic) {
      json start{{"type", "message_start"},
                 {"message",
                  {{"id", id},
                   {"type", "message"},
                   {"role", "assistant"},
                   {"model", model},
                   {"content", json::array()},
                   {"stop_reason", nullptr},
                   {"usage", {{"input_tokens", r.promptTokens}, {"output_tokens", 1}}}}}};
      if (!event("message_start", start, r.multiLineData)) return false;
      int index = 0;
      if (!r.reasoning.empty()) {
        event("content_block_start", {{"type", "content_block_start"},
                                      {"index", index},
                                      {"content_block", {{"type", "thinking"}, {"thinking", ""}}}});
        for (const auto& p : pieces(r.reasoning, r.chunkChars)) {
          if (!event("content_block_delta", {{"type", "content_block_delta"},
                                             {"index", index},
                                             {"delta", {{"type", "thinking_delta"}, {"thinking", p}}}}) ||
              !delay())
            return false;
        }
        event("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
        ++index;
      }
      event("content_block_start", {{"type", "content_block_start"},
                                    {"index", index},
                                    {"content_block", {{"type", "text"}, {"text", ""}}}});
      if (!event("ping", {{"type", "ping"}})) return false;
      for (const auto& p : pieces(text, r.chunkChars)) {
        if (!event("content_block_delta", {{"type", "content_block_delta"},
                                           {"index", index},
                                           {"delta", {{"type", "text_delta"}, {"text", p}}}}) ||
            !delay())
          return false;
      }
    } else {
      json first{{"id", id},
                 {"object", "chat.completion.chunk"},
                 {"model", model},
                 {"choices", json::array({{{"index", 0},
                                           {"delta", {{"role", "assistant"}, {"content", ""}}},
                                           {"finish_reason", nullptr}}})}};
      if (!event("", first, r.multiLineData)) return false;
      auto chunk = [&](const json& delta) {
        return event(
            "", {{"id", id},
                 {"object", "chat.completion.chunk"},
                 {"model", model},
                 {"choices", json::array({{{"index", 0}, {"delta", delta}, {"finish_reason", nullptr}}})}});
      };
      for (const auto& p : pieces(r.reasoning, r.chunkChars))
        if (!chunk({{"reasoning_content", p}}) || !delay()) return false;
      for (const auto& p : pieces(text, r.chunkChars))
        if (!chunk({{"content", p}}) || !delay()) return false;
    }

    if (r.fault == LlmFault::Stall) {
      sleepUnlessStopping(r.stallMs);
      return false;  // drop the connection after the silence
    }
    if (r.fault == LlmFault::Cut) {
      if (r.abortConnection) return false;  // no terminating chunk: the transfer breaks
      sink.done();                          // a clean HTTP end, but no end marker
      return true;
    }
    if (r.fault == LlmFault::StreamError) {
      const std::string msg = r.errorMessage.empty() ? "Overloaded" : r.errorMessage;
      if (anthropic)
        event("error", anthropicError(msg, "overloaded_error"));
      else
        event("", openAiError(msg, "server_error"));
      sink.done();
      return true;
    }

    if (anthropic) {
      event("content_block_stop", {{"type", "content_block_stop"}, {"index", r.reasoning.empty() ? 0 : 1}});
      event("message_delta", {{"type", "message_delta"},
                              {"delta", {{"stop_reason", finish}, {"stop_sequence", nullptr}}},
                              {"usage", {{"output_tokens", r.completionTokens}}}});
      event("message_stop", {{"type", "message_stop"}});
    } else {
      event("", {{"id", id},
                 {"object", "chat.completion.chunk"},
                 {"model", model},
                 {"choices",
                  json::array({{{"index", 0}, {"delta", json::object()}, {"finish_reason", finish}}})}});
      event("", {{"id", id},
                 {"object", "chat.completion.chunk"},
                 {"model", model},
                 {"choices", json::array()},
                 {"usage",
                  {{"prompt_tokens", r.promptTokens},
                   {"completion_tokens", r.completionTokens},
                   {"total_tokens", r.promptTokens + r.completionTokens}}}});
      send("data: [DONE]" + eol + eol);
    }
    sink.done();
    return true;
  });
}

}  // namespace kwb::testsupport
