// SPDX-License-Identifier: MIT
#include "core/llm/HttpLlmClient.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/llm/CurlTransport.h"
#include "core/llm/Redaction.h"
#include "core/model/Session.h"
#include "core/model/Utf8Text.h"

namespace kwb {

namespace {

constexpr std::size_t kMaxBufferedBody = 4u << 20;  // a non-streamed body larger than this is not a reply

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

std::string headerOr(const HttpOutcome& o, const std::string& name) {
  auto it = o.headers.find(name);
  return it == o.headers.end() ? std::string() : it->second;
}

std::string seconds(std::chrono::milliseconds ms) {
  const double s = static_cast<double>(ms.count()) / 1000.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.1f s" : "%.0f s", s);
  return buf;
}

}  // namespace

void StreamState::emitText(std::string_view delta) {
  if (delta.empty()) return;
  if (!firstDelta) firstDelta = Clock::now();
  const std::string clean = toValidUtf8(delta);  // the model's text ends up in JSON documents
  text.append(clean);
  delivered_ = true;
  if (observer_.onText) observer_.onText(clean);
}

void StreamState::emitReasoning(std::string_view delta) {
  if (delta.empty()) return;
  if (!firstDelta) firstDelta = Clock::now();
  const std::string clean = toValidUtf8(delta);
  reasoning.append(clean);
  delivered_ = true;
  if (observer_.onReasoning) observer_.onReasoning(clean);
}

nlohmann::json HttpLlmClient::parseEventJson(std::string_view data) {
  nlohmann::json j = nlohmann::json::parse(data, nullptr, false);
  // JSON must be UTF-8; a server that passes a model's stray byte through (split multi-byte tokens)
  // still meant the rest of the event: read it with U+FFFD in place of the bad bytes.
  if (j.is_discarded() && !isValidUtf8(data)) j = nlohmann::json::parse(toValidUtf8(data), nullptr, false);
  return j;
}

std::optional<std::int64_t> HttpLlmClient::tokenCount(const nlohmann::json& usage, const char* field,
                                                      const std::string& where, StreamState& state) {
  auto it = usage.find(field);
  if (it == usage.end() || it->is_null()) return std::nullopt;
  if (it->is_number_integer() && it->get<std::int64_t>() >= 0) return it->get<std::int64_t>();
  if (it->is_number_float() && it->get<double>() >= 0 && it->get<double>() < 9e15)
    return static_cast<std::int64_t>(it->get<double>());
  if (!state.error)
    state.error = {LlmErrorKind::BadResponse,
                   "protocol error in the reply from " + where + ": usage." + field + " is " +
                       (it->is_string() ? "a string (" + bodySnippet(it->dump(), 40) + ")" : it->dump()) +
                       ", expected a non-negative integer",
                   0};
  return std::nullopt;
}

struct HttpLlmClient::Attempt {
  explicit Attempt(const StreamObserver& o) : state(o) {}
  StreamState state;
  HttpOutcome http;
  LlmError error;
  bool retryable = false;
  std::optional<std::chrono::milliseconds> retryAfter;
  Clock::time_point started = Clock::now();
};

HttpLlmClient::HttpLlmClient(LlmEndpointConfig config, LlmClientHooks hooks)
    : config_(std::move(config)), hooks_(std::move(hooks)) {
  if (!hooks_.env) hooks_.env = processEnvironment();
  hooks_.clock = hooks_.clock.withDefaults();
}

std::string HttpLlmClient::describe() const {
  return provider() + " at " + displayUrl() + (config_.model.empty() ? "" : " model " + config_.model) +
         " (key from $" + config_.apiKeyEnv + ")";
}

std::string HttpLlmClient::displayUrl() const {
  return redactSecret(redactUrl(endpointUrl()), "");
}

void HttpLlmClient::log(const std::string& line, const std::string& apiKey) const {
  if (hooks_.log) hooks_.log(redactSecret(line, apiKey));
}

std::string HttpLlmClient::errorMessageFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return {};
  if (auto it = j.find("error"); it != j.end()) {
    if (it->is_string()) return it->get<std::string>();
    if (it->is_object()) {
      if (auto m = it->find("message"); m != it->end() && m->is_string()) return m->get<std::string>();
      return it->dump();
    }
  }
  for (const char* key : {"message", "detail", "msg"})
    if (auto it = j.find(key); it != j.end()) return it->is_string() ? it->get<std::string>() : it->dump();
  return {};
}

