#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 16, items 5 and 7: bad input is refused by the layer that reads it, with exit 2 and a message
# that names the problem — absurd tensor sizes and an unknown SoC in `kwb task validate`, a candidate
# that is a device, a FIFO or too large in `kwb eval`; `kwb doctor` never shows a key embedded in the
# base URL and warns about unusable KWB_LLM_* values.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
task="$root/resources/tasks/add_custom"

mutate() {  # mutate PYTHON-EXPR-ON-t: writes $tmp/t/task.json from add_custom's
  rm -rf "$tmp/t"; cp -r "$task" "$tmp/t"
  /usr/bin/python3 - "$task/task.json" "$tmp/t/task.json" "$1" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(t, open(sys.argv[2], "w"), indent=2)
PY
}
expect2() {  # expect2 WHAT PATTERN CMD...: the command exits 2 and its stderr matches PATTERN
  local what="$1" pat="$2"; shift 2
  set +e; err=$("$@" 2>&1 >/dev/null); rc=$?; set -e
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2 ($err)"
  case "$err" in *$pat*) ;; *) fail "$what: message does not say '$pat': $err";; esac
}

mutate 't["cases"][0]["shapes"] = {k: [65536, 65536] for k in t["cases"][0]["shapes"]}'
expect2 "huge tensor" "a tensor may have at most 1073741824 elements" "$kwb" task validate "$tmp/t"
mutate '[d.update(dtype="float32") for d in t["inputs"] + t["outputs"]]; t["cases"][0]["shapes"] = {k: [32768, 32768] for k in t["cases"][0]["shapes"]}'
expect2 "case too large" "a case may have at most 8192.0 MiB" "$kwb" task validate "$tmp/t"
mutate 't["soc"] = "Ascend999Z"'
expect2 "unknown soc" '/soc: unknown soc "Ascend999Z"; known: Ascend310P1' "$kwb" task validate "$tmp/t"

expect2 "kernel /dev/zero" "is not a regular file (a character device)" \
  "$kwb" eval --task "$task" --kernel /dev/zero
mkfifo "$tmp/fifo"
expect2 "kernel fifo" "is not a regular file (a pipe)" "$kwb" eval --task "$task" --kernel "$tmp/fifo"
head -c 2000000 /dev/zero | tr '\0' 'x' > "$tmp/big.cpp"
expect2 "kernel too large" "the limit is 1.0 MiB" "$kwb" eval --task "$task" --kernel "$tmp/big.cpp"
mutate 't["soc"] = "Ascend999Z"'
expect2 "eval unknown soc" 'unknown soc "Ascend999Z"' "$kwb" eval --task "$tmp/t" --kernel "$task/expert_candidate.cpp"
rm -rf "$tmp/t"; cp -r "$task" "$tmp/t"; rm "$tmp/t/reference.cpp"
expect2 "eval without reference" "no reference.cpp" "$kwb" eval --task "$tmp/t" --kernel "$task/expert_candidate.cpp"
mkdir -p "$tmp/with space"
expect2 "eval with TMPDIR space" "contains whitespace" \
  env TMPDIR="$tmp/with space" "$kwb" eval --task "$task" --kernel "$task/expert_candidate.cpp"
expect2 "task.json is a device" "not a regular file" "$kwb" task validate /dev/zero

# kwb doctor: no key from the URL, and a warning naming the unusable variable.
set +e
out=$(env KWB_LLM_PROVIDER=openai KWB_LLM_BASE_URL='https://u:sk-doc-secret@api.example.com/v1?key=sk-doc-q&api-version=2' \
  KWB_LLM_MAX_RETRIES=lots "$kwb" doctor 2>&1)
json=$(env KWB_LLM_PROVIDER=openai KWB_LLM_BASE_URL='https://u:sk-doc-secret@api.example.com/v1?key=sk-doc-q' \
  "$kwb" doctor --json 2>&1)
set -e
case "$out$json" in *secret*|*sk-doc-q*) fail "doctor shows a key from the base URL: $out $json";; esac
case "$out" in *"api.example.com/v1?api-version=2"*) ;; *) fail "doctor does not show the redacted URL: $out";; esac
case "$out" in *'KWB_LLM_MAX_RETRIES="lots" is not a number'*) ;; *) fail "doctor does not warn: $out";; esac
echo "bad input CLI contract ok"
