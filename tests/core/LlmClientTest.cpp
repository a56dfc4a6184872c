// SPDX-License-Identifier: MIT
// The HTTP clients against the scripted local server, for both wire formats: streaming, usage, what is
// sent, and every injected fault. Backoff sleeps are recorded, not slept, so the suite stays fast.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "core/llm/AnthropicClient.h"
#include "core/llm/LlmTranscript.h"
#include "core/llm/OpenAICompatibleClient.h"
#include "tests/support/LlmTestServer.h"

using namespace kwb;
using namespace kwb::testsupport;
using namespace std::chrono_literals;

namespace {

constexpr const char* kSentinelKey = "sk-SENTINEL-7f3a9c1e5b2d4086";
constexpr const char* kKeyEnv = "KWB_TEST_LLM_KEY";

struct FakeClock {
  std::vector<std::chrono::milliseconds> sleeps;
  std::chrono::system_clock::time_point now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1738324800));
  RetryClock clock() {
    RetryClock c;
    c.sleep = [this](std::chrono::milliseconds d, const std::atomic<bool>*) { sleeps.push_back(d); };
    c.now = [this] { return now; };
    c.random01 = [] { return 0.5; };  // jitter factor exactly 1.0
    return c;
  }
};

ScriptedReply ok(std::string text, std::size_t chunk = 5) {
  ScriptedReply r;
  r.text = std::move(text);
  r.chunkChars = chunk;
  return r;
}

ScriptedReply fault(LlmFault f) {
  ScriptedReply r;
  r.fault = f;
  r.text = "The kernel uses DataCopyPad for the tail.";
  return r;
}

class LlmClientTest : public ::testing::TestWithParam<std::string> {
 protected:
  bool anthropic() const { return GetParam() == "anthropic"; }

  LlmEndpointConfig config() const {
    LlmEndpointConfig c;
    c.provider = GetParam();
    c.baseUrl = server.baseUrl();
    c.model = "kwb-test-model";
    c.apiKeyEnv = kKeyEnv;
    c.maxTokens = 512;
    c.temperature = 0.3;
    c.maxRetries = 3;
    c.backoffBaseMs = 1000;
    c.connectTimeoutMs = 2000;
    c.requestTimeoutMs = 10000;
    c.idleTimeoutMs = 3000;
    return c;
  }

  std::unique_ptr<HttpLlmClient> client(const LlmEndpointConfig& c) {
    LlmClientHooks hooks;
    hooks.env = [this](const std::string& name) -> std::optional<std::string> {
      if (name == kKeyEnv && keySet) return std::string(kSentinelKey);
      return std::nullopt;
    };
    hooks.clock = fake.clock();
    hooks.log = [this](std::string_view line) { logLines.emplace_back(line); };
    if (anthropic()) return std::make_unique<AnthropicClient>(c, std::move(hooks));
    return std::make_unique<OpenAICompatibleClient>(c, std::move(hooks));
  }
  std::unique_ptr<HttpLlmClient> client() { return client(config()); }

  static LlmRequest request(std::string user = "Write an Add kernel for float16, shape 8x2048.") {
    LlmRequest r;
    r.system = "You write Ascend C kernels.";
    r.messages.push_back({LlmRole::User, std::move(user)});
    return r;
  }

  void expectNoKeyAnywhere(const LlmResponse& r) const {
    EXPECT_EQ(r.error.message.find(kSentinelKey), std::string::npos) << r.error.message;
    EXPECT_EQ(r.error.message.find("SENTINEL"), std::string::npos) << r.error.message;
    EXPECT_EQ(toJson(r).dump().find("SENTINEL"), std::string::npos);
    for (const auto& l : logLines) EXPECT_EQ(l.find("SENTINEL"), std::string::npos) << l;
  }

  LlmTestServer server;
  FakeClock fake;
  bool keySet = true;
  std::vector<std::string> logLines;
};

const std::string kLongText =
    "```cpp\n#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, "
    "GM_ADDR y, "
    "GM_ADDR z) {\n  KernelAdd op;\n  op.Init(x, y, z);\n  op.Process();\n}\n```\n";

}  // namespace

