#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb suite run end to end against the local scripted LLM server (OpenAI wire format) and the emulator
# (docs/suites.md): two tasks x two samples, killed with SIGKILL after the first sample finished and
# while the second is half done, then resumed with --resume: the finished session is not run again, the
# half-done one continues in its own session folder, every sample ends with its .done.json, and the
# three reports are written and readable. kwb suite compare of a run with itself shows no difference.
set -u
KWB="$1"; SRC="$2"
SERVER="$(dirname "$KWB")/../../tests/support/kwb-llm-test-server"
[ -x "$SERVER" ] || { echo "FAIL: no test server at $SERVER"; exit 1; }
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Every request gets the lesson's repaired add_custom kernel (it passes add_custom, and relu_custom
# rejects it: the entry is missing), streamed slowly enough that the kill lands inside a sample.
python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/script.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
fixed = lesson["steps"][1]["reply"]
json.dump({"replies": [], "fallback": {"text": fixed, "chunk_chars": 200, "chunk_delay_ms": 40,
                        "prompt_tokens": 1000, "completion_tokens": 250}}, open(sys.argv[2], "w"))
PY
"$SERVER" "$WORK/script.json" > "$WORK/port" 2> "$WORK/server.err" & SERVER_PID=$!
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
PORT=$(head -1 "$WORK/port")
[ -n "$PORT" ] || fail "the test server printed no port: $(cat "$WORK/server.err")"
LLM=(--provider openai --base-url "http://127.0.0.1:$PORT/v1" --model test-model --api-key-env KWB_SUITE_UNSET_KEY)
S="$WORK/suite"
TASKS=("$SRC/resources/tasks/add_custom" "$SRC/resources/tasks/relu_custom")
requests() { python3 -c 'import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(sys.argv[1]))))' "http://127.0.0.1:$PORT/__kwb/requests"; }

# 1. Run, and kill -9 once add_custom sample-1 is done and sample-2 has an evaluated iteration.
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --samples 2 --max-iterations 2 --workers 1 --no-expert --seed 7 \
  --out "$S" --json > "$WORK/run1.jsonl" 2> "$WORK/run1.err" & P=$!
for _ in $(seq 1200); do
  # sample-2 evaluated its first iteration (each line's keys are in alphabetical order)
  grep -q '"iteration":1,.*"sample":2' "$WORK/run1.jsonl" 2>/dev/null && break
  kill -0 $P 2>/dev/null || break
  sleep 0.1
done
kill -9 $P 2>/dev/null; wait $P 2>/dev/null
D="$S/sessions/add_custom"
[ -f "$D/sample-1.done.json" ] || { cat "$WORK/run1.err"; fail "sample-1 did not finish before the kill"; }
[ -f "$D/sample-2/session.json" ] || fail "sample-2 had no session when killed"
[ ! -f "$D/sample-2.done.json" ] || fail "sample-2 finished before the kill: the test did not kill a half-done sample"
grep -q '"event":"suite_finished"' "$WORK/run1.jsonl" && fail "the first run ended by itself"
# Every event is one JSON line with the progress fields.
python3 - "$WORK/run1.jsonl" <<'PY' || fail "the events are not JSON lines with progress"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert lines[0]["event"] == "suite_started" and lines[0]["total"] == 4, lines[0]
for l in lines:
    assert {"event", "done", "total", "eta_s"} <= l.keys(), l
done = [l for l in lines if l["event"] == "sample_finished"]
assert done and done[0]["eta_s"] is not None, done
PY
SAMPLE1_BEFORE=$(sha256sum "$D/sample-1/session.json" | cut -d' ' -f1)
# A session's index: session.json's iterations with the index journal's entries over them (the journal
# holds what was saved since the last fold; a killed writer never folded it, docs/session-format.md).
session_index() {
  python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
entries = {i["id"]: i for i in json.load(open(os.path.join(d, "session.json"))).get("iterations", [])}
journal = os.path.join(d, "session.index.jsonl")
if os.path.exists(journal):
    for line in open(journal).read().split("\n")[1:]:
        try:
            e = json.loads(line)
        except ValueError:
            continue  # a torn last line: the kill cut a write short
        if "id" in e:
            entries[e["id"]] = e
print(json.dumps({"iterations": [entries[k] for k in sorted(entries)]}))
PY
}
session_index "$D/sample-2" > "$WORK/sample2-before.json"
FIRST_CREATED=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"][0]["created_at"])' "$WORK/sample2-before.json")
REQ_BEFORE=$(requests)

