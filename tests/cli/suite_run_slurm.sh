#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb suite run --executor slurm for real (docs/suites.md, "Slurm"): a single-node Slurm started on
# loopback by tests/services/start-slurm.sh, the local scripted LLM server, two tasks x one sample as ONE
# job array of two elements (<id>_0, <id>_1). add_custom's element is cancelled with scancel while its
# sample is half done, and its retry's kwb is killed with SIGKILL (FAILED, no status file): each time the
# executor submits the sample again as a new array and it continues its own session. Then every sample has its
# .done.json, the sessions are healthy and the three reports are written. An element requeued with
# scontrol requeue runs again under its id and is no retry. Last, a suite is stopped with SIGTERM while
# its array runs: kwb exits 143 and none of its elements is left queued or running. Needs root and slurm-wlm +
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
  # After a failure: a suite still running in the background (this shell's jobs), and its Slurm jobs
  # (their slurmstepd would outlive the daemons that stop-slurm.sh stops).
  for pid in $(jobs -p); do kill -9 "$pid" 2>/dev/null; done
  [ -f "$WORK/slurm/env" ] && (source "$WORK/slurm/env"; timeout 20 scancel --user="$(id -un)" 2>/dev/null; sleep 1)
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

# 2. The suite through Slurm as one array of two elements; add_custom's element is cancelled once it has
# evaluated an iteration, and its retry's kwb is SIGKILLed once it has started.
S="$WORK/suite"
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --samples 1 --max-iterations 2 --no-expert --seed 7 \
  --executor slurm --partition debug --time 10 --poll-seconds 0.5 --out "$S" --json > "$WORK/run.jsonl" 2> "$WORK/run.err" & P=$!
# "TASK JOB_ID OUTPUT" of the latest submission of each task, from the job_submitted events.
elements_of() {
  python3 -c '
import json, sys
latest = {}
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("event") == "job_submitted": latest[e["task"]] = e
for t, e in latest.items(): print(t, e["job_id"], e["output"])
' "$1"
}
# add_custom's first element has evaluated an iteration (relu_custom's sample, rejected by the policy at
# once, is over in seconds): cancel it.
ELEMENTS=""
for _ in $(seq 1200); do
  ELEMENTS=$(elements_of "$WORK/run.jsonl" 2>/dev/null)
  OUT1=$(echo "$ELEMENTS" | awk '$1 == "add_custom" { print $3 }')
  [ -n "$OUT1" ] && grep -q '"event":"iteration_finished"' "$OUT1" 2>/dev/null && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
JOB=$(echo "$ELEMENTS" | awk '$1 == "add_custom" { print $2 }')
[ -n "$JOB" ] || fail "no element was submitted for add_custom: $(cat "$WORK/run.err")"
[ -f "$S/sessions/add_custom/sample-1.done.json" ] && fail "add_custom finished before the scancel: the test did not cancel a half-done element"
scancel "$JOB" || fail "scancel $JOB failed"
# Its retry (a new array) has started the sample again: SIGKILL its kwb, which leaves no status file.
KILLED=""
for _ in $(seq 1200); do
  ELEMENTS=$(elements_of "$WORK/run.jsonl" 2>/dev/null)
  KILLED=$(echo "$ELEMENTS" | awk -v j="$JOB" '$1 == "add_custom" && $2 != j { print $2 }')
  OUT2=$(echo "$ELEMENTS" | awk -v j="$JOB" '$1 == "add_custom" && $2 != j { print $3 }')
  [ -n "$OUT2" ] && grep -q '"event":"sample_started"' "$OUT2" 2>/dev/null && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