TEST_P(LlmClientTest, StreamsDeltasIncrementallyAndRecordsUsage) {
  ScriptedReply r = ok(kLongText, 7);
  r.chunkDelayMs = 10;
  server.push(r);
  std::vector<std::string> deltas;
  std::chrono::steady_clock::time_point firstDelta{};
  StreamObserver obs;
  obs.onText = [&](std::string_view d) {
    if (deltas.empty()) firstDelta = std::chrono::steady_clock::now();
    deltas.emplace_back(d);
  };
  auto resp = client()->complete(request(), obs, nullptr);
  const auto done = std::chrono::steady_clock::now();
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, kLongText);
  EXPECT_GT(deltas.size(), 10u);
  std::string joined;
  for (const auto& d : deltas) joined += d;
  EXPECT_EQ(joined, kLongText);
  EXPECT_GT(done - firstDelta, 100ms) << "the first delta must arrive long before the reply completes";
  EXPECT_TRUE(resp.usage.reported);
  EXPECT_EQ(resp.usage.promptTokens, 42);
  EXPECT_EQ(resp.usage.completionTokens, 17);
  EXPECT_EQ(resp.finishReason, anthropic() ? "end_turn" : "stop");
  EXPECT_EQ(resp.provider, GetParam());
  EXPECT_EQ(resp.model, "kwb-test-model");
  EXPECT_EQ(resp.requestId, "req_test_1");
  EXPECT_EQ(resp.retries, 0);
  EXPECT_GT(resp.firstTokenLatency.count(), 0);
  EXPECT_GE(resp.latency, resp.firstTokenLatency);
}

TEST_P(LlmClientTest, SendsTheWireFormatWithKeyHeaderAndSettings) {
  server.push(ok("hi"));
  LlmRequest req = request();
  req.messages.push_back({LlmRole::Assistant, "previous candidate"});
  req.messages.push_back({LlmRole::User, "error: ub-overflow at line 12"});
  auto resp = client()->complete(req, {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  ASSERT_EQ(server.requestCount(), 1u);
  const RecordedRequest sent = server.requests()[0];
  const auto& body = sent.json;
  ASSERT_TRUE(body.is_object()) << sent.body;
  EXPECT_EQ(body["model"], "kwb-test-model");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["max_tokens"], 512);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.3);
  EXPECT_EQ(sent.header("content-type"), "application/json");
  if (anthropic()) {
    EXPECT_EQ(sent.path, "/v1/messages");
    EXPECT_EQ(sent.header("x-api-key"), kSentinelKey);
    EXPECT_EQ(sent.header("anthropic-version"), "2023-06-01");
    EXPECT_EQ(sent.header("authorization"), "");
    EXPECT_EQ(body["system"], "You write Ascend C kernels.");
    ASSERT_EQ(body["messages"].size(), 3u);
    EXPECT_EQ(body["messages"][0]["role"], "user");
  } else {
    EXPECT_EQ(sent.path, "/v1/chat/completions");
    EXPECT_EQ(sent.header("authorization"), std::string("Bearer ") + kSentinelKey);
    EXPECT_EQ(body["stream_options"]["include_usage"], true);
    ASSERT_EQ(body["messages"].size(), 4u);
    EXPECT_EQ(body["messages"][0]["role"], "system");
    EXPECT_EQ(body["messages"][0]["content"], "You write Ascend C kernels.");
  }
  EXPECT_EQ(body["messages"].back()["content"], "error: ub-overflow at line 12");
  EXPECT_NE(sent.allText().find("previous candidate"), std::string::npos);
}

TEST_P(LlmClientTest, BaseUrlWithOrWithoutV1ReachesTheSameEndpoint) {
  server.push(ok("a"));
  server.push(ok("b"));
  auto c = config();
  c.baseUrl = server.baseUrl() + "/v1/";
  ASSERT_TRUE(client(c)->complete(request(), {}, nullptr).ok());
  c.baseUrl = server.baseUrl();
  ASSERT_TRUE(client(c)->complete(request(), {}, nullptr).ok());
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].path, reqs[1].path);
  EXPECT_EQ(reqs[0].path, anthropic() ? "/v1/messages" : "/v1/chat/completions");
}

TEST_P(LlmClientTest, RateLimitHonoursRetryAfterSeconds) {
  auto limited = fault(LlmFault::RateLimited);
  limited.retryAfter = "7";
  server.push(limited);
  server.push(ok("after the wait"));
  std::vector<int> retryAttempts;
  StreamObserver obs;
  obs.onRetry = [&](int attempt, std::chrono::milliseconds, const LlmError& why) {
    retryAttempts.push_back(attempt);
    EXPECT_EQ(why.kind, LlmErrorKind::RateLimited);
  };
  auto resp = client()->complete(request(), obs, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "after the wait");
  EXPECT_EQ(resp.retries, 1);
  ASSERT_EQ(fake.sleeps.size(), 1u);
  EXPECT_EQ(fake.sleeps[0], 7000ms);
  EXPECT_EQ(retryAttempts, std::vector<int>{1});
  EXPECT_EQ(server.requestCount(), 2u);
}

