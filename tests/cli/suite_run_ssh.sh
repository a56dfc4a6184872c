#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb suite run --executor ssh:// for real (docs/suites.md, "SSH"): an sshd on loopback started by
# tests/services/start-sshd.sh whose logins see the CANN stand-in toolkit (tests/fixtures/cann_standin,
# copied to its own folder: the "remote" toolkit; this side has none), the local scripted LLM server,
# add_custom x one sample. Every build and run happens over ssh in the remote workspace folder; the
# stand-in program reproduces a captured vector-core exception, so the session must hold that parsed
# runtime error, ran_on cann-sim and msprof's parsed profile. Also: a bad address, an unreachable port
# and a refused key exit 2 saying so. Needs openssh-server (scripts/deps.sh); skipped (77) without.
set -u
KWB="$1"; SRC="$2"
SERVER="$(dirname "$KWB")/../../tests/support/kwb-llm-test-server"
[ -x "$SERVER" ] || { echo "FAIL: no test server at $SERVER"; exit 1; }
if ! { command -v sshd || [ -x /usr/sbin/sshd ]; } >/dev/null 2>&1 || ! command -v ssh >/dev/null; then
  echo "SKIP: needs openssh-server and openssh-client"; exit 77
fi
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
  "$SRC/tests/services/stop-sshd.sh" "$WORK/sshd"
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$WORK/run.err" ] && tail -20 "$WORK/run.err"; exit 1; }

cp -r "$SRC/tests/fixtures/cann_standin" "$WORK/remote-cann"
"$SRC/tests/services/start-sshd.sh" "$WORK/sshd" "$WORK/remote-cann" || fail "sshd did not start"
source "$WORK/sshd/env"
unset ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH SSH_AUTH_SOCK

python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/script.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
fixed = lesson["steps"][1]["reply"]
json.dump({"replies": [], "fallback": {"text": fixed, "prompt_tokens": 1000, "completion_tokens": 250}},
          open(sys.argv[2], "w"))
PY
"$SERVER" "$WORK/script.json" > "$WORK/port" 2> "$WORK/server.err" & SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(head -1 "$WORK/port")
[ -n "$PORT" ] || fail "the test server printed no port: $(cat "$WORK/server.err")"
LLM=(--provider openai --base-url "http://127.0.0.1:$PORT/v1" --model test-model)
TASK="$SRC/resources/tasks/add_custom"

# 1. Bad addresses, an unreachable host and a refused key: exit 2, saying what was wrong.
"$KWB" suite run "$TASK" "${LLM[@]}" --executor 'ssh://-oProxyCommand=x' --out "$WORK/bad1" > /dev/null 2> "$WORK/bad.err"; rc=$?
[ $rc -eq 2 ] && grep -q "bad host" "$WORK/bad.err" || fail "a bad address: exit $rc: $(cat "$WORK/bad.err")"
FREE=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$KWB" suite run "$TASK" "${LLM[@]}" --executor "ssh://root@127.0.0.1:$FREE" --out "$WORK/bad2" > /dev/null 2> "$WORK/bad.err"; rc=$?
[ $rc -eq 2 ] && grep -q "unreachable" "$WORK/bad.err" || fail "an unreachable host: exit $rc: $(cat "$WORK/bad.err")"
ssh-keygen -q -t ed25519 -N '' -f "$WORK/wrong_key"
sed "s|IdentityFile .*|IdentityFile $WORK/wrong_key|" "$KWB_SSH_CONFIG" > "$WORK/wrong_config"
"$KWB" suite run "$TASK" "${LLM[@]}" --executor "$KWB_SSH_URL" --ssh-config "$WORK/wrong_config" --out "$WORK/bad3" > /dev/null 2> "$WORK/bad.err"; rc=$?
[ $rc -eq 2 ] && grep -q "authentication" "$WORK/bad.err" || fail "a refused key: exit $rc: $(cat "$WORK/bad.err")"
"$KWB" suite run "$TASK" "${LLM[@]}" --executor "$KWB_SSH_URL" --backend ascend-sim --out "$WORK/bad4" > /dev/null 2> "$WORK/bad.err"; rc=$?
[ $rc -eq 2 ] || fail "--backend ascend-sim with ssh: exit $rc"

# 2. The suite end to end on the remote host.
S="$WORK/suite"
"$KWB" suite run "$TASK" "${LLM[@]}" --samples 1 --max-iterations 1 --seed 7 --executor "$KWB_SSH_URL" \
  --remote-dir "$WORK/remote-ws" --out "$S" --json > "$WORK/run.jsonl" 2> "$WORK/run.err"; rc=$?
[ $rc -eq 0 ] || { tail -5 "$WORK/run.jsonl"; fail "the ssh suite: exit $rc, expected 0"; }
[ -f "$S/sessions/add_custom/sample-1.done.json" ] || fail "the sample has no .done.json"
# Each evaluation's remote workspace is removed when it ends (docs/suites.md, "Remote workspaces").
if ls -d "$WORK"/remote-ws/w-* > /dev/null 2>&1; then fail "a remote workspace was left behind: $(ls "$WORK"/remote-ws)"; fi
# With --keep-remote it stays: the build and the msprof run happened there.
"$KWB" suite run "$TASK" "${LLM[@]}" --samples 1 --max-iterations 1 --seed 7 --executor "$KWB_SSH_URL" \
  --remote-dir "$WORK/remote-kept" --keep-remote --out "$WORK/suite-kept" --json > "$WORK/kept.jsonl" 2> "$WORK/kept.err" ||
  fail "the ssh suite with --keep-remote: $(tail -5 "$WORK/kept.err")"
ls "$WORK"/remote-kept/w-*/kernel_app > /dev/null 2>&1 || fail "nothing was built in the remote workspace"
ls -d "$WORK"/remote-kept/w-*/cases/*/msprof/OPPROF_* > /dev/null 2>&1 || fail "no remote run under msprof"
for r in report.json report.xml report.html; do [ -s "$S/$r" ] || fail "no $r"; done
python3 - "$WORK/run.jsonl" "$S" <<'PY' || fail "the events or the session are not what the remote run gives"
import glob, json, os, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
expert = [l for l in lines if l["event"] == "expert_measured"]
assert expert and expert[0]["ran_on"] == "cann-sim", expert
its = [l for l in lines if l["event"] == "iteration_finished"]
assert its and its[0]["verdict"] == "runtime_error", its
summary = lines[-1]
assert summary["event"] == "summary" and summary["finished"] == 1 and summary["failed"] == 0, summary
text = ""
for f in glob.glob(os.path.join(sys.argv[2], "sessions", "add_custom", "sample-1", "**", "*.json"), recursive=True):
    text += open(f).read()
assert "507035" in text, "the remote run's aclError was not parsed"
assert "cann-sim" in text, "ran_on is not the remote mode"
assert "msprof op simulator" in text and "12.34" in text, "msprof's profile was not fetched and parsed"
assert "ssh://" in text, "the artifacts do not name the remote host"
PY
echo "ok"
