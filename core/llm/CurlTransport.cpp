// SPDX-License-Identifier: MIT
#include "core/llm/CurlTransport.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include <curl/curl.h>

namespace kwb {

namespace {

void globalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  const HttpBodySink* sink = nullptr;
  HttpOutcome outcome;
  std::chrono::steady_clock::time_point lastByte;
  bool sinkAborted = false;
  CURL* easy = nullptr;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trimmed(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  return std::string(v);
}

size_t onHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  t->lastByte = std::chrono::steady_clock::now();
  if (line.rfind("HTTP/", 0) == 0) {  // a new response (after 100-continue or a redirect): start over
    t->outcome.headers.clear();
    const auto sp = line.find(' ');
    if (sp != std::string_view::npos)
      t->outcome.status = std::strtol(std::string(line.substr(sp + 1, 3)).c_str(), nullptr, 10);
    return size * n;
  }
  if (auto colon = line.find(':'); colon != std::string_view::npos)
    t->outcome.headers[lower(std::string(line.substr(0, colon)))] = trimmed(line.substr(colon + 1));
  return size * n;
}

size_t onBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  t->lastByte = std::chrono::steady_clock::now();
  t->outcome.bytesReceived += size * n;
  long code = 0;
  curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &code);
  if (code != 0) t->outcome.status = code;
  if (*t->sink && !(*t->sink)(t->outcome, std::string_view(data, size * n))) {
    t->sinkAborted = true;
    return 0;  // makes curl stop with CURLE_WRITE_ERROR
  }
  return size * n;
}

HttpFailure classify(CURLcode rc) {
  switch (rc) {
    case CURLE_OK:
      return HttpFailure::None;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
      return HttpFailure::Connect;
    case CURLE_OPERATION_TIMEDOUT:
      return HttpFailure::Timeout;
    default:
      return HttpFailure::Network;
  }
}

}  // namespace

HttpOutcome curlStreamingPost(const HttpPostSpec& spec, const HttpBodySink& sink,
                              const std::atomic<bool>* cancel) {
  globalInitOnce();
  Transfer t;
  t.sink = &sink;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> easy(curl_easy_init(), &curl_easy_cleanup);
  std::unique_ptr<CURLM, decltype(&curl_multi_cleanup)> multi(curl_multi_init(), &curl_multi_cleanup);
  if (!easy || !multi) {
    t.outcome.failure = HttpFailure::Network;
    t.outcome.curlMessage = "libcurl could not create a transfer handle";
    return t.outcome;
  }
  t.easy = easy.get();
  char errbuf[CURL_ERROR_SIZE] = {};

  curl_slist* headers = nullptr;
  for (const auto& [name, value] : spec.headers)
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for large prompts
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerGuard(headers, &curl_slist_free_all);

  CURL* e = easy.get();
  curl_easy_setopt(e, CURLOPT_URL, spec.url.c_str());
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, spec.body.data());
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(spec.body.size()));
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &onHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &onBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(spec.connectTimeout.count()));
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(spec.totalTimeout.count()));
  curl_easy_setopt(e, CURLOPT_USERAGENT, "kernel-workbench/" KWB_VERSION);

  curl_multi_add_handle(multi.get(), e);
  t.lastByte = std::chrono::steady_clock::now();
  int running = 1;
  CURLcode result = CURLE_OK;
  bool stoppedByUs = false;
  while (running) {
    CURLMcode mc = curl_multi_perform(multi.get(), &running);
    if (mc != CURLM_OK) {
      t.outcome.failure = HttpFailure::Network;
      t.outcome.curlMessage = curl_multi_strerror(mc);
      stoppedByUs = true;
      break;
    }
    if (!running) break;
    if (cancel && cancel->load()) {
      t.outcome.failure = HttpFailure::Cancelled;
      t.outcome.curlMessage = "cancelled by the caller";
      stoppedByUs = true;
      break;
    }
    if (std::chrono::steady_clock::now() - t.lastByte > spec.idleTimeout) {
      t.outcome.failure = HttpFailure::Idle;
      t.outcome.curlMessage = "no data received for " + std::to_string(spec.idleTimeout.count()) + " ms";
      stoppedByUs = true;
      break;
    }
    curl_multi_poll(multi.get(), nullptr, 0, 50, nullptr);
  }
  if (!stoppedByUs) {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi.get(), &left))
      if (msg->msg == CURLMSG_DONE && msg->easy_handle == e) result = msg->data.result;
    long code = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
    if (code != 0) t.outcome.status = code;
    if (t.sinkAborted) {
      t.outcome.failure = HttpFailure::Aborted;
      t.outcome.curlMessage = "stopped by the response handler";
    } else if (result != CURLE_OK) {
      t.outcome.failure = classify(result);
      t.outcome.curlMessage = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(result));
    }
  }
  curl_multi_remove_handle(multi.get(), e);
  return t.outcome;
}

}  // namespace kwb
