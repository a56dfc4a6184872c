// SPDX-License-Identifier: MIT
// Issue 16, items 3-5, at the client level against the scripted local server (both wire formats):
// bytes that are not UTF-8, a string where a token count belongs, a stream cut or stalled after its
// first token (retried, partial text discarded, each retry reported), giving up with an actionable
// message, and a key embedded in the base URL that must never be shown.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/llm/AnthropicClient.h"
#include "core/llm/OpenAICompatibleClient.h"
#include "core/model/Utf8Text.h"
#include "tests/support/LlmTestServer.h"

using namespace kwb;
using namespace kwb::testsupport;

namespace {

RetryClock instantClock(std::vector<std::chrono::milliseconds>& sleeps) {
  RetryClock c;
  c.sleep = [&sleeps](std::chrono::milliseconds d, const std::atomic<bool>*) { sleeps.push_back(d); };
  c.random01 = [] { return 0.5; };
  return c;
}

// One event stream of the wire format: a text delta `text` and a usage object made of `usageJson`
// (raw JSON members, so a test can put a string where a number belongs).
std::string streamBody(bool anthropic, const std::string& text, const std::string& usageJson) {
  if (anthropic)
    return "event: message_start\ndata: "
           "{\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"model\":\"t\","
           "\"usage\":{\"input_tokens\":3}}}\n\n"
           "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
           "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
           "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
           "{\"type\":\"text_delta\",\"text\":\"" +
           text +
           "\"}}\n\n"
           "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
           "\"usage\":{" +
           usageJson +
           "}}\n\n"
           "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text +
         "\"}}]}\n\n"
         "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
         "data: {\"choices\":[],\"usage\":{" +
         usageJson + "}}\n\ndata: [DONE]\n\n";
}

ScriptedReply raw(const std::string& body) {
  ScriptedReply r;
  r.fault = LlmFault::Raw;
  r.status = 200;
  r.contentType = "text/event-stream";
  r.body = body;
  return r;
}

class LlmFaultTest : public ::testing::TestWithParam<std::string> {
 protected:
  bool anthropic() const { return GetParam() == "anthropic"; }
  std::string countField() const { return anthropic() ? "output_tokens" : "prompt_tokens"; }

  LlmEndpointConfig config() const {
    LlmEndpointConfig c;
    c.provider = GetParam();
    c.baseUrl = server.baseUrl();
    c.model = "m";
    c.apiKeyEnv = "KWB_FAULT_TEST_KEY";
    c.maxRetries = 2;
    c.connectTimeoutMs = 2000;
    c.requestTimeoutMs = 10000;
    c.idleTimeoutMs = 3000;
    return c;
  }

  std::unique_ptr<HttpLlmClient> client(const LlmEndpointConfig& c) {
    LlmClientHooks hooks;
    hooks.env = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    hooks.clock = instantClock(sleeps);
    hooks.log = [this](std::string_view line) { logLines.emplace_back(line); };
    if (anthropic()) return std::make_unique<AnthropicClient>(c, std::move(hooks));
    return std::make_unique<OpenAICompatibleClient>(c, std::move(hooks));
  }

  static LlmRequest request() {
    LlmRequest r;
    r.messages.push_back({LlmRole::User, "Write a kernel."});
    return r;
  }

  // What an agent passes: it can discard text (onRestart) and reports retries (onRetry).
  StreamObserver agentLikeObserver() {
    StreamObserver o;
    o.onText = [this](std::string_view d) { shown += d; };
    o.onRestart = [this](int, const LlmError&) {
      ++restarts;
      shown.clear();
    };
    o.onRetry = [this](int attempt, std::chrono::milliseconds, const LlmError& why) {
      retryReasons.push_back(std::to_string(attempt) + ": " + why.message);
    };
    return o;
  }