TEST_P(LlmClientTest, RateLimitHonoursRetryAfterHttpDate) {
  auto limited = fault(LlmFault::RateLimited);
  limited.retryAfter = "Fri, 31 Jan 2025 12:00:03 GMT";  // fake.now is 12:00:00 that day
  server.push(limited);
  server.push(ok("ok"));
  auto resp = client()->complete(request(), {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  ASSERT_EQ(fake.sleeps.size(), 1u);
  EXPECT_EQ(fake.sleeps[0], 3000ms);
}

TEST_P(LlmClientTest, RetryAfterBeyondTheCapIsNotWaitedFor) {
  auto limited = fault(LlmFault::RateLimited);
  limited.retryAfter = "3600";
  server.push(limited);
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::RateLimited);
  EXPECT_EQ(resp.error.httpStatus, 429);
  EXPECT_NE(resp.error.message.find("asked to wait"), std::string::npos) << resp.error.message;
  EXPECT_TRUE(fake.sleeps.empty());
}

TEST_P(LlmClientTest, ServerErrorsAreRetriedWithExponentialBackoff) {
  server.push(fault(LlmFault::ServerError));
  server.push(fault(LlmFault::ServerError));
  server.push(ok("third time lucky"));
  auto resp = client()->complete(request(), {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "third time lucky");
  EXPECT_EQ(resp.retries, 2);
  EXPECT_EQ(fake.sleeps, (std::vector<std::chrono::milliseconds>{1000ms, 2000ms}));
}

TEST_P(LlmClientTest, GivesUpAfterMaxRetriesWithTheServerMessage) {
  auto failing = fault(LlmFault::ServerError);
  failing.errorMessage = "upstream model crashed";
  server.setFallback(failing);
  auto c = config();
  c.maxRetries = 2;
  auto resp = client(c)->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Server);
  EXPECT_EQ(resp.error.httpStatus, 500);
  EXPECT_EQ(resp.retries, 2);
  EXPECT_EQ(server.requestCount(), 3u);
  EXPECT_NE(resp.error.message.find("upstream model crashed"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("gave up after 3 attempts"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find(server.baseUrl()), std::string::npos) << resp.error.message;
}

TEST_P(LlmClientTest, RejectedKeyIsNotRetriedAndNeverLeaks) {
  server.push(fault(LlmFault::Unauthorized));
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Auth);
  EXPECT_EQ(resp.error.httpStatus, 401);
  EXPECT_EQ(resp.retries, 0);
  EXPECT_EQ(server.requestCount(), 1u);
  EXPECT_NE(resp.error.message.find(std::string("$") + kKeyEnv), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("KWB_LLM_API_KEY_ENV"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("Incorrect API key provided"), std::string::npos) << resp.error.message;
  expectNoKeyAnywhere(resp);
  ASSERT_FALSE(logLines.empty());
  // The server did receive it (the client sent it; only reports are scrubbed).
  const auto sent = server.requests()[0];
  EXPECT_NE((sent.header("authorization") + sent.header("x-api-key")).find(kSentinelKey), std::string::npos);
}

TEST_P(LlmClientTest, MissingKeyVariableIsExplained) {
  keySet = false;
  server.push(fault(LlmFault::Unauthorized));
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Auth);
  EXPECT_NE(resp.error.message.find(std::string(kKeyEnv) + " is not set"), std::string::npos)
      << resp.error.message;
  const auto sent = server.requests()[0];
  EXPECT_EQ(sent.header("authorization"), "");
  EXPECT_EQ(sent.header("x-api-key"), "");
}

TEST_P(LlmClientTest, StallMidStreamHitsTheIdleTimeoutAndKeepsPartialText) {
  auto stall = fault(LlmFault::Stall);
  stall.cutAfterChars = 16;
  stall.stallMs = 4000;
  server.push(stall);
  auto c = config();
  c.idleTimeoutMs = 300;
  const auto t0 = std::chrono::steady_clock::now();
  auto resp = client(c)->complete(request(), {}, nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2000ms);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Timeout);
  EXPECT_NE(resp.error.message.find("stalled"), std::string::npos) << resp.error.message;
  EXPECT_EQ(resp.text, stall.text.substr(0, 16));
  EXPECT_EQ(resp.retries, 0) << "text was already delivered: no silent retry";
  EXPECT_EQ(server.requestCount(), 1u);
}

TEST_P(LlmClientTest, CutStreamIsTruncatedAndKeepsPartialText) {
  auto cut = fault(LlmFault::Cut);
  cut.cutAfterChars = 12;
  server.push(cut);
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Truncated);
  EXPECT_EQ(resp.text, cut.text.substr(0, 12));
  EXPECT_NE(resp.error.message.find(anthropic() ? "message_stop" : "[DONE]"), std::string::npos)
      << resp.error.message;
  EXPECT_EQ(resp.retries, 0);
}