std::string HttpLlmClient::errorCodeFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return {};
  auto it = j.find("error");
  if (it == j.end() || !it->is_object()) return {};
  for (const char* key : {"code", "type"})
    if (auto c = it->find(key); c != it->end() && c->is_string()) return c->get<std::string>();
  return {};
}

HttpLlmClient::Attempt HttpLlmClient::runAttempt(const LlmRequest& request, const std::string& apiKey,
                                                 const StreamObserver& observer,
                                                 const std::atomic<bool>* cancel) const {
  Attempt a(observer);
  const std::string url = displayUrl();  // for messages: a key in the base URL is never shown
  const std::string model = request.model.empty() ? config_.model : request.model;
  HttpPostSpec spec;
  spec.url = endpointUrl();
  spec.headers = headers(apiKey);
  spec.headers.emplace_back("Content-Type", "application/json");
  spec.headers.emplace_back("Accept", "text/event-stream, application/json");
  spec.body = requestBody(request, model, request.temperature.value_or(config_.temperature),
                          request.maxTokens.value_or(config_.maxTokens))
                  .dump();
  spec.connectTimeout = std::chrono::milliseconds(config_.connectTimeoutMs);
  spec.totalTimeout = std::chrono::milliseconds(config_.requestTimeoutMs);
  spec.idleTimeout = std::chrono::milliseconds(config_.idleTimeoutMs);

  enum class Mode { Undecided, Sse, Buffer } mode = Mode::Undecided;
  std::string buffered;
  // Exceptions must not unwind through curl's C callbacks: a JSON value of the wrong type that a
  // wire format reads (a string where a number belongs) is a protocol error of this reply.
  auto guarded = [&](auto&& handle) {
    try {
      handle();
    } catch (const std::exception& e) {
      if (!a.state.error)
        a.state.error = {LlmErrorKind::BadResponse,
                         "protocol error in the reply from " + displayUrl() + ": " + toValidUtf8(e.what()),
                         0};
    }
  };
  SseParser parser([&](const SseEvent& e) {
    guarded([&] { onEvent(e, a.state); });
    return !a.state.error;
  });

  a.http = curlStreamingPost(
      spec,
      [&](const HttpOutcome& soFar, std::string_view chunk) {
        if (mode == Mode::Undecided) {
          const bool ok = soFar.status >= 200 && soFar.status < 300;
          mode = ok && headerOr(soFar, "content-type").find("event-stream") != std::string::npos
                     ? Mode::Sse
                     : Mode::Buffer;
        }
        if (mode == Mode::Sse) return parser.feed(chunk);
        if (buffered.size() + chunk.size() > kMaxBufferedBody) return false;
        buffered.append(chunk);
        return true;
      },
      cancel);

  const HttpOutcome& h = a.http;
  a.state.requestId = headerOr(h, requestIdHeader()).empty() ? a.state.requestId
                                                             : toValidUtf8(headerOr(h, requestIdHeader()));
  auto fail = [&](LlmErrorKind kind, std::string message, bool retryable) {
    a.error = {kind, redactSecret(message, apiKey), static_cast<int>(h.status)};
    a.retryable = retryable;
    return std::move(a);
  };
  const std::string partial = a.state.text.empty()
                                  ? std::string()
                                  : " after " + std::to_string(a.state.text.size()) + " characters of reply";

  if (h.failure == HttpFailure::Cancelled)
    return fail(LlmErrorKind::Cancelled, "request to " + url + " cancelled" + partial, false);
  if (h.failure == HttpFailure::Connect)
    return fail(LlmErrorKind::Network,
                "could not connect to " + url + ": " + h.curlMessage +
                    ". Is the server running and is the base URL (KWB_LLM_BASE_URL / --base-url) right?",
                true);
  if (h.failure == HttpFailure::Idle)
    return fail(LlmErrorKind::Timeout,
                "the stream from " + url + " stalled: no data for " +
                    seconds(std::chrono::milliseconds(config_.idleTimeoutMs)) + partial + " (idle timeout)",
                true);
  if (h.failure == HttpFailure::Timeout)
    return fail(LlmErrorKind::Timeout,
                (h.status == 0 ? "no response from " + url + " within the connect/request timeout"
                               : "request to " + url + " exceeded the request timeout of " +
                                     seconds(std::chrono::milliseconds(config_.requestTimeoutMs))) +
                    partial + " (" + h.curlMessage + ")",
                h.status == 0);  // retry a connect timeout, not a whole request that ran out of time

  if (h.status < 200 || h.status >= 300) {
    nlohmann::json body = nlohmann::json::parse(buffered, nullptr, false);
    std::string serverMessage = errorMessageFromJson(body);
    const std::string code = errorCodeFromJson(body);
    if (serverMessage.empty()) serverMessage = buffered.empty() ? "empty body" : bodySnippet(buffered);
    const std::string what = "HTTP " + std::to_string(h.status) + " from " + url + ": " + serverMessage;
    if (h.status == 0)
      return fail(LlmErrorKind::Network,
                  "connection to " + url + " broke before a response: " + h.curlMessage, true);
    if (h.status == 401 || h.status == 403) {
      const bool keySet = !apiKey.empty();
      return fail(
          LlmErrorKind::Auth,
          keySet ? "the API key in $" + config_.apiKeyEnv + " was rejected by " + url + " (" + what +
                       "): check the key or set KWB_LLM_API_KEY_ENV to the variable that holds the right one"
                 : "no API key was sent because $" + config_.apiKeyEnv + " is not set, and " + url +
                       " requires one (" + what + "): export " + config_.apiKeyEnv +
                       " or set KWB_LLM_API_KEY_ENV to the variable that holds your key",
          false);
    }
    if (h.status == 429) {
      if (auto ms = headerOr(h, "retry-after-ms"); !ms.empty())  // OpenAI's millisecond variant
        if (auto v = parseRetryAfter(ms, hooks_.clock.now())) a.retryAfter = *v / 1000;
      if (!a.retryAfter)
        if (auto ra = headerOr(h, "retry-after"); !ra.empty())
          a.retryAfter = parseRetryAfter(ra, hooks_.clock.now());
      if (code == "insufficient_quota")
        return fail(LlmErrorKind::RateLimited,
                    what + " (the account's quota is used up: retrying will not help)", false);
      return fail(LlmErrorKind::RateLimited, what, true);
    }
    if (h.status == 408) return fail(LlmErrorKind::Timeout, what, true);
    if (h.status >= 500) return fail(LlmErrorKind::Server, what, true);
    if (h.status == 404)
      return fail(LlmErrorKind::BadRequest,
                  what + " (check the base URL and the model name \"" +
                      (request.model.empty() ? config_.model : request.model) + "\")",
                  false);
    return fail(LlmErrorKind::BadRequest, what, false);
  }

  // 2xx
  if (mode == Mode::Buffer && !buffered.empty()) {
    nlohmann::json body = parseEventJson(buffered);
    const std::string contentType = headerOr(h, "content-type");
    if (!body.is_discarded()) {
      bool recognised = false;
      guarded([&] { recognised = onJsonBody(body, a.state); });
      if (a.state.error) {
        a.error = a.state.error;
        return a;
      }
      if (!recognised) {
        const std::string msg = errorMessageFromJson(body);
        if (!msg.empty()) return fail(LlmErrorKind::Server, "error from " + url + ": " + msg, true);
        return fail(LlmErrorKind::BadResponse, "unexpected JSON from " + url + ": " + bodySnippet(buffered),
                    false);
      }
      a.state.done = true;
    } else if (buffered.rfind("data:", 0) == 0 || buffered.rfind("event:", 0) == 0 ||
               buffered.rfind(":", 0) == 0) {
      parser.feed(buffered);  // an event stream with the wrong content type: parse it late
    } else {
      return fail(LlmErrorKind::BadResponse,
                  "expected an event stream or JSON from " + url + " but got " +
                      (contentType.empty() ? std::string("a body without content type") : contentType) +
                      ": " + bodySnippet(buffered) +
                      " (is the base URL pointing at the API, not a web page or proxy?)",
                  false);
    }
  }
  if (h.failure == HttpFailure::Aborted && mode == Mode::Buffer)
    return fail(LlmErrorKind::BadResponse, "the non-streamed body from " + url + " exceeded 4 MiB", false);
  parser.finish();
  if (a.state.error) {
    a.error = a.state.error;
    a.error.message = redactSecret(a.error.message, apiKey);
    a.retryable = a.state.errorRetryable;
    return a;
  }
  if (h.failure == HttpFailure::Network || (h.failure == HttpFailure::None && !a.state.done)) {
    const std::string how = h.failure == HttpFailure::Network ? " (" + h.curlMessage + ")" : "";
    return fail(LlmErrorKind::Truncated,
                "the stream from " + url + " ended before " + endMarker() + partial + how, true);
  }
  return a;
}

