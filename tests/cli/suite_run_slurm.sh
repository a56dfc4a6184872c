#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb suite run --executor slurm for real (docs/suites.md, "Slurm"): a single-node Slurm started on
# loopback by tests/services/start-slurm.sh, the local scripted LLM server, two tasks x one sample as two
# batch jobs. One job is cancelled with scancel while its sample is half done: the executor submits it
# again and the sample continues its own session. Then every sample has its .done.json, the sessions
# are healthy and the three reports are written. Last, a second suite is stopped with SIGTERM while its
# jobs run: kwb exits 143 and none of its jobs is left queued or running. Needs root and slurm-wlm +
# munge (scripts/test installs them); without them it is skipped (exit 77).
set -u
KWB="$1"; SRC="$2"
SERVER="$(dirname "$KWB")/../../tests/support/kwb-llm-test-server"
[ -x "$SERVER" ] || { echo "FAIL: no test server at $SERVER"; exit 1; }
if [ "$(id -u)" -ne 0 ] || ! PATH="$PATH:/usr/sbin" command -v slurmctld >/dev/null || ! PATH="$PATH:/usr/sbin" command -v munged >/dev/null; then
  echo "SKIP: needs root, slurm-wlm and munge"; exit 77
fi
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
  "$SRC/tests/services/stop-slurm.sh" "$WORK/slurm"
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$WORK"/suite*/slurm/*.out; do [ -f "$f" ] && { echo "----- $f"; tail -5 "$f"; }; done; exit 1; }

"$SRC/tests/services/start-slurm.sh" "$WORK/slurm" || fail "Slurm did not start"
source "$WORK/slurm/env"

# Every request gets the lesson's repaired add_custom kernel (it passes add_custom; relu_custom rejects
# it), streamed slowly enough that the scancel lands inside a sample.
python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/script.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
fixed = lesson["steps"][1]["reply"]
json.dump({"replies": [], "fallback": {"text": fixed, "chunk_chars": 200, "chunk_delay_ms": 60,
                        "prompt_tokens": 1000, "completion_tokens": 250}}, open(sys.argv[2], "w"))
PY
"$SERVER" "$WORK/script.json" > "$WORK/port" 2> "$WORK/server.err" & SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(head -1 "$WORK/port")
[ -n "$PORT" ] || fail "the test server printed no port: $(cat "$WORK/server.err")"
# The key goes to the jobs in its variable (ProcessRunner keeps secrets from sbatch unless passed on).
export KWB_SLURM_TEST_KEY="slurm-test-key-$$"
LLM=(--provider openai --base-url "http://127.0.0.1:$PORT/v1" --model test-model --api-key-env KWB_SLURM_TEST_KEY)
TASKS=("$SRC/resources/tasks/add_custom" "$SRC/resources/tasks/relu_custom")

# 1. Bad Slurm options are refused before anything is submitted.
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --executor slurm --partition 'a;b' --out "$WORK/bad" > /dev/null 2> "$WORK/bad.err"; rc=$?
[ $rc -eq 2 ] || fail "a bad --partition: exit $rc, expected 2"
grep -q -- "--partition" "$WORK/bad.err" || fail "the error does not name --partition: $(cat "$WORK/bad.err")"

# 2. The suite through Slurm; add_custom's job is cancelled once its first iteration is evaluated.
S="$WORK/suite"
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --samples 1 --max-iterations 2 --no-expert --seed 7 \
  --executor slurm --partition debug --time 10 --poll-seconds 0.5 --out "$S" --json > "$WORK/run.jsonl" 2> "$WORK/run.err" & P=$!
OUT1="$S/slurm/add_custom.sample-1.try-1.out"
for _ in $(seq 1200); do
  grep -q '"event":"iteration_finished"' "$OUT1" 2>/dev/null && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
JOB=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("event") == "job_submitted" and e["task"] == "add_custom": print(e["job_id"]); break
' "$WORK/run.jsonl")
[ -n "$JOB" ] || fail "no job was submitted for add_custom: $(cat "$WORK/run.err")"
[ -f "$S/sessions/add_custom/sample-1.done.json" ] && fail "add_custom finished before the scancel: the test did not cancel a half-done job"
scancel "$JOB" || fail "scancel $JOB failed"
wait $P; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/run.err"; tail -5 "$WORK/run.jsonl"; fail "the Slurm suite: exit $rc, expected 0"; }
python3 - "$WORK/run.jsonl" "$JOB" <<'PY' || fail "the cancelled job was not retried, or the summary is wrong"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert lines[0]["event"] == "suite_started" and lines[0]["total"] == 2 and lines[0]["executor"] == "slurm", lines[0]
retried = [l for l in lines if l["event"] == "job_retried"]
assert len(retried) == 1 and retried[0]["job_id"] == sys.argv[2] and retried[0]["task"] == "add_custom", retried
assert retried[0]["state"] == "CANCELLED", retried
subs = [l for l in lines if l["event"] == "job_submitted"]
assert len(subs) == 3 and {l["attempt"] for l in subs if l["task"] == "add_custom"} == {1, 2}, subs
summary = lines[-1]
assert summary["event"] == "summary" and summary["finished"] == 2 and summary["failed"] == 0, summary
assert len(summary["reports"]) == 3, summary
PY
python3 - "http://127.0.0.1:$PORT/__kwb/requests" "$KWB_SLURM_TEST_KEY" <<'PY' || fail "the jobs did not send the API key from its variable"
import json, sys, urllib.request
reqs = json.load(urllib.request.urlopen(sys.argv[1]))
assert reqs and all(r["headers"].get("authorization") == "Bearer " + sys.argv[2] for r in reqs), [r["headers"].get("authorization") for r in reqs]
PY
grep -rq "$KWB_SLURM_TEST_KEY" "$S" && fail "the API key was written into the suite folder"
for t in add_custom relu_custom; do
  [ -f "$S/sessions/$t/sample-1.done.json" ] || fail "$t has no .done.json"
  "$KWB" session show "$S/sessions/$t/sample-1" > /dev/null || fail "$t's session is not healthy"
