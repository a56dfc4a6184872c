// SPDX-License-Identifier: MIT
// The pieces under the LLM clients: SSE parsing, Retry-After and backoff, URL rules, redaction,
// settings serialisation, request/response JSON.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/llm/LlmClient.h"
#include "core/llm/Redaction.h"
#include "core/llm/SseParser.h"

using namespace kwb;
using namespace std::chrono_literals;

namespace {

std::vector<SseEvent> parseInPieces(const std::string& stream, std::size_t piece) {
  std::vector<SseEvent> events;
  SseParser p([&](const SseEvent& e) {
    events.push_back(e);
    return true;
  });
  for (std::size_t i = 0; i < stream.size(); i += piece) p.feed(std::string_view(stream).substr(i, piece));
  p.finish();
  return events;
}

}  // namespace

TEST(LlmSse, ParsesEventsCommentsMultiLineDataAndAnyLineEndingAtEverySplit) {
  const std::string stream =
      ": keep-alive\r\n\r\n"
      "event: message_start\r\ndata: {\"a\":1}\r\n\r\n"
      "data: first line\ndata: second line\n\n"
      "id: 7\rdata:no-space\r\r"
      "data: [DONE]\n\n";
  for (std::size_t piece = 1; piece <= stream.size(); ++piece) {
    auto events = parseInPieces(stream, piece);
    ASSERT_EQ(events.size(), 4u) << "piece size " << piece;
    EXPECT_EQ(events[0].event, "message_start");
    EXPECT_EQ(events[0].data, "{\"a\":1}");
    EXPECT_EQ(events[1].event, "");
    EXPECT_EQ(events[1].data, "first line\nsecond line");
    EXPECT_EQ(events[2].data, "no-space");
    EXPECT_EQ(events[2].id, "7");
    EXPECT_EQ(events[3].data, "[DONE]");
  }
}

TEST(LlmSse, PendingEventWithoutBlankLineIsDispatchedAtFinishAndStopIsHonoured) {
  auto events = parseInPieces("data: a\n\ndata: tail-without-blank-line", 4);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].data, "tail-without-blank-line");

  int seen = 0;
  SseParser p([&](const SseEvent&) { return ++seen < 1; });
  EXPECT_FALSE(p.feed("data: 1\n\ndata: 2\n\n"));
  EXPECT_EQ(seen, 1);
}

TEST(LlmRetry, RetryAfterAcceptsSecondsAndAllThreeHttpDateForms) {
  const auto now =
      std::chrono::system_clock::time_point(std::chrono::seconds(784111777));  // 1994-11-06 08:49:37 UTC
  EXPECT_EQ(parseRetryAfter("120", now), 120000ms);
  EXPECT_EQ(parseRetryAfter(" 1.5 ", now), 1500ms);
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now), 10000ms);
  EXPECT_EQ(parseRetryAfter("Sunday, 06-Nov-94 08:50:37 GMT", now), 60000ms);
  EXPECT_EQ(parseRetryAfter("Sun Nov  6 08:49:39 1994", now), 2000ms);
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now), 0ms) << "a past date means now";
  EXPECT_FALSE(parseRetryAfter("soon", now));
  EXPECT_FALSE(parseRetryAfter("", now));
  EXPECT_FALSE(parseRetryAfter("-5", now));
}

TEST(LlmRetry, BackoffDoublesIsCappedAndJittered) {
  EXPECT_EQ(backoffDelay(1, 500ms, 60s, 0.5), 500ms);
  EXPECT_EQ(backoffDelay(2, 500ms, 60s, 0.5), 1000ms);
  EXPECT_EQ(backoffDelay(4, 500ms, 60s, 0.5), 4000ms);
  EXPECT_EQ(backoffDelay(30, 500ms, 60s, 0.5), 60000ms);
  EXPECT_EQ(backoffDelay(1, 1000ms, 60s, 0.0), 750ms);
  EXPECT_EQ(backoffDelay(1, 1000ms, 60s, 0.999999), 1249ms);
}

TEST(LlmRetry, RealSleepIsInterruptedByCancel) {
  auto clock = RetryClock::real();
  std::atomic<bool> cancel{true};
  const auto t0 = std::chrono::steady_clock::now();
  clock.sleep(5s, &cancel);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 500ms);
}

TEST(LlmEndpoint, OpenAiUrlRuleHandlesBasesWithAndWithoutVersion) {
  EXPECT_EQ(openAiChatCompletionsUrl("https://api.openai.com/v1"),
            "https://api.openai.com/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("https://api.openai.com/v1/"),
            "https://api.openai.com/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("https://api.deepseek.com"),
            "https://api.deepseek.com/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("http://localhost:11434/"),
            "http://localhost:11434/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("https://dashscope.aliyuncs.com/compatible-mode/v1"),
            "https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("https://openrouter.ai/api/v1"),
            "https://openrouter.ai/api/v1/chat/completions");
  EXPECT_EQ(openAiChatCompletionsUrl("http://h:8000/v1/chat/completions"),
            "http://h:8000/v1/chat/completions");
  EXPECT_EQ(anthropicMessagesUrl("https://api.anthropic.com"), "https://api.anthropic.com/v1/messages");
  EXPECT_EQ(anthropicMessagesUrl("https://api.anthropic.com/v1/"), "https://api.anthropic.com/v1/messages");
  EXPECT_EQ(anthropicMessagesUrl("https://gw.example/anthropic"), "https://gw.example/anthropic/v1/messages");
  EXPECT_EQ(anthropicMessagesUrl("https://gw.example/v1/messages"), "https://gw.example/v1/messages");
}

