// SPDX-License-Identifier: MIT
#include "core/llm/ReplayClient.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/llm/LlmTranscript.h"

namespace kwb {

namespace {

ReplayEntry entryFromJson(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw std::invalid_argument(where + " must be a JSON object");
  ReplayEntry e;
  try {
    if (auto it = j.find("request_digest"); it != j.end() && !it->is_null())
      e.requestDigest = it->get<std::string>();
    e.text = j.value("text", "");
    e.reasoning = j.value("reasoning", "");
    e.finishReason = j.value("finish_reason", "stop");
    e.model = j.value("model", "");
    e.delay = std::chrono::milliseconds(j.value("delay_ms", 0));
    if (auto it = j.find("usage"); it != j.end() && !it->is_null()) e.usage = tokenUsageFromJson(*it);
  } catch (const nlohmann::json::exception& ex) {
    throw std::invalid_argument(where + ": " + ex.what());
  } catch (const std::invalid_argument& ex) {
    throw std::invalid_argument(where + ": " + ex.what());
  }
  return e;
}

}  // namespace

std::vector<ReplayEntry> replayEntriesFromJson(const nlohmann::json& j) {
  std::vector<ReplayEntry> out;
  if (j.is_object() && j.contains("format")) {
    for (const auto& ex : LlmTranscript::fromJson(j).exchanges) {
      ReplayEntry e;
      e.requestDigest =
          ex.requestDigest.empty() ? std::nullopt : std::optional<std::string>(ex.requestDigest);
      e.text = ex.response.text;
      e.reasoning = ex.response.reasoning;
      e.usage = ex.response.usage;
      e.finishReason = ex.response.finishReason;
      e.model = ex.response.model;
      e.error = ex.response.error;
      out.push_back(std::move(e));
    }
    return out;
  }
  const nlohmann::json* list = &j;
  if (j.is_object()) {
    auto it = j.find("responses");
    if (it == j.end())
      throw std::invalid_argument("expected a transcript, {\"responses\": [...]} or an array of responses");
    list = &*it;
  }
  if (!list->is_array()) throw std::invalid_argument("\"responses\" must be an array");
  for (std::size_t i = 0; i < list->size(); ++i)
    out.push_back(entryFromJson((*list)[i], "responses[" + std::to_string(i) + "]"));
  return out;
}

std::vector<ReplayEntry> loadReplayEntries(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open replay file");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(path.string() + ": not valid JSON");
  try {
    auto entries = replayEntriesFromJson(j);
    if (entries.empty()) throw std::invalid_argument("holds no responses");
    return entries;
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

ReplayClient::ReplayClient(std::vector<ReplayEntry> entries, ReplayOptions options, RetryClock clock)
    : entries_(std::move(entries)),
      used_(entries_.size(), false),
      options_(std::move(options)),
      clock_(clock.withDefaults()) {
  if (options_.chunkChars == 0) options_.chunkChars = 1;
}

std::unique_ptr<ReplayClient> ReplayClient::fromFile(const std::filesystem::path& path, ReplayOptions options,
                                                     RetryClock clock) {
  options.source = path.string();
  return std::make_unique<ReplayClient>(loadReplayEntries(path), std::move(options), std::move(clock));
}

std::string ReplayClient::describe() const {
  return "replay of " + std::to_string(entries_.size()) + " recorded responses from " + options_.source;
}

std::size_t ReplayClient::remaining() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (bool u : used_) n += u ? 0 : 1;
  return n;
}

std::optional<ReplayEntry> ReplayClient::take(const std::string& digest, std::size_t& index) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (!used_[i] && entries_[i].requestDigest == digest) {
      used_[i] = true;
      index = i;
      return entries_[i];
    }
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (!used_[i]) {
      used_[i] = true;
      index = i;
      return entries_[i];
    }
  return std::nullopt;
}

LlmResponse ReplayClient::complete(const LlmRequest& request, const StreamObserver& observer,
                                   const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  LlmResponse r;
  r.provider = "replay";
  std::size_t index = 0;
  auto entry = take(llmRequestDigest(request), index);
  auto finish = [&] {
    r.latency =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return r;
  };
  if (!entry) {
    r.model = "replay";
    r.error = {LlmErrorKind::Config,
               "the replay (" + options_.source + ") has no more recorded responses: all " +
                   std::to_string(entries_.size()) +
                   " were played; record a longer session or use a live provider",
               0};
    return finish();
  }
  r.model = "replay:" + (entry->model.empty() ? std::string("recorded") : entry->model);
  r.requestId = "replay-" + std::to_string(index + 1);
  if (entry->delay.count() > 0) clock_.sleep(entry->delay, cancel);

  auto stream = [&](const std::string& text, std::string& target,
                    const std::function<void(std::string_view)>& cb) {
    for (std::size_t pos = 0; pos < text.size();) {
      if (cancel && cancel->load()) return false;
      std::size_t n = std::min(options_.chunkChars, text.size() - pos);
      while (pos + n < text.size() && (static_cast<unsigned char>(text[pos + n]) & 0xC0) == 0x80)
        ++n;  // whole UTF-8
      const std::string_view piece(text.data() + pos, n);
      target.append(piece);
      if (r.firstTokenLatency.count() == 0)
        r.firstTokenLatency = std::max(
            std::chrono::milliseconds(1),
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start));
      if (cb) cb(piece);
      pos += n;
      if (options_.chunkDelay.count() > 0 && pos < text.size()) clock_.sleep(options_.chunkDelay, cancel);
    }
    return true;
  };
  if (!stream(entry->reasoning, r.reasoning, observer.onReasoning) ||
      !stream(entry->text, r.text, observer.onText)) {
    r.error = {LlmErrorKind::Cancelled,
               "replay cancelled after " + std::to_string(r.text.size()) + " characters", 0};
    return finish();
  }
  r.usage = entry->usage;
  r.finishReason = entry->finishReason;
  r.error = entry->error;
  return finish();
}

}  // namespace kwb