done
[ -f "$S/slurm/add_custom.sample-1.try-2.out" ] || fail "no second job output for add_custom"
python3 - "$S/sessions/add_custom/sample-1/session.json" <<'PY' || fail "the retried sample did not continue its session"
import json, sys
s = json.load(open(sys.argv[1]))
states = [i["state"] for i in s["iterations"]]
# The iteration the scancel interrupted stays (stopped or re-evaluated); the loop went on to two evaluations.
assert sum(1 for x in states if x == "done") == 2, states
PY
python3 - "$S" <<'PY' || fail "the reports are wrong"
import json, sys, xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1] + "/report.json"))
o = r["metrics"]["overall"]
assert o["samples"] == 2 and o["finished_samples"] == 2 and o["correct_at_k"]["1"] == 0.5, o
assert ET.parse(sys.argv[1] + "/report.xml").getroot().get("tests") == "2"
PY

# 2b. Preemption with requeue (what PreemptMode=REQUEUE does to a running job): the job goes back to the
# queue under the same id and runs again; its sample continues the session it had begun, and the executor
# counts it as one job, not a failure.
S3="$WORK/suite3"
"$KWB" suite run "$SRC/resources/tasks/add_custom" "${LLM[@]}" --samples 1 --max-iterations 2 --no-expert --seed 7 \
  --executor slurm --partition debug --time 10 --poll-seconds 0.5 --out "$S3" --json > "$WORK/requeue.jsonl" 2> "$WORK/requeue.err" & P=$!
OUT3="$S3/slurm/add_custom.sample-1.try-1.out"
for _ in $(seq 1200); do
  grep -q '"event":"iteration_finished"' "$OUT3" 2>/dev/null && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
JOB3=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("event") == "job_submitted": print(e["job_id"]); break
' "$WORK/requeue.jsonl")
[ -n "$JOB3" ] || fail "no job was submitted for the requeue run: $(cat "$WORK/requeue.err")"
[ -f "$S3/sessions/add_custom/sample-1.done.json" ] && fail "the sample finished before the requeue: the test did not preempt a half-done job"
scontrol requeue "$JOB3" || fail "scontrol requeue $JOB3 failed"
wait $P; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/requeue.err"; tail -5 "$WORK/requeue.jsonl"; fail "the requeued suite: exit $rc, expected 0"; }
scontrol show job "$JOB3" 2>/dev/null | grep -q "Restarts=[1-9]" || fail "job $JOB3 shows no restart: the requeue did not happen"
python3 - "$WORK/requeue.jsonl" "$S3/sessions/add_custom/sample-1/session.json" <<'PY' || fail "the requeued job's sample did not continue"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len([l for l in lines if l["event"] == "job_submitted"]) == 1, "a requeued job is the same job"
assert not [l for l in lines if l["event"] == "job_retried"], "a requeue is not a failure"
summary = lines[-1]
assert summary["event"] == "summary" and summary["finished"] == 1 and summary["failed"] == 0, summary
states = [i["state"] for i in json.load(open(sys.argv[2]))["iterations"]]
assert sum(1 for x in states if x == "done") == 2, states
PY
[ -f "$S3/sessions/add_custom/sample-1.done.json" ] || fail "the requeued sample has no .done.json"

# 3. SIGTERM while the jobs run: exit 143, and the jobs are cancelled.
S2="$WORK/suite2"
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --samples 1 --max-iterations 2 --no-expert \
  --executor slurm --poll-seconds 0.5 --out "$S2" --json > "$WORK/stop.jsonl" 2> "$WORK/stop.err" & P=$!
for _ in $(seq 600); do
  [ "$(grep -c '"state":"RUNNING"' "$WORK/stop.jsonl" 2>/dev/null)" -ge 2 ] && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
IDS=$(python3 -c '
import json, sys
print(",".join(json.loads(l)["job_id"] for l in open(sys.argv[1]) if "\"job_submitted\"" in l))' "$WORK/stop.jsonl")
[ -n "$IDS" ] || fail "the second suite submitted no jobs: $(cat "$WORK/stop.err")"
kill -TERM $P
wait $P; rc=$?
[ $rc -eq 143 ] || { cat "$WORK/stop.err"; fail "SIGTERM: exit $rc, expected 143"; }
grep -q "resume" "$WORK/stop.err" || fail "no resume hint after SIGTERM"
for _ in $(seq 100); do
  left=$(squeue --noheader --jobs="$IDS" --states=PENDING,RUNNING,COMPLETING --format=%i 2>/dev/null | wc -l)
  [ "$left" -eq 0 ] && break
  sleep 0.2
done
[ "$left" -eq 0 ] || fail "jobs still queued or running after the stop: $(squeue --noheader --jobs="$IDS" --states=all)"
STATES=$(squeue --noheader --jobs="$IDS" --states=all --format=%T | sort -u | tr '\n' ' ')
case "$STATES" in *CANCELLED*) ;; *) fail "the stopped suite's jobs were not cancelled: $STATES";; esac
echo "ok"