TEST_P(LlmClientTest, DroppedConnectionMidStreamIsTruncated) {
  auto cut = fault(LlmFault::Cut);
  cut.cutAfterChars = 20;
  cut.abortConnection = true;
  server.push(cut);
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Truncated) << resp.error.message;
  EXPECT_EQ(resp.text, cut.text.substr(0, 20));
}

TEST_P(LlmClientTest, RestartsAfterPartialStreamOnlyWhenAllowedAndObserverIsTold) {
  auto cut = fault(LlmFault::Cut);
  cut.cutAfterChars = 10;
  server.push(cut);
  server.push(ok("complete answer"));
  auto c = config();
  c.restartAfterPartialStream = true;
  std::string shown;
  int restarts = 0;
  StreamObserver obs;
  obs.onText = [&](std::string_view d) { shown += d; };
  obs.onRestart = [&](int attempt, const LlmError& why) {
    ++restarts;
    EXPECT_EQ(attempt, 1);
    EXPECT_EQ(why.kind, LlmErrorKind::Truncated);
    shown.clear();
  };
  auto resp = client(c)->complete(request(), obs, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(restarts, 1);
  EXPECT_EQ(resp.text, "complete answer");
  EXPECT_EQ(shown, "complete answer");
  EXPECT_EQ(resp.retries, 1);
}

TEST_P(LlmClientTest, HtmlFromAGatewayIsRetriedThenReportedWithASnippet) {
  server.setFallback(fault(LlmFault::Html));
  auto c = config();
  c.maxRetries = 1;
  auto resp = client(c)->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Server);
  EXPECT_EQ(resp.error.httpStatus, 502);
  EXPECT_NE(resp.error.message.find("502 Bad Gateway"), std::string::npos) << resp.error.message;
  EXPECT_LT(resp.error.message.size(), 600u);
  EXPECT_EQ(resp.retries, 1);
}

TEST_P(LlmClientTest, HtmlWithStatus200IsABadResponseNotRetried) {
  ScriptedReply page;
  page.fault = LlmFault::Raw;
  page.status = 200;
  page.contentType = "text/html";
  page.body = "<!DOCTYPE html><html><head><title>Sign in</title></head><body>" + std::string(500, 'x') +
              "</body></html>";
  server.push(page);
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::BadResponse);
  EXPECT_NE(resp.error.message.find("text/html"), std::string::npos) << resp.error.message;
  EXPECT_NE(resp.error.message.find("<!DOCTYPE html><html><head><title>Sign in"), std::string::npos);
  EXPECT_EQ(resp.error.message.find(std::string(300, 'x')), std::string::npos) << "the snippet must be short";
  EXPECT_EQ(resp.retries, 0);
}

TEST_P(LlmClientTest, GarbageEventsAreABadResponse) {
  server.push(fault(LlmFault::Garbage));
  auto resp = client()->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::BadResponse);
  EXPECT_NE(resp.error.message.find("unparseable"), std::string::npos) << resp.error.message;
  EXPECT_EQ(resp.retries, 0);
}

TEST_P(LlmClientTest, NonStreamedJsonReplyIsAccepted) {
  auto json = fault(LlmFault::JsonNoStream);
  json.text = "whole reply at once";
  server.push(json);
  int calls = 0;
  StreamObserver obs;
  obs.onText = [&](std::string_view) { ++calls; };
  auto resp = client()->complete(request(), obs, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "whole reply at once");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(resp.usage.promptTokens, 42);
  EXPECT_EQ(resp.usage.completionTokens, 17);
}