[ -n "$KILLED" ] || fail "the cancelled element was not submitted again: $(tail -3 "$WORK/run.jsonl")"
[ -f "$S/sessions/add_custom/sample-1.done.json" ] && fail "add_custom finished before the kill: the test did not kill a half-done element"
# The element's own job id (squeue %A) names its processes; its batch step is kwb (the job execs it).
KILLED_ID=$(squeue --noheader --array --jobs="${KILLED%_*}" --format='%i %A' | awk -v e="$KILLED" '$1 == e { print $2 }')
# The step also holds kwb's children at that moment (the sandboxed compiler, the harness object's build):
# kwb is the oldest process named kwb.
KILLED_PID=$(scontrol listpids "$KILLED_ID" 2>/dev/null | awk '$3 == "batch" { print $1 }' |
  while read -r pid; do [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = kwb ] && echo "$pid"; done | sort -n | head -1)
[ -n "$KILLED_PID" ] || fail "no batch process of $KILLED (job '$KILLED_ID')"
kill -9 "$KILLED_PID" || fail "kill -9 $KILLED_PID failed"
wait $P; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/run.err"; tail -5 "$WORK/run.jsonl"; fail "the Slurm suite: exit $rc, expected 0"; }
python3 - "$WORK/run.jsonl" "$JOB" "$KILLED" "$S" <<'PY' || fail "the samples did not run as one array, the killed elements were not retried, or the summary is wrong"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cancelled, killed, suite = sys.argv[2], sys.argv[3], sys.argv[4]
assert lines[0]["event"] == "suite_started" and lines[0]["total"] == 2 and lines[0]["executor"] == "slurm", lines[0]
assert lines[0]["workers"] == 2, lines[0]
arrays = [l for l in lines if l["event"] == "array_submitted"]
first = arrays[0]
assert first["elements"] == 2 and first["max_running"] == 2, arrays
assert first["manifest"] == suite + "/slurm/array-1.json", first
subs = [l for l in lines if l["event"] == "job_submitted"]
# One array for both samples: <id>_0 and <id>_1 of the same array job, as its manifest lists them.
firsts = sorted((l for l in subs if l["attempt"] == 1), key=lambda l: l["array_index"])
assert [l["job_id"] for l in firsts] == [first["array_job_id"] + "_0", first["array_job_id"] + "_1"], firsts
manifest = json.load(open(first["manifest"]))["elements"]
assert [(e["task"], e["sample"], e["attempt"]) for e in manifest] == [(l["task"], l["sample"], 1) for l in firsts], manifest
# add_custom's element retried twice, each time as a new array of just that sample: after the scancel
# (CANCELLED) and after the SIGKILL (FAILED, no status file).
retried = [l for l in lines if l["event"] == "job_retried"]
assert [(l["job_id"], l["state"], l["attempt"]) for l in retried] == [(cancelled, "CANCELLED", 2), (killed, "FAILED", 3)], retried
assert all(l["task"] == "add_custom" for l in retried), retried
assert len(arrays) == 3 and [a["elements"] for a in arrays] == [2, 1, 1], arrays
again = [l for l in subs if l["attempt"] > 1]
assert [(l["task"], l["attempt"], l["job_id"]) for l in again] == [("add_custom", 2, arrays[1]["array_job_id"] + "_0"), ("add_custom", 3, arrays[2]["array_job_id"] + "_0")], again
assert killed == again[0]["job_id"], (killed, again)
assert [json.load(open(a["manifest"]))["elements"] for a in arrays[1:]] == [[{"task": "add_custom", "sample": 1, "attempt": 2}], [{"task": "add_custom", "sample": 1, "attempt": 3}]]
# The test cluster has no slurmdbd: sacct was asked once and said so; squeue and the files decided.
unavailable = [l for l in lines if l["event"] == "accounting_unavailable"]
assert len(unavailable) == 1 and "disabled" in unavailable[0]["reason"], unavailable
summary = lines[-1]
assert summary["event"] == "summary" and summary["finished"] == 2 and summary["failed"] == 0, summary
assert len(summary["reports"]) == 3, summary
PY
# Slurm's own view: the first array's two elements (add_custom cancelled, relu_custom completed), and the
# killed retry.
ARRAY=${JOB%_*}
squeue --noheader --array --states=all --jobs="$ARRAY" --format='%i|%T' | sort > "$WORK/array.txt"
[ "$(cat "$WORK/array.txt")" = "$(printf '%s\n' "${ARRAY}_0|CANCELLED" "${ARRAY}_1|COMPLETED")" ] ||
  fail "squeue does not show array $ARRAY with its two elements ended as expected: $(cat "$WORK/array.txt")"
