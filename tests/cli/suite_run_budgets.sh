#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb suite run's budgets and bad input (docs/suites.md, "Budgets"): a per-task iteration budget stops
# the sample that reaches it (its session stays resumable, no .done.json) and skips the samples after
# it, with exit 1; a budget already spent in the sessions on disk starts nothing on --resume; bad
# arguments exit 2 with a message naming what is wrong; SIGTERM stops the suite with exit 143, resumable.
set -u
KWB="$1"; SRC="$2"
SERVER="$(dirname "$KWB")/../../tests/support/kwb-llm-test-server"
[ -x "$SERVER" ] || { echo "FAIL: no test server at $SERVER"; exit 1; }
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/script.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
json.dump({"replies": [], "fallback": {"text": lesson["steps"][1]["reply"], "chunk_chars": 400,
                                       "prompt_tokens": 1000, "completion_tokens": 250}}, open(sys.argv[2], "w"))
PY
"$SERVER" "$WORK/script.json" > "$WORK/port" 2> "$WORK/server.err" & SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(head -1 "$WORK/port")
[ -n "$PORT" ] || fail "the test server printed no port: $(cat "$WORK/server.err")"
LLM=(--provider openai --base-url "http://127.0.0.1:$PORT/v1" --model test-model --api-key-env KWB_SUITE_UNSET_KEY)
TASK="$SRC/resources/tasks/add_custom"

# 1. Bad input: exit 2 and a message that names the problem.
expect2() {  # $1: what the message must contain, the rest: arguments
  local want="$1"; shift
  "$KWB" suite run "$@" > "$WORK/bad.out" 2> "$WORK/bad.err"; local rc=$?
  [ $rc -eq 2 ] || fail "kwb suite run $*: exit $rc, expected 2"
  grep -q -- "$want" "$WORK/bad.err" || fail "kwb suite run $*: no \"$want\" in: $(cat "$WORK/bad.err")"
}
expect2 "name the task folders" "${LLM[@]}" --out "$WORK/none"
expect2 "not a task folder" "$WORK/missing" "${LLM[@]}" --out "$WORK/none"
expect2 "no suite" --resume --out "$WORK/none" "${LLM[@]}"
expect2 "no LLM configured" "$TASK" --out "$WORK/none"
mkdir "$WORK/full"; touch "$WORK/full/x"
expect2 "not empty" "$TASK" "${LLM[@]}" --out "$WORK/full"
echo '{"schema_version": 1, "tasks": [], "samples": 0}' > "$WORK/full/suite.json"
expect2 "samples" --resume --out "$WORK/full" "${LLM[@]}"

# 2. A per-task iteration budget of 1 with 2 samples of up to 2 iterations: sample 1 is stopped after
# its first iteration, sample 2 is skipped; exit 1.
S="$WORK/suite"
"$KWB" suite run "$TASK" "${LLM[@]}" --samples 2 --max-iterations 2 --task-max-iterations 1 --no-expert \
  --workers 1 --out "$S" --json > "$WORK/run.jsonl" 2> "$WORK/run.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/run.err"; fail "budget run: exit $rc, expected 1"; }
python3 - "$WORK/run.jsonl" "$S" <<'PY' || fail "the iteration budget was not applied"
import json, os, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
fin = [l for l in lines if l["event"] == "sample_finished"]
assert len(fin) == 1 and fin[0]["status"] == "budget", fin
assert "task iteration budget (1) reached" in fin[0]["finish_reason"], fin
skipped = [l for l in lines if l["event"] == "sample_skipped"]
assert len(skipped) == 1 and skipped[0]["sample"] == 2, skipped
s = json.load(open(sys.argv[2] + "/sessions/add_custom/sample-1/session.json"))
assert sum(1 for i in s["iterations"] if i["state"] == "done") == 1, s["iterations"]
assert not os.path.exists(sys.argv[2] + "/sessions/add_custom/sample-1.done.json")
summary = lines[-1]
assert summary["event"] == "summary" and summary["skipped"] == 2 and summary["finished"] == 0, summary
r = json.load(open(sys.argv[2] + "/report.json"))
assert r["metrics"]["overall"]["samples"] == 1 and r["metrics"]["overall"]["finished_samples"] == 0, r["metrics"]["overall"]
assert r["not_run"] == ["add_custom sample-2"], r["not_run"]
PY

# 3. The plan keeps its budgets: resuming the same suite stops at once (the budget is counted from the
# sessions on disk), and asking for other options on resume is refused.
"$KWB" suite run --resume --out "$S" "${LLM[@]}" --json > "$WORK/resume.jsonl" 2> "$WORK/resume.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/resume.err"; fail "resumed budget run: exit $rc, expected 1"; }
grep -q '"event":"sample_started"' "$WORK/resume.jsonl" && fail "a sample started although the task budget is spent"
expect2 "differ from the suite's plan" "$TASK" "${LLM[@]}" --samples 3 --resume --out "$S"

# 4. SIGTERM stops the suite cleanly: exit 143, a hint to resume, the running session stays healthy and
# unfinished (no .done.json), and the reports are still written.
T="$WORK/term"
"$KWB" suite run "$TASK" "${LLM[@]}" --samples 1 --max-iterations 3 --no-expert --out "$T" --json \
  > "$WORK/term.jsonl" 2> "$WORK/term.err" & P=$!
for _ in $(seq 600); do grep -q '"event":"sample_started"' "$WORK/term.jsonl" 2>/dev/null && break; sleep 0.05; done
kill -TERM $P; wait $P; rc=$?
[ $rc -eq 143 ] || { cat "$WORK/term.err"; fail "SIGTERM: exit $rc, expected 143"; }
grep -q "continue with: kwb suite run --resume --out" "$WORK/term.err" || fail "no resume hint: $(cat "$WORK/term.err")"
[ ! -f "$T/sessions/add_custom/sample-1.done.json" ] || fail "a stopped sample was marked done"
"$KWB" session show "$T/sessions/add_custom/sample-1" > /dev/null || fail "the stopped session is not healthy"
[ -f "$T/report.json" ] || fail "no report after SIGTERM"
echo "ok"
