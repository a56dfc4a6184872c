// SPDX-License-Identifier: MIT
// kwb-llm-test-server SCRIPT.json — serves scripted LLM replies (both wire formats) on 127.0.0.1.
// Prints the port on the first line of stdout, then serves until SIGINT/SIGTERM or POST /__kwb/shutdown.
// Recorded requests: GET /__kwb/requests. More replies: POST /__kwb/script. Script format: see
// tests/support/LlmTestServer.h (replyFromJson keys: text, reasoning, chunk_chars, chunk_delay_ms,
// prompt_tokens, completion_tokens, finish_reason, model, fault, retry_after, status, content_type, body,
// error_message, cut_after_chars, stall_ms, abort_connection, crlf, multi_line_data).

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "tests/support/LlmTestServer.h"

namespace {
volatile std::sig_atomic_t gSignalled = 0;
void onSignal(int) {
  gSignalled = 1;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr,
                 "usage: kwb-llm-test-server SCRIPT.json\n"
                 "  serves the scripted replies on 127.0.0.1 (ephemeral port, printed on stdout)\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "kwb-llm-test-server: %s: cannot open\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::optional<kwb::testsupport::ScriptedReply> fallback;
  std::vector<kwb::testsupport::ScriptedReply> script;
  try {
    script = kwb::testsupport::scriptFromJson(nlohmann::json::parse(ss.str()), &fallback);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kwb-llm-test-server: %s: %s\n", argv[1], e.what());
    return 2;
  }
  kwb::testsupport::LlmTestServer server(std::move(script));
  server.setFallback(fallback);
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  std::cout << server.port() << std::endl;
  std::thread watcher([&] {
    while (!gSignalled) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    server.stop();
  });
  server.waitForShutdownRequest();
  gSignalled = 1;
  watcher.join();
  server.stop();
  return 0;
}