LlmResponse HttpLlmClient::complete(const LlmRequest& request, const StreamObserver& observer,
                                    const std::atomic<bool>* cancel) {
  const auto callStart = Clock::now();
  LlmResponse out;
  out.provider = provider();
  out.model = request.model.empty() ? config_.model : request.model;
  const std::string apiKey = hooks_.env(config_.apiKeyEnv).value_or("");
  const std::string url = displayUrl();

  for (int attempt = 0;; ++attempt) {
    if (cancel && cancel->load()) {
      out.error = {LlmErrorKind::Cancelled,
                   "request to " + url + " cancelled before attempt " + std::to_string(attempt + 1), 0};
      break;
    }
    log("POST " + url + " model " + out.model + " attempt " + std::to_string(attempt + 1) +
            (apiKey.empty() ? " (no key: $" + config_.apiKeyEnv + " is not set)"
                            : " (key from $" + config_.apiKeyEnv + ")"),
        apiKey);
    Attempt a = runAttempt(request, apiKey, observer, cancel);
    out.text = a.state.text;
    out.reasoning = a.state.reasoning;
    out.finishReason = a.state.finishReason;
    out.usage = a.state.usage;
    if (!a.state.model.empty()) out.model = a.state.model;
    out.requestId = a.state.requestId;
    out.retries = attempt;
    out.firstTokenLatency =
        a.state.firstDelta
            ? std::max(std::chrono::milliseconds(1),  // 0 is reserved for "no delta"
                       std::chrono::duration_cast<std::chrono::milliseconds>(*a.state.firstDelta - a.started))
            : std::chrono::milliseconds(0);
    out.error = a.error;
    if (!a.error) {
      log("done: " + std::to_string(out.text.size()) + " chars, finish " + out.finishReason + ", tokens " +
              std::to_string(out.usage.promptTokens) + "+" + std::to_string(out.usage.completionTokens),
          apiKey);
      break;
    }
    log("failed (" + std::string(toString(a.error.kind)) + "): " + a.error.message, apiKey);

    const bool canRestart = config_.restartAfterPartialStream && observer.onRestart;
    if (!a.retryable || attempt >= config_.maxRetries || (a.state.delivered() && !canRestart)) {
      if (a.retryable && attempt >= config_.maxRetries && attempt > 0)
        out.error.message += " (gave up after " + std::to_string(attempt + 1) +
                             " attempts: check the server and any proxy in between (logs, timeouts), or "
                             "allow more with KWB_LLM_MAX_RETRIES" +
                             (a.error.kind == LlmErrorKind::Timeout ? " / KWB_LLM_IDLE_TIMEOUT_S" : "") + ")";
      break;
    }
    std::chrono::milliseconds wait =
        backoffDelay(attempt + 1, std::chrono::milliseconds(config_.backoffBaseMs),
                     std::chrono::milliseconds(config_.backoffMaxMs), hooks_.clock.random01());
    if (a.retryAfter) {
      if (*a.retryAfter > std::chrono::milliseconds(config_.retryAfterMaxMs)) {
        out.error.message += " (the server asked to wait " + seconds(*a.retryAfter) + ", longer than the " +
                             seconds(std::chrono::milliseconds(config_.retryAfterMaxMs)) +
                             " this client waits)";
        break;
      }
      wait = *a.retryAfter;
    }
    if (a.state.delivered()) {
      // The attempt's partial text is not resumable (the APIs have no "continue from here"): it is
      // discarded and the reply starts again; the observer and the log are told so.
      a.error.message += "; " + std::to_string(a.state.text.size() + a.state.reasoning.size()) +
                         " characters of partial reply discarded";
      observer.onRestart(attempt + 1, a.error);
    }
    if (observer.onRetry) observer.onRetry(attempt + 1, wait, a.error);
    log("retry " + std::to_string(attempt + 1) + " of " + std::to_string(config_.maxRetries) + " in " +
            std::to_string(wait.count()) + " ms",
        apiKey);
    hooks_.clock.sleep(wait, cancel);
  }
  out.latency = since(callStart);
  return out;
}

}  // namespace kwb
