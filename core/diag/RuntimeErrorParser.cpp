// SPDX-License-Identifier: MIT
#include "core/diag/RuntimeErrorParser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>

#include "core/diag/TextLines.h"

namespace kwb {
namespace {

using namespace textlines;

constexpr std::string_view kCrash = category::RuntimeCrash;
constexpr std::string_view kTimeout = category::Timeout;
constexpr std::string_view kParam = category::InvalidParam;

// Names and one-line meanings from CANN's acl_base.h and rt_error_codes.h (comments there), as listed in
// docs/ascend-notes.md §5 and the official header it cites.
constexpr AclErrorInfo kCodes[] = {
    {0, "ACL_ERROR_NONE", "success", ""},
    {100000, "ACL_ERROR_INVALID_PARAM", "invalid parameter", kParam},
    {100001, "ACL_ERROR_UNINITIALIZE", "ACL is not initialized (aclInit missing)", kCrash},
    {107000, "ACL_ERROR_RT_PARAM_INVALID", "param invalid", kParam},
    {107001, "ACL_ERROR_RT_INVALID_DEVICEID", "invalid device id", kParam},
    {107002, "ACL_ERROR_RT_CONTEXT_NULL", "current context null", kCrash},
    {107003, "ACL_ERROR_RT_STREAM_CONTEXT", "stream not in current context", kCrash},
    {107004, "ACL_ERROR_RT_MODEL_CONTEXT", "model not in current context", kCrash},
    {107005, "ACL_ERROR_RT_STREAM_MODEL", "stream not in model", kCrash},
    {107006, "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID", "event timestamp invalid", kCrash},
    {107007, "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL", "event timestamp reversal", kCrash},
    {107008, "ACL_ERROR_RT_ADDR_UNALIGNED", "memory address unaligned", kParam},
    {107009, "ACL_ERROR_RT_FILE_OPEN", "open file failed", kCrash},
    {107010, "ACL_ERROR_RT_FILE_WRITE", "write file failed", kCrash},
    {107011, "ACL_ERROR_RT_STREAM_SUBSCRIBE", "error subscribe stream", kCrash},
    {107012, "ACL_ERROR_RT_THREAD_SUBSCRIBE", "error subscribe thread", kCrash},
    {107013, "ACL_ERROR_RT_GROUP_NOT_SET", "group not set", kCrash},
    {107014, "ACL_ERROR_RT_GROUP_NOT_CREATE", "group not create", kCrash},
    {107015, "ACL_ERROR_RT_STREAM_NO_CB_REG", "callback not register to stream", kCrash},
    {107016, "ACL_ERROR_RT_INVALID_MEMORY_TYPE", "invalid memory type", kParam},
    {107017, "ACL_ERROR_RT_INVALID_HANDLE", "invalid handle", kParam},
    {107018, "ACL_ERROR_RT_INVALID_MALLOC_TYPE", "invalid malloc type", kParam},
    {107019, "ACL_ERROR_RT_WAIT_TIMEOUT", "wait timeout", kTimeout},
    {107020, "ACL_ERROR_RT_TASK_TIMEOUT", "task timeout", kTimeout},
    {207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", "feature not support", kCrash},
    {207001, "ACL_ERROR_RT_MEMORY_ALLOCATION", "memory allocation error", kCrash},
    {207002, "ACL_ERROR_RT_MEMORY_FREE", "memory free error", kCrash},
    {207003, "ACL_ERROR_RT_AICORE_OVER_FLOW", "aicore over flow", kCrash},
    {207004, "ACL_ERROR_RT_NO_DEVICE", "no device", kCrash},
    {207005, "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL", "resource alloc fail", kCrash},
    {207006, "ACL_ERROR_RT_NO_PERMISSION", "no permission", kCrash},
    {207007, "ACL_ERROR_RT_NO_EVENT_RESOURCE", "no event resource", kCrash},
    {207008, "ACL_ERROR_RT_NO_STREAM_RESOURCE", "no stream resource", kCrash},
    {207009, "ACL_ERROR_RT_NO_NOTIFY_RESOURCE", "no notify resource", kCrash},
    {207010, "ACL_ERROR_RT_NO_MODEL_RESOURCE", "no model resource", kCrash},
    {207011, "ACL_ERROR_RT_NO_CDQ_RESOURCE", "no cdq resource", kCrash},
    {207012, "ACL_ERROR_RT_OVER_LIMIT", "over limit", kCrash},
    {207013, "ACL_ERROR_RT_QUEUE_EMPTY", "queue is empty", kCrash},
    {207014, "ACL_ERROR_RT_QUEUE_FULL", "queue is full", kCrash},
    {207015, "ACL_ERROR_RT_REPEATED_INIT", "repeated init", kCrash},
    {207016, "ACL_ERROR_RT_AIVEC_OVER_FLOW", "aivec over flow", kCrash},
    {207017, "ACL_ERROR_RT_OVER_FLOW", "common over flow", kCrash},
    {207018, "ACL_ERROR_RT_DEVIDE_OOM", "device out of memory", kCrash},
    {207019, "ACL_ERROR_RT_SEND_MSG", "hdc send msg fail", kCrash},
    {207020, "ACL_ERROR_RT_COPY_USER_FAIL", "copy data fail", kCrash},
    {500000, "ACL_ERROR_INTERNAL_ERROR", "ACL internal error", kCrash},
    {507000, "ACL_ERROR_RT_INTERNAL_ERROR", "runtime internal error", kCrash},
    {507001, "ACL_ERROR_RT_TS_ERROR", "ts internal error", kCrash},
    {507002, "ACL_ERROR_RT_STREAM_TASK_FULL", "task full in stream", kCrash},
    {507003, "ACL_ERROR_RT_STREAM_TASK_EMPTY", "task empty in stream", kCrash},
    {507004, "ACL_ERROR_RT_STREAM_NOT_COMPLETE", "stream not complete", kCrash},
    {507005, "ACL_ERROR_RT_END_OF_SEQUENCE", "end of sequence", kCrash},
    {507006, "ACL_ERROR_RT_EVENT_NOT_COMPLETE", "event not complete", kCrash},
    {507007, "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR", "context release error", kCrash},
    {507008, "ACL_ERROR_RT_SOC_VERSION", "soc version error", kCrash},
    {507009, "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT", "task type not support", kCrash},
    {507010, "ACL_ERROR_RT_LOST_HEARTBEAT", "ts lost heartbeat", kCrash},
    {507011, "ACL_ERROR_RT_MODEL_EXECUTE", "model execute failed", kCrash},
    {507012, "ACL_ERROR_RT_REPORT_TIMEOUT", "report timeout", kTimeout},
    {507013, "ACL_ERROR_RT_SYS_DMA", "sys dma error", kCrash},
    {507014, "ACL_ERROR_RT_AICORE_TIMEOUT", "aicore timeout", kTimeout},
    {507015, "ACL_ERROR_RT_AICORE_EXCEPTION", "aicore exception", kCrash},
    {507016, "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION", "aicore trap exception", kCrash},
    {507017, "ACL_ERROR_RT_AICPU_TIMEOUT", "aicpu timeout", kTimeout},
    {507018, "ACL_ERROR_RT_AICPU_EXCEPTION", "aicpu exception", kCrash},
    {507019, "ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR", "aicpu datadump response error", kCrash},
    {507020, "ACL_ERROR_RT_AICPU_MODEL_RSP_ERR", "aicpu model operate response error", kCrash},
    {507021, "ACL_ERROR_RT_PROFILING_ERROR", "profiling error", kCrash},
    {507022, "ACL_ERROR_RT_IPC_ERROR", "ipc error", kCrash},
    {507023, "ACL_ERROR_RT_MODEL_ABORT_NORMAL", "model abort normal", kCrash},
    {507024, "ACL_ERROR_RT_KERNEL_UNREGISTERING", "kernel unregistering", kCrash},
    {507025, "ACL_ERROR_RT_RINGBUFFER_NOT_INIT", "ringbuffer not init", kCrash},
    {507026, "ACL_ERROR_RT_RINGBUFFER_NO_DATA", "ringbuffer no data", kCrash},
    {507027, "ACL_ERROR_RT_KERNEL_LOOKUP", "kernel lookup error", kCrash},
    {507028, "ACL_ERROR_RT_KERNEL_DUPLICATE", "kernel register duplicate", kCrash},
    {507029, "ACL_ERROR_RT_DEBUG_REGISTER_FAIL", "debug register failed", kCrash},
    {507030, "ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL", "debug unregister failed", kCrash},
    {507031, "ACL_ERROR_RT_LABEL_CONTEXT", "label not in current context", kCrash},
    {507032, "ACL_ERROR_RT_PROGRAM_USE_OUT", "program register num use out", kCrash},
    {507033, "ACL_ERROR_RT_DEV_SETUP_ERROR", "device setup error", kCrash},
    {507034, "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT", "vector core timeout", kTimeout},
    {507035, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION", "vector core exception", kCrash},
    {507036, "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION", "vector core trap exception", kCrash},
    {507037, "ACL_ERROR_RT_CDQ_BATCH_ABNORMAL", "cdq alloc batch abnormal", kCrash},
    {507038, "ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR", "can not change die mode", kCrash},
    {507039, "ACL_ERROR_RT_DIE_SET_ERROR", "single die mode can not set die", kCrash},
    {507040, "ACL_ERROR_RT_INVALID_DIEID", "invalid die id", kParam},
    {507041, "ACL_ERROR_RT_DIE_MODE_NOT_SET", "die mode not set", kCrash},
    {507042, "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW", "aic trap read overflow (out-of-bounds read)", kCrash},
    {507043, "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW", "aic trap write overflow (out-of-bounds write)",
     kCrash},
    {507044, "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW", "aiv trap read overflow (out-of-bounds read)",
     kCrash},
    {507045, "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW", "aiv trap write overflow (out-of-bounds write)",
     kCrash},
    {507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", "stream sync time out", kTimeout},
    {507047, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT", "event sync time out", kTimeout},
    {507048, "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT", "ffts+ timeout", kTimeout},
    {507049, "ACL_ERROR_RT_FFTS_PLUS_EXCEPTION", "ffts+ exception", kCrash},
    {507050, "ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION", "ffts+ trap exception", kCrash},
    {507053, "ACL_ERROR_RT_DEVICE_MEM_ERROR", "device memory error", kCrash},
    {507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR", "drv internal error", kCrash},
    {507900, "ACL_ERROR_RT_AICPU_INTERNAL_ERROR", "aicpu internal error", kCrash},
    {507901, "ACL_ERROR_RT_SOCKET_CLOSE", "hdc disconnect", kCrash},
};
static_assert(std::is_sorted(std::begin(kCodes), std::end(kCodes),
                             [](const AclErrorInfo& a, const AclErrorInfo& b) { return a.code < b.code; }),
              "lookupAclError needs kCodes sorted by code");

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Removes CANN's "[FUNC:x][FILE:y][LINE:z]" trailers.
std::string stripTrailers(std::string_view line) {
  std::string out;
  std::size_t pos = 0;
  while (pos < line.size()) {
    const auto open = line.find("[FUNC:", pos);
    if (open == std::string_view::npos) break;
    out += line.substr(pos, open - pos);
    std::size_t end = open;
    while (end < line.size() && line[end] == '[') {
      const auto close = line.find(']', end);
      if (close == std::string_view::npos) break;
      const auto tag = line.substr(end + 1, 5);
      if (tag != "FUNC:" && tag != "FILE:" && tag != "LINE:") break;
      end = close + 1;
    }
    if (end == open) {  // "[FUNC:" without its closing bracket (a cut-off line): keep it as text
      out += line.substr(open);
      return std::string(trim(out));
    }
    pos = end;
  }
  out += line.substr(pos);
  return std::string(trim(out));
}

// A run of digits starting at pos, as an error code (aclError codes have 6 digits, 0 means success).
std::optional<int> codeAt(std::string_view s, std::size_t pos) {
  std::size_t end = pos;
  while (end < s.size() && isDigit(s[end])) ++end;
  if (end == pos || end - pos > 9) return std::nullopt;
  if (end < s.size() && identChar(s[end])) return std::nullopt;
  return static_cast<int>(*toInt(s.substr(pos, end - pos)));
}

// The identifier right before `pos`, skipping one "(...)" argument list: "aclrtMalloc(&p, n) failed".
std::string identBefore(std::string_view s, std::size_t pos) {
  std::size_t end = pos;
  while (end > 0 && isSpace(s[end - 1])) --end;
  if (end > 0 && s[end - 1] == ')') {
    int depth = 0;
    while (end > 0) {
      const char c = s[--end];
      if (c == ')') ++depth;
      if (c == '(' && --depth == 0) break;
    }
  }
  std::size_t begin = end;
  while (begin > 0 && identChar(s[begin - 1])) --begin;
  return std::string(s.substr(begin, end - begin));
}

struct CallFailure {
  int code = 0;
  std::string api;
  std::string file;
  int line = 0;
};

// "E[A-Z0-9]NNNN" at the start of the line, followed by ':' or '[' ("EZ9999: Inner Error!", "EZ9999[PID:
// ..").
std::optional<std::string> errorCodeAtStart(std::string_view s) {
  if (s.size() < 7 || s[0] != 'E') return std::nullopt;
  if (!(std::isupper(static_cast<unsigned char>(s[1])) || isDigit(s[1]))) return std::nullopt;
  for (std::size_t k = 2; k < 6; ++k)
    if (!isDigit(s[k])) return std::nullopt;
  if (s[6] != ':' && s[6] != '[') return std::nullopt;
  return std::string(s.substr(0, 6));
}

struct DeviceReport {
  std::vector<std::string> codes;  // "EZ9999"
  std::vector<std::string> notes;
  std::string errorStr;       // "VEC instruction error: the ub address out of bounds"
  std::string exceptionKind;  // "aivec"
  std::string retText;        // "vector core exception"
  std::string firstText;      // first meaningful sentence, for reports without errorStr
  bool any = false;

  void note(std::string n) {
    if (!n.empty() && std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(std::move(n));
  }
};

class Parser {
 public:
  std::vector<Diagnostic> run(std::string_view text) {
    for (std::string_view raw : splitLines(text)) handle(raw);
    return build();
  }

 private:
  std::vector<CallFailure> failures_;
  DeviceReport device_;
  bool inDeviceBlock_ = false;

  void addFailure(CallFailure f) {
    if (f.code == 0) return;
    for (const auto& g : failures_)
      if (g.code == f.code && g.api == f.api && g.file == f.file && g.line == f.line) return;
    failures_.push_back(std::move(f));
  }

  void handle(std::string_view raw) {
    const std::string_view line = trim(raw);
    if (line.empty()) {
      inDeviceBlock_ = false;
      return;
    }
    const bool indented = isSpace(raw.front());
    if (handleCallFailure(line)) return;
    const std::string clean = stripTrailers(line);
    if (auto code = errorCodeAtStart(clean)) {
      inDeviceBlock_ = true;
      device_.any = true;
      if (std::find(device_.codes.begin(), device_.codes.end(), *code) == device_.codes.end())
        device_.codes.push_back(*code);
      // "EZ9999[PID: 1] 2025-.. (EZ9999):  The error from device ..." -> text after the "(EZ9999):" header.
      std::string_view body = std::string_view(clean).substr(6);
      const auto hdr = body.find("(" + *code + "):");
      if (hdr != std::string_view::npos)
        body = body.substr(hdr + code->size() + 3);
      else if (!body.empty() && body.front() == ':')
        body.remove_prefix(1);
      body = trim(body);
      if (!handleDeviceDetail(body)) {
        device_.note(*code + ": " + std::string(body));
        if (device_.firstText.empty() && body != "Inner Error!") device_.firstText = std::string(body);
      }
      return;
    }
    if (handleDeviceDetail(clean)) {
      device_.any = true;
      inDeviceBlock_ = true;
      return;
    }
    if (inDeviceBlock_ && indented) {
      if (!startsWith(clean, "TraceBack")) device_.note(clean);
      return;
    }
    inDeviceBlock_ = false;
  }

  bool handleCallFailure(std::string_view line) {
    // CHECK_ACL: "path/main.cpp:45 aclError:507035"
    if (const auto at = line.find(" aclError:"); at != std::string_view::npos) {
      if (auto code = codeAt(line, at + 10)) {
        CallFailure f{*code, "", "", 0};
        const auto prefix = line.substr(0, at);
        const auto colon = prefix.rfind(':');
        if (colon != std::string_view::npos) {
          if (auto l = toInt(prefix.substr(colon + 1)); l && *l > 0) {
            f.file = std::string(prefix.substr(0, colon));
            f.line = static_cast<int>(*l);
          }
        }
        addFailure(std::move(f));
        return true;
      }
    }
    // torch_npu: "NPU function error: aclrtSynchronizeDevice, error code is 507015"
    if (const auto at = line.find("error code is "); at != std::string_view::npos) {
      if (auto code = codeAt(line, at + 14)) {
        CallFailure f{*code, "", "", 0};
        if (const auto fn = line.find("function error: "); fn != std::string_view::npos) {
          const auto comma = line.find(',', fn);
          if (comma != std::string_view::npos && comma < at)
            f.api = std::string(trim(line.substr(fn + 16, comma - fn - 16)));
        }
        addFailure(std::move(f));
        return true;
      }
    }
    // "[ERROR] aclrtSynchronizeStream(stream) failed: 507035", "... failed, errorCode = 507035",
    // "... failed. ERROR: 507035".
    if (const auto at = line.find(" failed"); at != std::string_view::npos) {
      std::size_t p = at + 7;
      while (p < line.size() && !isDigit(line[p]) && p < at + 30) ++p;
      if (p < line.size() && isDigit(line[p])) {
        if (auto code = codeAt(line, p); code && *code >= 100000) {
          addFailure({*code, identBefore(line, at), "", 0});
          return true;
        }
      }
    }
    return false;
  }

  // The pieces of a device report; true when `text` was one of them.
  bool handleDeviceDetail(std::string_view text) {
    bool matched = false;
    if (const auto at = text.find("there is an exception of "); at != std::string_view::npos) {
      std::string_view rest = text.substr(at + 25);
      const auto sp = rest.find(" error");
      device_.exceptionKind = std::string(rest.substr(0, sp));
      std::string n = "device exception: " + device_.exceptionKind + " error";
      if (const auto core = text.find("core id is "); core != std::string_view::npos)
        if (auto id = codeAt(text, core + 11)) n += " on core " + std::to_string(*id);
      if (const auto ec = text.find("error code = "); ec != std::string_view::npos) {
        std::size_t end = ec + 13;
        while (end < text.size() && !isSpace(text[end]) && text[end] != ',') ++end;
        n += ", error code " + std::string(text.substr(ec + 13, end - ec - 13));
      }
      device_.note(std::move(n));
      matched = true;
    }
    if (const auto at = text.find("errorStr: "); at != std::string_view::npos) {
      std::string_view rest = text.substr(at + 10);
      const auto dot = rest.find('.');
      rest = trim(rest.substr(0, dot));
      if (device_.errorStr.empty()) device_.errorStr = std::string(rest);
      device_.note("errorStr: " + std::string(rest));
      matched = true;
    }
    if (const auto at = text.find("retCode="); at != std::string_view::npos) {
      const auto open = text.find('[', at);
      const auto close = open == std::string_view::npos ? open : text.find(']', open);
      if (close != std::string_view::npos && device_.retText.empty())
        device_.retText = std::string(text.substr(open + 1, close - open - 1));
      std::string n(text);
      while (!n.empty() && n.back() == '.') n.pop_back();
      device_.note(std::move(n));
      matched = true;
    }
    if (contains(text, "execution is abnormal")) {  // torch_npu "[Error]: The aicore execution is abnormal."
      device_.note(std::string(text));
      matched = true;
    }
    return matched;
  }

  // Category the device report's own words imply, or "" when they say nothing specific.
  static std::string_view categoryFromText(const std::string& text) {
    const std::string t = lower(text);
    const bool oob = contains(t, "out of bound") || contains(t, "out of range") || contains(t, "overflow");
    if (oob && (contains(t, "ub address") || contains(t, "unified buffer"))) return category::UbOutOfBounds;
    if ((contains(t, "out of bound") || contains(t, "out of range")) &&
        (contains(t, "gm ") || contains(t, "gm address") || contains(t, "global memory") ||
         contains(t, "ddr") || contains(t, "hbm")))
      return category::GmOutOfBounds;
    if (contains(t, "timeout") || contains(t, "time out")) return category::Timeout;
    if (contains(t, "invalid argument") || contains(t, "invalid param")) return category::InvalidParam;
    return {};
  }

  // Folds the device report into d: category from its words, a summary appended to the message (when
  // appendSummary), the error codes and details as notes.
  void applyDevice(Diagnostic& d, bool appendSummary) const {
    const std::string words = device_.errorStr + " | " + device_.retText + " | " + device_.firstText;
    if (auto c = categoryFromText(words); !c.empty()) d.category = std::string(c);
    if (appendSummary) {
      if (!device_.errorStr.empty())
        d.message += "; device reports: " + device_.errorStr;
      else if (!device_.retText.empty())
        d.message += "; device reports: " + device_.retText;
      else if (!device_.exceptionKind.empty())
        d.message += "; device reports: " + device_.exceptionKind + " exception";
    }
    if (startsWith(device_.errorStr, "VEC ")) d.pipe = "V";
    std::vector<std::string> notes;
    for (const auto& c : device_.codes) {
      const bool named = std::any_of(device_.notes.begin(), device_.notes.end(),
                                     [&](const std::string& n) { return startsWith(n, c); });
      if (!named) notes.push_back("error code " + c);
    }
    notes.insert(notes.end(), device_.notes.begin(), device_.notes.end());
    d.notes.insert(d.notes.end(), notes.begin(), notes.end());
  }

  std::vector<Diagnostic> build() const {
    std::vector<Diagnostic> out;
    for (const auto& f : failures_) {
      Diagnostic d;
      d.source = "runtime";
      d.severity = Severity::Error;
      const auto info = lookupAclError(f.code);
      d.category = std::string(info && !info->category.empty() ? info->category : kCrash);
      d.file = f.file;
      d.line = f.line;
      if (!f.api.empty()) d.api = f.api;
      d.message =
          (f.api.empty() ? std::string("ACL call") : f.api) + " failed with error " + std::to_string(f.code);
      d.message +=
          info ? " " + std::string(info->name) + " (" + std::string(info->meaning) + ")" : " (unknown code)";
      out.push_back(std::move(d));
    }
    if (!device_.any) return out;
    // The device report explains the first kernel-level failure (not, say, a bad aclrtMalloc argument).
    auto target =
        std::find_if(out.begin(), out.end(), [](const Diagnostic& d) { return d.category != kParam; });
    if (target == out.end() && !out.empty()) target = out.begin();
    if (target != out.end()) {
      applyDevice(*target, true);
      return out;
    }
    Diagnostic d;
    d.source = "runtime";
    d.severity = Severity::Error;
    d.category = std::string(kCrash);
    d.message =
        !device_.errorStr.empty()  ? "device error: " + device_.errorStr
        : !device_.retText.empty() ? "device error: " + device_.retText
        : !device_.firstText.empty()
            ? device_.firstText
            : "runtime error " + (device_.codes.empty() ? std::string("reported") : device_.codes.front());
    applyDevice(d, false);
    out.push_back(std::move(d));
    return out;
  }
};

}  // namespace

std::optional<AclErrorInfo> lookupAclError(int code) {
  const auto it = std::lower_bound(std::begin(kCodes), std::end(kCodes), code,
                                   [](const AclErrorInfo& info, int c) { return info.code < c; });
  if (it == std::end(kCodes) || it->code != code) return std::nullopt;
  return *it;
}

std::vector<Diagnostic> parseRuntimeErrors(std::string_view output) {
  return Parser().run(output);
}

}  // namespace kwb