TEST(LlmEndpoint, SettingsSerialiseTheKeyVariableNameNeverAKey) {
  LlmEndpointConfig c;
  c.provider = "openai";
  c.baseUrl = "http://127.0.0.1:8000/v1";
  c.model = "qwen";
  c.apiKeyEnv = "MY_KEY";
  c.maxRetries = 1;
  c.idleTimeoutMs = 1234;
  const auto j = toJson(c);
  EXPECT_FALSE(j.contains("api_key"));
  const auto back = llmEndpointFromJson(j);
  EXPECT_EQ(back.apiKeyEnv, "MY_KEY");
  EXPECT_EQ(back.maxRetries, 1);
  EXPECT_EQ(back.idleTimeoutMs, 1234);
  EXPECT_EQ(back.baseUrl, c.baseUrl);
  nlohmann::json withKey = j;
  withKey["api_key"] = "sk-oops";
  EXPECT_THROW(llmEndpointFromJson(withKey), std::invalid_argument);
  nlohmann::json wrongType = j;
  wrongType["max_tokens"] = "lots";
  try {
    llmEndpointFromJson(wrongType);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_tokens"), std::string::npos) << e.what();
  }
}

TEST(LlmEndpoint, EnvironmentOverridesAndBadValuesBecomeWarnings) {
  std::map<std::string, std::string> vars{{"KWB_LLM_PROVIDER", "anthropic"},
                                          {"KWB_LLM_MODEL", "claude-x"},
                                          {"KWB_LLM_MAX_TOKENS", "4096"},
                                          {"KWB_LLM_TIMEOUT_S", "30"},
                                          {"KWB_LLM_MAX_RETRIES", "many"}};
  auto c = llmEndpointFromEnvironment([&](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
  EXPECT_EQ(c.baseUrl, "https://api.anthropic.com");
  EXPECT_EQ(c.apiKeyEnv, "ANTHROPIC_API_KEY");
  EXPECT_FALSE(c.apiKeyPresent);
  EXPECT_EQ(c.maxTokens, 4096);
  EXPECT_EQ(c.requestTimeoutMs, 30000);
  EXPECT_EQ(c.maxRetries, LlmEndpointConfig{}.maxRetries);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("KWB_LLM_MAX_RETRIES"), std::string::npos);
}

TEST(LlmEndpoint, FactoryRejectsIncompleteSettingsWithAdvice) {
  LlmEndpointConfig c;
  c.provider = "gemini";
  EXPECT_THROW(makeLlmClient(c), std::invalid_argument);
  c.provider = "openai";
  try {
    makeLlmClient(c);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("KWB_LLM_BASE_URL"), std::string::npos);
  }
  c.baseUrl = "http://localhost:8000/v1";
  c.model = "m";
  auto client = makeLlmClient(c);
  EXPECT_EQ(client->provider(), "openai");
  EXPECT_NE(client->describe().find("http://localhost:8000/v1/chat/completions"), std::string::npos);
  c.provider = "replay";
  c.replayFile = "/nonexistent/replay.json";
  EXPECT_THROW(makeLlmClient(c), std::invalid_argument);
}

TEST(LlmRedaction, KeyAndItsPrefixAndAuthHeadersAreMasked) {
  const std::string key = "sk-proj-ABCDEFGHIJKLMNOP";
  const std::string text =
      "bad key " + key + "; echoed sk-proj-A****MNOP; Authorization: Bearer zzz; x-api-key: qqq";
  const std::string out = redactSecret(text, key);
  EXPECT_EQ(out.find(key), std::string::npos) << out;
  EXPECT_EQ(out.find("sk-proj-A"), std::string::npos) << out;
  EXPECT_EQ(out.find("zzz"), std::string::npos) << out;
  EXPECT_EQ(out.find("qqq"), std::string::npos) << out;
  EXPECT_NE(out.find("[REDACTED]"), std::string::npos);
  EXPECT_EQ(bodySnippet(std::string(300, 'x'), 200).size(), 203u);
  EXPECT_EQ(bodySnippet("a\r\nb"), "a  b");
}

TEST(LlmTypes, ResponseJsonRoundTripsAndNamesBadFields) {
  LlmResponse r;
  r.text = "code";
  r.reasoning = "think";
  r.finishReason = "length";
  r.usage = {10, 20, true};
  r.provider = "openai";
  r.model = "m";
  r.latency = 1500ms;
  r.retries = 2;
  r.error = {LlmErrorKind::Truncated, "cut", 200};
  const auto back = llmResponseFromJson(toJson(r));
  EXPECT_EQ(back.text, "code");
  EXPECT_EQ(back.reasoning, "think");
  EXPECT_TRUE(back.hitMaxTokens());
  EXPECT_EQ(back.usage.completionTokens, 20);
  EXPECT_EQ(back.error.kind, LlmErrorKind::Truncated);
  EXPECT_EQ(back.error.httpStatus, 200);
  EXPECT_EQ(back.latency, 1500ms);
  EXPECT_EQ(back.retries, 2);

  nlohmann::json bad = {{"messages", {{{"role", "robot"}, {"content", "x"}}}}};
  try {
    llmRequestFromJson(bad);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("request.messages[0].role"), std::string::npos) << e.what();
  }
}

TEST(LlmTypes, DigestDependsOnConversationNotOnModel) {
  LlmRequest a;
  a.system = "s";
  a.messages = {{LlmRole::User, "hello"}};
  LlmRequest b = a;
  b.model = "other";
  b.temperature = 1.0;
  EXPECT_EQ(llmRequestDigest(a), llmRequestDigest(b));
  EXPECT_EQ(llmRequestDigest(a).size(), 16u);
  b.messages[0].content = "hello!";
  EXPECT_NE(llmRequestDigest(a), llmRequestDigest(b));
}
