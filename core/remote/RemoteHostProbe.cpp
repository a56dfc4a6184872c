// SPDX-License-Identifier: MIT
#include "core/remote/RemoteHostProbe.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace kwb::remote {

namespace {
constexpr const char* kProbeBody = R"SH(
r=""; via=""
if [ -n "$KWB_CANN" ]; then
  [ -d "$KWB_CANN" ] && { r=$KWB_CANN; via="--remote-cann"; }
else
  if [ -n "${ASCEND_TOOLKIT_HOME:-}" ] && [ -d "$ASCEND_TOOLKIT_HOME" ]; then r=$ASCEND_TOOLKIT_HOME; via=ASCEND_TOOLKIT_HOME
  elif [ -n "${ASCEND_HOME_PATH:-}" ] && [ -d "$ASCEND_HOME_PATH" ]; then r=$ASCEND_HOME_PATH; via=ASCEND_HOME_PATH
  else
    for d in /usr/local/Ascend/ascend-toolkit/latest /usr/local/Ascend/cann "$HOME/Ascend/ascend-toolkit/latest"; do
      if [ -d "$d" ]; then r=$d; via="default location"; break; fi
    done
  fi
fi
echo "kwb-probe 1"
echo "home=$HOME"
if [ -n "$r" ]; then
  echo "root=$r"
  echo "via=$via"
  for f in compiler/ccec_compiler/bin/bisheng bin/bisheng tools/bisheng_compiler/bin/bisheng; do
    if [ -x "$r/$f" ]; then echo "bisheng=$r/$f"; break; fi
  done
  for f in tools/profiler/bin/msprof bin/msprof; do
    if [ -x "$r/$f" ]; then echo "msprof=$r/$f"; break; fi
  done
  [ -d "$r/tools/tikicpulib/lib" ] && echo "tikicpulib=$r/tools/tikicpulib/lib"
  for d in "$r"/tools/simulator/*; do [ -d "$d" ] && echo "simulator=${d##*/}"; done
  for f in version.info compiler/version.info runtime/version.info; do
    v=$(sed -n 's/^[[:space:]]*[Vv]ersion[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$r/$f" 2>/dev/null | head -n 1)
    if [ -n "$v" ]; then echo "version=$v"; break; fi
  done
fi
for d in /dev/davinci[0-9]*; do [ -e "$d" ] && echo "device=$d"; done
p=$(command -v npu-smi 2>/dev/null || { [ -x /usr/local/sbin/npu-smi ] && echo /usr/local/sbin/npu-smi; })
[ -n "$p" ] && echo "npu_smi=$p"
if command -v bwrap >/dev/null 2>&1 && bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev true >/dev/null 2>&1; then echo "bwrap=yes"; fi
command -v tar >/dev/null 2>&1 && echo "tar=yes"
command -v timeout >/dev/null 2>&1 && echo "timeout=yes"
echo "kwb-probe end"
)SH";

bool safeToken(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}
}  // namespace

bool isSafeRemotePath(const std::string& p) {
  if (p.empty() || p.front() != '/' || p.size() > 1024) return false;
  return std::all_of(p.begin(), p.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '.' || c == '-' ||
           c == '+' || c == '@' || c == ':' || c == ',';
  });
}

std::string remoteProbeScript(const std::string& cannRoot) {
  std::string script = "KWB_CANN=" + shellQuote(cannRoot) + "\n";
  script += kProbeBody;
  return script;
}

