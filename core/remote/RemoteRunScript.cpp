// SPDX-License-Identifier: MIT
#include "core/remote/RemoteRunScript.h"

#include "core/remote/SshCommands.h"

namespace kwb::remote {

namespace {
constexpr const char* kScript = R"SH(#!/bin/sh
# kwb: one sandboxed run on this host (written by the workbench; docs/suites.md, "SSH").
# sh run.sh SECONDS WORK ro=PATH... rw=PATH... env=NAME=VALUE... -- PROGRAM ARGS...
secs=$1; work=$2; shift 2
ro=""; rw=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    ro=*) ro="$ro ${1#ro=}" ;;
    rw=*) rw="$rw ${1#rw=}" ;;
    env=*) export "${1#env=}" ;;
    *) echo "kwb-remote: bad argument $1" >&2; exit 97 ;;
  esac
  shift
done
[ "$1" = "--" ] || { echo "kwb-remote: no -- before the program" >&2; exit 97; }
shift
mkdir -p "$work" || exit 97
if command -v bwrap >/dev/null 2>&1 && bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev true >/dev/null 2>&1; then
  # Every path here is one the workbench checked (no whitespace), so the word list splits safely.
  opts="--unshare-all --die-with-parent --new-session --dev-bind /dev /dev --proc /proc --tmpfs /tmp"
  for d in /usr /etc /opt; do [ -d "$d" ] && opts="$opts --ro-bind $d $d"; done
  for l in /bin /sbin /lib /lib32 /lib64 /libx32; do
    if [ -L "$l" ]; then opts="$opts --symlink $(readlink "$l") $l"
    elif [ -d "$l" ]; then opts="$opts --ro-bind $l $l"; fi
  done
  for p in $ro; do opts="$opts --ro-bind $p $p"; done
  for p in $rw $work; do opts="$opts --bind $p $p"; done
  echo "kwb-remote: isolation bubblewrap" >&2
  # shellcheck disable=SC2086
  exec timeout -k 2 "$secs" bwrap $opts --chdir "$work" --setenv HOME "$work" -- "$@"
fi
echo "kwb-remote: isolation rlimits-only (bubblewrap does not work on this host)" >&2
ulimit -t $((secs + 5)) 2>/dev/null
ulimit -c 0 2>/dev/null
cd "$work" || exit 97
HOME=$work exec timeout -k 2 "$secs" "$@"
)SH";
}  // namespace

std::string remoteRunScript() {
  return kScript;
}

std::string remoteRunCommand(const RemoteRunRequest& r) {
  std::vector<std::string> argv = {"sh", r.script, std::to_string(r.seconds), r.workDir};
  for (const auto& p : r.readOnly) argv.push_back("ro=" + p);
  for (const auto& p : r.writable) argv.push_back("rw=" + p);
  for (const auto& [name, value] : r.environment) {
    std::string word = "env=";
    word.append(name).append("=").append(value);
    argv.push_back(std::move(word));
  }
  argv.emplace_back("--");
  argv.insert(argv.end(), r.argv.begin(), r.argv.end());
  return remoteCommandLine(argv);
}

std::string remoteIsolation(const std::string& stderrText) {
  const std::string marker = "kwb-remote: isolation ";
  const auto at = stderrText.find(marker);
  if (at == std::string::npos) return {};
  const auto rest = stderrText.substr(at + marker.size(), 32);
  if (rest.rfind("bubblewrap", 0) == 0) return "bubblewrap";
  if (rest.rfind("rlimits-only", 0) == 0) return "rlimits-only";
  return {};
}

}  // namespace kwb::remote