# 2. A suite folder is not run over without --resume.
"$KWB" suite run "${TASKS[@]}" "${LLM[@]}" --out "$S" > /dev/null 2> "$WORK/again.err"; rc=$?
[ $rc -eq 2 ] || fail "re-running into a suite folder: exit $rc, expected 2"
grep -q "pass --resume" "$WORK/again.err" || fail "no hint to --resume: $(cat "$WORK/again.err")"

# 3. Resume: the stored plan is used; sample-1 of add_custom is not started again, sample-2 continues.
"$KWB" suite run --resume --out "$S" "${LLM[@]}" --workers 2 --json > "$WORK/run2.jsonl" 2> "$WORK/run2.err"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/run2.err"; tail -3 "$WORK/run2.jsonl"; fail "resume: exit $rc, expected 0"; }
python3 - "$WORK/run2.jsonl" <<'PY' || fail "the resumed run redid a finished sample or did not continue the half-done one"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert lines[0]["event"] == "suite_started" and lines[0]["already_done"] >= 1, lines[0]
started = {(l["task"], l["sample"]): l["resumed"] for l in lines if l["event"] == "sample_started"}
assert ("add_custom", 1) not in started, started
assert started.get(("add_custom", 2)) is True, started
summary = lines[-1]
assert summary["event"] == "summary" and summary["finished"] == 4 and summary["failed"] == 0, summary
assert len(summary["reports"]) == 3, summary
PY
[ "$(sha256sum "$D/sample-1/session.json" | cut -d' ' -f1)" = "$SAMPLE1_BEFORE" ] || fail "the finished session was rewritten"
session_index "$D/sample-2" > "$WORK/sample2-after.json"
python3 - "$WORK/sample2-after.json" "$FIRST_CREATED" <<'PY' || fail "sample-2 did not continue its own session"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["iterations"][0]["created_at"] == sys.argv[2], "iteration 1 was replaced"
assert sum(1 for i in s["iterations"] if i["state"] == "done") == 2, s["iterations"]
PY
for t in add_custom relu_custom; do for k in 1 2; do
  [ -f "$S/sessions/$t/sample-$k.done.json" ] || fail "$t sample-$k has no .done.json after the resume"
done; done
REQ_AFTER=$(requests)
# The resumed run asked only for what was left: at most add_custom sample-2's second iteration and
# relu_custom's four (a redone sample-1 would add two more).
[ $((REQ_AFTER - REQ_BEFORE)) -le 5 ] || fail "the resumed run made $((REQ_AFTER - REQ_BEFORE)) LLM requests, expected at most 5"
"$KWB" session show "$D/sample-2" > /dev/null || fail "the resumed sample is not a healthy session"

# 4. The reports: metrics over all four samples, JUnit XML that parses, an HTML page needing no network.
python3 - "$S" <<'PY' || fail "the reports are wrong"
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
o = r["metrics"]["overall"]
assert o["samples"] == 4 and o["finished_samples"] == 4, o
assert o["correct_at_k"]["1"] == 0.5, o["correct_at_k"]          # add_custom 2/2, relu_custom 0/2
assert o["compile_at_k"]["1"] == 0.5, o["compile_at_k"]
assert "policy-violation" in o["diagnostic_categories"], o
assert "emulator" in r["timing_source"], r["timing_source"]
tasks = {t["name"]: t for t in r["metrics"]["tasks"]}
assert tasks["add_custom"]["correct_at_k"]["2"] == 1.0 and tasks["relu_custom"]["correct_samples"] == 0
x = ET.parse(d + "/report.xml").getroot()
assert x.tag == "testsuites" and x.get("tests") == "4" and x.get("failures") == "2", x.attrib
h = open(d + "/report.html").read()
assert "<svg" in h and "<script" not in h and "src=" not in h and "emulator estimate" in h
PY
"$KWB" suite report "$S" > "$WORK/report.out" || fail "kwb suite report failed"
grep -q "report.html" "$WORK/report.out" || fail "kwb suite report did not name its files"
"$KWB" suite compare "$S" "$S/report.json" --json > "$WORK/cmp.json" || fail "kwb suite compare failed"
python3 - "$WORK/cmp.json" <<'PY' || fail "comparing a run with itself shows differences"
import json, sys
c = json.load(open(sys.argv[1]))
rows = [r for r in c["rows"] if r["delta"] is not None]
assert rows and all(abs(r["delta"]) < 1e-12 for r in rows), rows[:3]
assert any(r["group"] == "add_custom" and r["metric"] == "correct@1" for r in c["rows"])
PY
echo "ok"