std::optional<RemoteHostFacts> parseRemoteProbe(const std::string& answer, std::string& error) {
  std::istringstream in(answer);
  std::string line;
  bool inside = false, ended = false;
  RemoteHostFacts f;
  CannToolPaths cann;
  bool haveRoot = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!inside) {
      inside = line == "kwb-probe 1";
      continue;
    }
    if (line == "kwb-probe end") {
      ended = true;
      break;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      f.warnings.push_back("ignored line \"" + line.substr(0, 120) + "\"");
      continue;
    }
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    auto needPath = [&](const std::string& v) {
      if (isSafeRemotePath(v)) return true;
      f.warnings.push_back("ignored " + key + ": \"" + v.substr(0, 120) +
                           "\" is not an absolute path of letters, digits and / _ . - + @ : ,");
      return false;
    };
    if (key == "home") {
      if (!isSafeRemotePath(value)) {
        error = "the remote $HOME \"" + value.substr(0, 120) +
                "\" is not an absolute path of letters, digits and / _ . - + @ : , (kwb keeps its remote "
                "workspaces under it)";
        return std::nullopt;
      }
      f.home = value;
    } else if (key == "root") {
      if (needPath(value)) {
        cann.root = value;
        haveRoot = true;
      }
    } else if (key == "via") {
      if (value == "ASCEND_TOOLKIT_HOME" || value == "ASCEND_HOME_PATH" || value == "default location" ||
          value == "--remote-cann")
        f.cannFoundVia = value;
    } else if (key == "bisheng") {
      if (needPath(value)) cann.bisheng = value;
    } else if (key == "msprof") {
      if (needPath(value)) cann.msprof = value;
    } else if (key == "tikicpulib") {
      if (needPath(value)) cann.tikicpulib = value;
    } else if (key == "simulator") {
      if (!value.empty() && value.size() < 64 && safeToken(value))
        f.simulatorSocs.push_back(value);
      else
        f.warnings.push_back("ignored simulator SoC \"" + value.substr(0, 64) + "\"");
    } else if (key == "version") {
      if (!value.empty() && value.size() < 64 && safeToken(value)) f.cannVersion = value;
    } else if (key == "device") {
      if (needPath(value) && value.rfind("/dev/davinci", 0) == 0) f.devices.push_back(value);
    } else if (key == "npu_smi") {
      if (needPath(value)) f.npuSmi = value;
    } else if (key == "bwrap") {
      f.bubblewrap = value == "yes";
    } else if (key == "tar") {
      f.haveTar = value == "yes";
    } else if (key == "timeout") {
      f.haveTimeout = value == "yes";
    } else {
      f.warnings.push_back("ignored unknown key \"" + key.substr(0, 40) + "\"");
    }
  }
  if (!inside || !ended) {
    error =
        "the remote host's answer to the probe is not the probe's (no \"kwb-probe 1\" ... \"kwb-probe "
        "end\"): " +
        answer.substr(0, 300);
    return std::nullopt;
  }
  if (f.home.empty()) {
    error = "the remote host's answer has no home";
    return std::nullopt;
  }
  if (haveRoot) {
    // Tool paths must lie in the toolkit that was found.
    for (auto* p : {&cann.bisheng, &cann.msprof, &cann.tikicpulib})
      if (*p && (*p)->rfind(cann.root + "/", 0) != 0) {
        f.warnings.push_back("ignored " + **p + ": outside the toolkit " + cann.root);
        p->reset();
      }
    f.cann = cann;
  }
  std::sort(f.simulatorSocs.begin(), f.simulatorSocs.end());
  return f;
}

std::optional<RemoteHostFacts> probeRemoteHost(const SshSession& session, const std::string& cannRoot,
                                               std::string& error, SshFailureKind* failure) {
  const RemoteRun r = session.run("sh -s", remoteProbeScript(cannRoot), std::chrono::milliseconds(60000),
                                  std::size_t{256} << 10);
  if (failure) *failure = r.failure.kind;
  if (!r.connected()) {
    error = r.failure.message.empty()
                ? "ssh to " + session.settings().target.url() + " " + r.process.describeOutcome()
                : r.failure.message;
    return std::nullopt;
  }
  return parseRemoteProbe(r.process.stdoutText, error);
}

std::string remoteRunMode(const RemoteHostFacts& facts, const std::string& soc) {
  if (!facts.devices.empty()) return "npu";
  if (std::find(facts.simulatorSocs.begin(), facts.simulatorSocs.end(), soc) != facts.simulatorSocs.end())
    return "sim";
  return "cpu";
}

}  // namespace kwb::remote
