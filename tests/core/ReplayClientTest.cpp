// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/llm/LlmTranscript.h"
#include "core/llm/ReplayClient.h"

using namespace kwb;
using namespace std::chrono_literals;

namespace {

LlmRequest ask(const std::string& text) {
  LlmRequest r;
  r.messages.push_back({LlmRole::User, text});
  return r;
}

std::filesystem::path tempFile(const std::string& name, const std::string& content) {
  auto dir = std::filesystem::temp_directory_path() / ("kwb-replay-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::ofstream(p) << content;
  return p;
}

}  // namespace

TEST(Replay, StreamsRecordedTextInChunksLabelledAsReplay) {
  ReplayEntry e;
  e.text = std::string(100, 'k');
  e.usage = {5, 6, true};
  e.model = "deepseek-chat";
  ReplayOptions opt;
  opt.chunkChars = 10;
  ReplayClient client({e}, opt);
  int calls = 0;
  std::string seen;
  StreamObserver obs;
  obs.onText = [&](std::string_view d) {
    ++calls;
    seen += d;
  };
  auto r = client.complete(ask("x"), obs);
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(calls, 10);
  EXPECT_EQ(seen, e.text);
  EXPECT_EQ(r.provider, "replay");
  EXPECT_EQ(r.model, "replay:deepseek-chat");
  EXPECT_EQ(r.usage.completionTokens, 6);
  EXPECT_EQ(client.remaining(), 0u);
  EXPECT_NE(client.describe().find("replay"), std::string::npos);
}

TEST(Replay, MatchesByDigestThenPlaysInOrderThenReportsExhaustion) {
  ReplayEntry first, second, matched;
  first.text = "first";
  second.text = "second";
  matched.text = "for the repair prompt";
  matched.requestDigest = llmRequestDigest(ask("repair"));
  ReplayClient client({first, matched, second});
  EXPECT_EQ(client.complete(ask("repair")).text, "for the repair prompt");
  EXPECT_EQ(client.complete(ask("anything")).text, "first");
  EXPECT_EQ(client.complete(ask("anything else")).text, "second");
  auto r = client.complete(ask("one more"));
  EXPECT_EQ(r.error.kind, LlmErrorKind::Config);
  EXPECT_NE(r.error.message.find("no more recorded responses"), std::string::npos) << r.error.message;
  EXPECT_EQ(r.provider, "replay");
}

TEST(Replay, DelayAndChunkPausesUseTheInjectedClockAndCancelStops) {
  std::vector<std::chrono::milliseconds> sleeps;
  RetryClock clock;
  std::atomic<bool> cancel{false};
  clock.sleep = [&](std::chrono::milliseconds d, const std::atomic<bool>*) { sleeps.push_back(d); };
  ReplayEntry e;
  e.text = "abcdefghij";
  e.delay = 250ms;
  ReplayOptions opt;
  opt.chunkChars = 2;
  opt.chunkDelay = 30ms;
  ReplayClient client({e, e}, opt, clock);
  ASSERT_TRUE(client.complete(ask("a")).ok());
  ASSERT_EQ(sleeps.size(), 5u);
  EXPECT_EQ(sleeps[0], 250ms);
  EXPECT_EQ(sleeps[1], 30ms);

  StreamObserver obs;
  obs.onText = [&](std::string_view) { cancel = true; };
  auto r = client.complete(ask("b"), obs, &cancel);
  EXPECT_EQ(r.error.kind, LlmErrorKind::Cancelled);
  EXPECT_EQ(r.text, "ab");
}

TEST(Replay, LoadsResponseListsAndTranscriptsAndNamesBadEntries) {
  auto list = tempFile("list.json", R"({"responses": [
      {"text": "one", "usage": {"prompt_tokens": 3, "completion_tokens": 4}, "delay_ms": 0},
      {"text": "two", "finish_reason": "length"}]})");
  auto entries = loadReplayEntries(list);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].usage.promptTokens, 3);
  EXPECT_EQ(entries[1].finishReason, "length");

  LlmTranscript t;
  LlmExchange ex;
  ex.request = ask("hello");
  ex.requestDigest = llmRequestDigest(ex.request);
  ex.response.text = "recorded answer";
  ex.response.provider = "anthropic";
  t.exchanges.push_back(ex);
  auto tpath = list.parent_path() / "transcript.json";
  t.save(tpath);
  auto client = ReplayClient::fromFile(tpath);
  auto r = client->complete(ask("hello"));
  EXPECT_EQ(r.text, "recorded answer");
  EXPECT_EQ(r.provider, "replay") << "a replay never claims to be the provider it recorded";

  auto bad = tempFile("bad.json", R"({"responses": [{"text": "ok"}, {"text": 5}]})");
  try {
    loadReplayEntries(bad);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("responses[1]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(loadReplayEntries(list.parent_path() / "missing.json"), std::runtime_error);
  std::filesystem::remove_all(list.parent_path());
}