  LlmTestServer server;
  std::vector<std::chrono::milliseconds> sleeps;
  std::vector<std::string> logLines;
  std::string shown;
  int restarts = 0;
  std::vector<std::string> retryReasons;
};

TEST_P(LlmFaultTest, ABadByteInsideADeltaBecomesAReplacementCharacter) {
  server.push(raw(streamBody(anthropic(), "ok \xff\xfe done", "\"" + countField() + "\":5")));
  const LlmResponse resp = client(config())->complete(request(), {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "ok \xEF\xBF\xBD\xEF\xBF\xBD done");
  EXPECT_NO_THROW((void)toJson(resp).dump());
}

TEST_P(LlmFaultTest, AnUnparseableEventWithBadBytesIsAnErrorThatStillDumpsAsJson) {
  server.push(
      raw(std::string("data: {\"choices\": \xc3\x28 not json\n\n") +
          (anthropic() ? "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n" : "data: [DONE]\n\n")));
  const LlmResponse resp = client(config())->complete(request(), {}, nullptr);
  ASSERT_EQ(resp.error.kind, LlmErrorKind::BadResponse) << resp.error.message;
  EXPECT_TRUE(isValidUtf8(resp.error.message)) << resp.error.message;
  EXPECT_NO_THROW((void)toJson(resp).dump());
}

TEST_P(LlmFaultTest, AStringWhereATokenCountBelongsIsAProtocolErrorNamingTheField) {
  server.push(raw(streamBody(anthropic(), "text", "\"" + countField() + "\":\"12\"")));
  const LlmResponse resp = client(config())->complete(request(), {}, nullptr);
  ASSERT_EQ(resp.error.kind, LlmErrorKind::BadResponse) << resp.error.message;
  EXPECT_NE(resp.error.message.find("protocol error"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("usage." + countField() + " is a string"), std::string::npos)
      << resp.error.message;
}

TEST_P(LlmFaultTest, AStringTokenCountInANonStreamedReplyIsAProtocolErrorToo) {
  ScriptedReply r;
  r.fault = LlmFault::Raw;
  r.status = 200;
  r.contentType = "application/json";
  r.body = anthropic()
               ? R"({"type":"message","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":"x"}})"
               : R"({"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":"x"}})";
  server.push(r);
  const LlmResponse resp = client(config())->complete(request(), {}, nullptr);
  ASSERT_EQ(resp.error.kind, LlmErrorKind::BadResponse) << resp.error.message;
  EXPECT_NE(resp.error.message.find(anthropic() ? "usage.input_tokens" : "usage.prompt_tokens"),
            std::string::npos)
      << resp.error.message;
}

TEST_P(LlmFaultTest, ACutStreamAfterTheFirstTokenIsRetriedAndThePartialTextDiscarded) {
  ScriptedReply cut;
  cut.fault = LlmFault::Cut;
  cut.text = "partial text that will be cut";
  cut.cutAfterChars = 10;
  server.push(cut);
  ScriptedReply good;
  good.text = "the whole reply";
  server.push(good);
  const LlmResponse resp = client(config())->complete(request(), agentLikeObserver(), nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "the whole reply");
  EXPECT_EQ(shown, "the whole reply");
  EXPECT_EQ(restarts, 1);
  EXPECT_EQ(resp.retries, 1);
  ASSERT_EQ(retryReasons.size(), 1u);
  EXPECT_NE(retryReasons[0].find("10 characters of partial reply discarded"), std::string::npos)
      << retryReasons[0];
}

TEST_P(LlmFaultTest, AStallAfterTheFirstTokenIsRetried) {
  ScriptedReply stall;
  stall.fault = LlmFault::Stall;
  stall.text = "starts then stalls";
  stall.cutAfterChars = 6;
  stall.stallMs = 4000;
  server.push(stall);
  ScriptedReply good;
  good.text = "second try";
  server.push(good);
  auto c = config();
  c.idleTimeoutMs = 300;
  const LlmResponse resp = client(c)->complete(request(), agentLikeObserver(), nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "second try");
  ASSERT_EQ(retryReasons.size(), 1u);
  EXPECT_NE(retryReasons[0].find("stalled"), std::string::npos) << retryReasons[0];
}

TEST_P(LlmFaultTest, GivingUpOnRepeatedCutsSaysWhatToDo) {
  ScriptedReply cut;
  cut.fault = LlmFault::Cut;
  cut.text = "always cut here";
  cut.cutAfterChars = 4;
  server.setFallback(cut);
  const LlmResponse resp = client(config())->complete(request(), agentLikeObserver(), nullptr);
  ASSERT_EQ(resp.error.kind, LlmErrorKind::Truncated);
  EXPECT_EQ(server.requestCount(), 3u);
  EXPECT_EQ(retryReasons.size(), 2u);
  EXPECT_NE(resp.error.message.find("gave up after 3 attempts"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("KWB_LLM_MAX_RETRIES"), std::string::npos) << resp.error.message;
}

TEST_P(LlmFaultTest, AKeyInTheBaseUrlIsNeverShown) {
  ScriptedReply fail;
  fail.fault = LlmFault::ServerError;
  server.setFallback(fail);
  auto c = config();
  const std::string hostPort = server.baseUrl().substr(std::string("http://").size());
  c.baseUrl = "http://user:sk-userinfo-secret@" + hostPort + "/v1?api-version=2024-06-01&key=sk-query-secret";
  c.maxRetries = 1;
  auto cl = client(c);
  const LlmResponse resp = cl->complete(request(), {}, nullptr);
  ASSERT_EQ(resp.error.kind, LlmErrorKind::Server);
  std::string shownEverywhere = cl->describe() + "\n" + resp.error.message + "\n" + toJson(resp).dump();
  for (const auto& l : logLines) shownEverywhere += "\n" + l;
  EXPECT_EQ(shownEverywhere.find("secret"), std::string::npos) << shownEverywhere;
  EXPECT_NE(cl->describe().find("api-version=2024-06-01"), std::string::npos) << cl->describe();
  // The request itself still carries the query, after the inserted path.
  ASSERT_FALSE(server.requests().empty());
  EXPECT_EQ(server.requests()[0].path, anthropic() ? "/v1/messages" : "/v1/chat/completions");
}

INSTANTIATE_TEST_SUITE_P(WireFormats, LlmFaultTest, ::testing::Values("openai", "anthropic"),
                         [](const auto& info) { return info.param; });

TEST(LlmEndpointUrl, AQueryStringStaysAfterTheInsertedPath) {
  EXPECT_EQ(
      openAiChatCompletionsUrl("https://r.openai.azure.com/openai/deployments/gpt?api-version=2024-06-01"),
      "https://r.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-06-01");
  EXPECT_EQ(openAiChatCompletionsUrl("https://h.example/?api-version=1"),
            "https://h.example/v1/chat/completions?api-version=1");
  EXPECT_EQ(openAiChatCompletionsUrl("https://h.example/v1/chat/completions?x=1"),
            "https://h.example/v1/chat/completions?x=1");
  EXPECT_EQ(anthropicMessagesUrl("https://gw.example/v1?team=a"), "https://gw.example/v1/messages?team=a");
}

TEST(LlmEndpointEnvironment, InvalidValuesWarnNamingTheVariableAndTheProblem) {
  const std::map<std::string, std::string> vars{{"KWB_LLM_PROVIDER", "opneai"},
                                                {"KWB_LLM_BASE_URL", "api.example.com/v1"},
                                                {"KWB_LLM_MAX_RETRIES", "2.5"},
                                                {"KWB_LLM_TEMPERATURE", "hot"},
                                                {"KWB_LLM_TIMEOUT_S", "1e12"},
                                                {"KWB_LLM_MAX_TOKENS", ""},
                                                {"KWB_LLM_API_KEY_ENV", "sk-pasted-key-value"}};
  const auto c = llmEndpointFromEnvironment([&](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
  std::string all;
  for (const auto& w : c.warnings) all += w + "\n";
  EXPECT_EQ(c.warnings.size(), 7u) << all;
  EXPECT_NE(all.find("KWB_LLM_PROVIDER=\"opneai\" is not a provider"), std::string::npos) << all;
  EXPECT_NE(all.find("KWB_LLM_BASE_URL=\"api.example.com/v1\" does not start with http"), std::string::npos)
      << all;
  EXPECT_NE(all.find("KWB_LLM_MAX_RETRIES=\"2.5\" is not a whole number"), std::string::npos) << all;
  EXPECT_NE(all.find("KWB_LLM_TEMPERATURE=\"hot\" is not a number"), std::string::npos) << all;
  EXPECT_NE(all.find("KWB_LLM_TIMEOUT_S=\"1e12\" is out of range"), std::string::npos) << all;
  EXPECT_NE(all.find("KWB_LLM_MAX_TOKENS=\"\" is empty"), std::string::npos) << all;
  EXPECT_NE(all.find("KWB_LLM_API_KEY_ENV is not an environment variable name"), std::string::npos) << all;
  EXPECT_EQ(all.find("sk-pasted"), std::string::npos) << "a key pasted in the wrong place is not echoed";
  EXPECT_EQ(c.maxRetries, 4) << "the default is kept";
  EXPECT_EQ(c.requestTimeoutMs, 600'000);
}

TEST(LlmEndpointEnvironment, MisspeltVariablesWarnWithTheClosestKnownName) {
  const auto w = unknownLlmEnvironmentVariables(
      {"PATH", "KWB_LLM_MODEL", "KWB_LLM_MODLE", "KWB_LLM_BASEURL", "KWB_LLM_SOMETHING_ELSE", "KWB_RUN_X"});
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], "KWB_LLM_MODLE is not a variable kwb reads; did you mean KWB_LLM_MODEL?");
  EXPECT_EQ(w[1], "KWB_LLM_BASEURL is not a variable kwb reads; did you mean KWB_LLM_BASE_URL?");
  EXPECT_NE(w[2].find("KWB_LLM_SOMETHING_ELSE is not a variable kwb reads (known: KWB_LLM_PROVIDER"),
            std::string::npos)
      << w[2];
  for (const auto& name : llmEnvironmentVariableNames())
    EXPECT_TRUE(unknownLlmEnvironmentVariables({name}).empty()) << name;
}

TEST(Utf8Text, ReplacesEachMaximalBadSubpartAndKeepsValidText) {
  EXPECT_EQ(toValidUtf8("plain"), "plain");
  EXPECT_EQ(toValidUtf8("\xE2\x82\xAC"), "\xE2\x82\xAC");  // euro sign
  EXPECT_EQ(toValidUtf8("a\xE2\x82"
                        "b"),
            "a\xEF\xBF\xBD"
            "b");                                                  // truncated 3-byte sequence: one U+FFFD
  EXPECT_EQ(toValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong: two
  EXPECT_EQ(toValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(toValidUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
  EXPECT_FALSE(isValidUtf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_TRUE(isValidUtf8("\xF0\x9F\x98\x80"));
}

}  // namespace