[ "$(squeue --noheader --array --states=all --jobs="${KILLED%_*}" --format='%i|%T')" = "$KILLED|FAILED" ] ||
  fail "squeue does not show the killed element $KILLED as FAILED"
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
# Each sample's last element wrote its events to its own output file; add_custom's resumed its session.
while read -r t _ out; do
  grep -q '"event":"sample_finished"' "$out" || fail "the last element of $t wrote no sample_finished to $out"
  [ "$t" = add_custom ] && { grep -q '"resumed":true' "$out" || fail "add_custom's last element did not resume: $out"; }
done <<< "$(elements_of "$WORK/run.jsonl")"
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

# 2b. Preemption with requeue (what PreemptMode=REQUEUE does to a running job): the array element goes
# back to the queue under the same id (<id>_0) and runs again; its sample continues the session it had
# begun, and the executor counts it as one job, not a failure.
S3="$WORK/suite3"
"$KWB" suite run "$SRC/resources/tasks/add_custom" "${LLM[@]}" --samples 1 --max-iterations 2 --no-expert --seed 7 \
  --executor slurm --partition debug --time 10 --poll-seconds 0.5 --out "$S3" --json > "$WORK/requeue.jsonl" 2> "$WORK/requeue.err" & P=$!
OUT3="$S3/slurm/array-1.0.out"
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
case "$JOB3" in *_0) ;; *) fail "the sample did not run as array element <id>_0: $JOB3";; esac
[ -f "$S3/sessions/add_custom/sample-1.done.json" ] && fail "the sample finished before the requeue: the test did not preempt a half-done job"
scontrol requeue "$JOB3" || fail "scontrol requeue $JOB3 failed"
wait $P; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/requeue.err"; tail -5 "$WORK/requeue.jsonl"; fail "the requeued suite: exit $rc, expected 0"; }
JOB3_ID=$(squeue --noheader --array --states=all --jobs="${JOB3%_*}" --format='%i %A' | awk -v e="$JOB3" '$1 == e { print $2 }')
scontrol show job "$JOB3_ID" 2>/dev/null | grep -q "Restarts=[1-9]" ||
  fail "element $JOB3 (job '$JOB3_ID') shows no restart: the requeue did not happen"
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

# 3. SIGTERM while the array runs: exit 143, and the array is cancelled (scancel <array job id>).
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
print(",".join(json.loads(l)["array_job_id"] for l in open(sys.argv[1]) if "\"array_submitted\"" in l))' "$WORK/stop.jsonl")
[ -n "$IDS" ] || fail "the second suite submitted no jobs: $(cat "$WORK/stop.err")"
kill -TERM $P
wait $P; rc=$?
[ $rc -eq 143 ] || { cat "$WORK/stop.err"; fail "SIGTERM: exit $rc, expected 143"; }
grep -q "resume" "$WORK/stop.err" || fail "no resume hint after SIGTERM"
for _ in $(seq 100); do
  left=$(squeue --noheader --array --jobs="$IDS" --states=PENDING,RUNNING,COMPLETING --format=%i 2>/dev/null | wc -l)
  [ "$left" -eq 0 ] && break
  sleep 0.2
done
[ "$left" -eq 0 ] || fail "elements still queued or running after the stop: $(squeue --noheader --array --jobs="$IDS" --states=all)"
[ "$(squeue --noheader --array --jobs="$IDS" --states=all --format=%i | wc -l)" -eq 2 ] ||
  fail "the stopped suite was not one array of two elements: $IDS"
STATES=$(squeue --noheader --array --jobs="$IDS" --states=all --format=%T | sort -u | tr '\n' ' ')
case "$STATES" in *CANCELLED*) ;; *) fail "the stopped suite's jobs were not cancelled: $STATES";; esac
echo "ok"