TEST_P(LlmClientTest, InStreamErrorBeforeAnyTextIsRetried) {
  auto err = fault(LlmFault::StreamError);
  err.cutAfterChars = 0;
  server.push(err);
  server.push(ok("recovered"));
  auto resp = client()->complete(request(), {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "recovered");
  EXPECT_EQ(resp.retries, 1);
}

TEST_P(LlmClientTest, CancellationMidStreamReturnsWithinASecond) {
  ScriptedReply drip = ok(std::string(600, 'a'), 2);
  drip.chunkDelayMs = 40;  // 12 s for the whole reply
  server.push(drip);
  std::atomic<bool> cancel{false};
  std::chrono::steady_clock::time_point cancelledAt{};
  std::thread canceller;
  StreamObserver obs;
  obs.onText = [&](std::string_view) {
    if (!canceller.joinable())
      canceller = std::thread([&] {
        std::this_thread::sleep_for(200ms);
        cancelledAt = std::chrono::steady_clock::now();
        cancel = true;
      });
  };
  auto resp = client()->complete(request(), obs, &cancel);
  const auto returned = std::chrono::steady_clock::now();
  canceller.join();
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Cancelled);
  EXPECT_LT(returned - cancelledAt, 1000ms);
  EXPECT_FALSE(resp.text.empty());
  EXPECT_LT(resp.text.size(), 600u);
  EXPECT_EQ(resp.retries, 0);
}

TEST_P(LlmClientTest, ReasoningDeltasArriveSeparately) {
  ScriptedReply r = ok("final answer");
  r.reasoning = "First, the tail is 30 elements...";
  server.push(r);
  std::string reasoning;
  StreamObserver obs;
  obs.onReasoning = [&](std::string_view d) { reasoning += d; };
  auto resp = client()->complete(request(), obs, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(reasoning, r.reasoning);
  EXPECT_EQ(resp.reasoning, r.reasoning);
  EXPECT_EQ(resp.text, "final answer");
}

TEST_P(LlmClientTest, CrlfLinesAndMultiLineDataParse) {
  ScriptedReply r = ok("line endings do not matter", 3);
  r.crlf = true;
  r.multiLineData = true;
  server.push(r);
  auto resp = client()->complete(request(), {}, nullptr);
  ASSERT_TRUE(resp.ok()) << resp.error.message;
  EXPECT_EQ(resp.text, "line endings do not matter");
}

TEST_P(LlmClientTest, UnreachableServerIsANetworkErrorAfterRetries) {
  int deadPort = 0;
  {
    LlmTestServer gone;
    deadPort = gone.port();
  }
  auto c = config();
  c.baseUrl = "http://127.0.0.1:" + std::to_string(deadPort);
  c.maxRetries = 2;
  auto resp = client(c)->complete(request(), {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Network);
  EXPECT_NE(resp.error.message.find("could not connect"), std::string::npos) << resp.error.message;
  EXPECT_EQ(resp.retries, 2);
  EXPECT_EQ(fake.sleeps.size(), 2u);
}

TEST_P(LlmClientTest, RecordedTranscriptHoldsTheConversationButNoKey) {
  server.push(ok("candidate one"));
  server.push(fault(LlmFault::Unauthorized));
  auto rec = std::make_shared<RecordingClient>(std::shared_ptr<LlmClient>(client()));
  auto first = rec->complete(request(), {}, nullptr);
  ASSERT_TRUE(first.ok());
  LlmRequest second = request();
  second.messages.push_back({LlmRole::Assistant, first.text});
  second.messages.push_back({LlmRole::User, "compile-error: kernel.cpp:3 'Foo' was not declared"});
  auto resp = rec->complete(second, {}, nullptr);
  EXPECT_EQ(resp.error.kind, LlmErrorKind::Auth);
  ASSERT_EQ(server.requestCount(), 2u);
  EXPECT_NE(server.requests()[1].allText().find("'Foo' was not declared"), std::string::npos);
  EXPECT_NE(server.requests()[1].allText().find("candidate one"), std::string::npos);

  const auto transcript = rec->transcript();
  ASSERT_EQ(transcript.exchanges.size(), 2u);
  EXPECT_EQ(transcript.exchanges[0].response.text, "candidate one");
  EXPECT_EQ(transcript.exchanges[1].response.error.kind, LlmErrorKind::Auth);
  const std::string dumped = transcript.toJson().dump();
  EXPECT_EQ(dumped.find("SENTINEL"), std::string::npos);
  EXPECT_EQ(dumped.find("Bearer"), std::string::npos);
  EXPECT_NE(dumped.find(kKeyEnv), std::string::npos) << "the variable name is fine to keep";
  const auto back = LlmTranscript::fromJson(nlohmann::json::parse(dumped));
  EXPECT_EQ(back.exchanges[1].request.messages.size(), 3u);
  EXPECT_EQ(back.exchanges[0].requestDigest, llmRequestDigest(request()));
}

INSTANTIATE_TEST_SUITE_P(LlmWire, LlmClientTest, ::testing::Values("openai", "anthropic"),
                         [](const auto& info) { return info.param; });
