// SPDX-License-Identifier: MIT
#include "core/llm/LlmTranscript.h"

#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace kwb {

namespace {

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string str(const nlohmann::json& j, const char* key, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw std::invalid_argument(where + "." + key + " must be a string");
  return it->get<std::string>();
}

}  // namespace

nlohmann::json toJson(const LlmExchange& e) {
  return {
      {"request_digest", e.requestDigest}, {"provider", e.provider},       {"endpoint", e.endpoint},
      {"started_at", e.startedAt},         {"request", toJson(e.request)}, {"response", toJson(e.response)}};
}

LlmExchange llmExchangeFromJson(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("exchange must be a JSON object");
  LlmExchange e;
  e.requestDigest = str(j, "request_digest", "exchange");
  e.provider = str(j, "provider", "exchange");
  e.endpoint = str(j, "endpoint", "exchange");
  e.startedAt = str(j, "started_at", "exchange");
  if (auto it = j.find("request"); it != j.end()) e.request = llmRequestFromJson(*it);
  auto resp = j.find("response");
  if (resp == j.end()) throw std::invalid_argument("exchange has no \"response\"");
  e.response = llmResponseFromJson(*resp);
  return e;
}

nlohmann::json LlmTranscript::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : exchanges) list.push_back(kwb::toJson(e));
  return {{"format", kLlmTranscriptFormat}, {"version", 1}, {"exchanges", std::move(list)}};
}

LlmTranscript LlmTranscript::fromJson(const nlohmann::json& j) {
  if (!j.is_object() || j.value("format", "") != kLlmTranscriptFormat)
    throw std::invalid_argument(std::string("not an LLM transcript (expected \"format\": \"") +
                                kLlmTranscriptFormat + "\")");
  if (j.value("version", 0) != 1)
    throw std::invalid_argument("unsupported transcript version " +
                                j.value("version", nlohmann::json()).dump());
  LlmTranscript t;
  auto list = j.find("exchanges");
  if (list == j.end() || !list->is_array())
    throw std::invalid_argument("transcript has no \"exchanges\" array");
  for (std::size_t i = 0; i < list->size(); ++i) {
    try {
      t.exchanges.push_back(llmExchangeFromJson((*list)[i]));
    } catch (const std::invalid_argument& ex) {
      throw std::invalid_argument("exchanges[" + std::to_string(i) + "]: " + ex.what());
    }
  }
  return t;
}

void LlmTranscript::save(const std::filesystem::path& path) const {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp.string() + ": cannot open for writing");
    out << toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    if (!out.flush()) throw std::runtime_error(tmp.string() + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path.string() + ": cannot replace: " + ec.message());
}

LlmTranscript LlmTranscript::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(path.string() + ": not valid JSON");
  try {
    return fromJson(j);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

RecordingClient::RecordingClient(std::shared_ptr<LlmClient> inner) : inner_(std::move(inner)) {
  if (!inner_) throw std::invalid_argument("RecordingClient needs a client to wrap");
}

LlmResponse RecordingClient::complete(const LlmRequest& request, const StreamObserver& observer,
                                      const std::atomic<bool>* cancel) {
  LlmExchange e;
  e.startedAt = utcNow();
  e.requestDigest = llmRequestDigest(request);
  e.provider = inner_->provider();
  e.endpoint = inner_->describe();
  e.request = request;
  LlmResponse r = inner_->complete(request, observer, cancel);
  e.response = r;
  std::lock_guard lock(mutex_);
  transcript_.exchanges.push_back(std::move(e));
  return r;
}

LlmTranscript RecordingClient::transcript() const {
  std::lock_guard lock(mutex_);
  return transcript_;
}

}  // namespace kwb
