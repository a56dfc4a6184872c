#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb task import --from kernelbench FILE.py` (docs/task-format.md, "Importing a
# KernelBench problem"): the relu problem becomes a task whose python3-torch reference passes the expert
# candidate and fails a wrong one under `kwb eval`, and which `kwb suite run` drives; problems with init
# inputs, float16 and bfloat16 import; every refusal exits 2 naming the file, the line and why.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
fx="$root/tests/fixtures/kernelbench"
tmp=$(mktemp -d)
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# 1. relu: get_inputs() gives the first case, --shape an extra one whose output shape torch derives.
out=$("$kwb" task import --from kernelbench "$fx/relu.py" --shape x=3x333 --out "$tmp/relu") || fail "import: $out"
for f in task.json reference.py kernelbench_problem.py; do [ -f "$tmp/relu/$f" ] || fail "missing $f"; done
"$kwb" task validate "$tmp/relu" > "$tmp/validate.out" || fail "the imported task does not validate"
grep -q "no reference.cpp" "$tmp/validate.out" && fail "validate does not see reference.py: $(cat "$tmp/validate.out")"
python3 - "$tmp/relu/task.json" <<'PY' || fail "task.json is not what relu.py describes"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["name"] == "relu", t["name"]
assert [(i["name"], i["dtype"]) for i in t["inputs"]] == [("x", "float32")], t["inputs"]
assert [(o["name"], o["dtype"]) for o in t["outputs"]] == [("out", "float32")], t["outputs"]
cases = {c["name"]: c["shapes"] for c in t["cases"]}
assert cases == {"get_inputs": {"x": [16, 4096], "out": [16, 4096]},
                 "shape_1": {"x": [3, 333], "out": [3, 333]}}, cases
PY

# 2. The torch reference judges candidates: the expert passes, a kernel computing |x| fails.
"$kwb" eval --task "$tmp/relu" --kernel "$fx/relu_expert.cpp" --seed 5 > "$tmp/pass.out" 2>&1 ||
  fail "the expert does not pass against the torch reference: $(head -20 "$tmp/pass.out")"
grep -q "verdict: pass" "$tmp/pass.out" || fail "no pass verdict: $(head -5 "$tmp/pass.out")"
sed 's/Relu(y, x, n);/Abs(y, x, n);/' "$fx/relu_expert.cpp" > "$tmp/wrong.cpp"
grep -q "Abs(y, x, n)" "$tmp/wrong.cpp" || fail "the wrong candidate is not wrong"
set +e
"$kwb" eval --task "$tmp/relu" --kernel "$tmp/wrong.cpp" --seed 5 > "$tmp/wrong.out" 2>&1; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a wrong candidate exited $rc, want 1: $(head -5 "$tmp/wrong.out")"
grep -q "verdict: wrong_answer" "$tmp/wrong.out" || fail "no wrong_answer verdict: $(head -5 "$tmp/wrong.out")"

# 3. `kwb suite run` on the imported task (the test LLM server answers with the expert kernel).
python3 - "$fx/relu_expert.cpp" "$tmp/script.json" <<'PY'
import json, sys
code = open(sys.argv[1]).read()
text = "A float32 ReLU with DataCopyPad tails.\n\n```cpp kernel\n" + code + "```\n"
json.dump({"replies": [], "fallback": {"text": text, "chunk_chars": 400, "prompt_tokens": 100,
                                       "completion_tokens": 50}}, open(sys.argv[2], "w"))
PY
server="$(dirname "$kwb")/../../tests/support/kwb-llm-test-server"
"$server" "$tmp/script.json" > "$tmp/port" 2> "$tmp/server.err" & SERVER_PID=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
port=$(head -1 "$tmp/port")
[ -n "$port" ] || fail "the test server printed no port: $(cat "$tmp/server.err")"
"$kwb" suite run "$tmp/relu" --provider openai --base-url "http://127.0.0.1:$port/v1" --model test-model \
  --api-key-env KWB_KERNELBENCH_UNSET_KEY --samples 1 --max-iterations 1 --seed 5 --no-expert \
  --out "$tmp/suite" > "$tmp/suite.out" 2>&1 || fail "kwb suite run on the imported task: $(tail -20 "$tmp/suite.out")"
python3 - "$tmp/suite/report.json" <<'PY' || fail "the suite report does not show relu correct: $(tail -5 "$tmp/suite.out")"
import json, sys
r = json.load(open(sys.argv[1]))
tasks = {t["name"]: t for t in r["metrics"]["tasks"]}
assert tasks["relu"]["correct_samples"] == 1 and tasks["relu"]["samples"] == 1, tasks
PY

# 4. Init inputs and other float dtypes import; the extra case name comes from a --cases file.
echo '[{"name": "wide", "shapes": {"x": [4, 2048]}}]' > "$tmp/cases.json"
"$kwb" task import --from kernelbench "$fx/scaled_sigmoid.py" --cases "$tmp/cases.json" --out "$tmp/sig" >/dev/null ||
  fail "scaled_sigmoid.py does not import"
"$kwb" task import --from kernelbench "$fx/sum_rows.py" --out "$tmp/sum" >/dev/null || fail "sum_rows.py does not import"
"$kwb" task import --from kernelbench "$fx/add.py" --shape a=8x100 --out "$tmp/add" >/dev/null || fail "add.py does not import"
python3 - "$tmp/sig/task.json" "$tmp/sum/task.json" "$tmp/add/task.json" <<'PY' || fail "init inputs / dtypes / derived shapes wrong"
import json, sys
sig, s, add = (json.load(open(p)) for p in sys.argv[1:])
# b is not named by --shape but shared a's get_inputs() shape, so it follows a.
assert [i["dtype"] for i in add["inputs"]] == ["float16", "float16"], add["inputs"]
assert add["cases"][1]["shapes"] == {"a": [8, 100], "b": [8, 100], "out": [8, 100]}, add["cases"]
assert sig["inputs"][0]["dtype"] == "bfloat16" and "Model(1.5)" in sig["description"], sig
assert {c["name"]: c["shapes"]["out"] for c in sig["cases"]} == {"get_inputs": [32, 512], "wide": [4, 2048]}, sig
assert s["outputs"][0]["dtype"] == "bfloat16" and s["cases"][0]["shapes"]["out"] == [16, 1], s
PY

# 5. Refusals: exit 2, nothing written, the message names file:line and why.
refused() {  # $1 fixture, $2 text the message must contain
  set +e
  "$kwb" task import --from kernelbench "$fx/$1" --out "$tmp/refused_$1" > /dev/null 2> "$tmp/err"; local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2 ($(cat "$tmp/err"))"
  grep -qF -- "$2" "$tmp/err" || fail "$1: no \"$2\" in: $(cat "$tmp/err")"
  [ ! -e "$tmp/refused_$1/task.json" ] || fail "$1: a refused problem wrote a task"
}
refused conv2d.py "conv2d.py:18: error: [invalid-param] forward() calls torch conv2d, which needs the cube unit"
refused matmul.py "matmul.py:16: error: [invalid-param] forward() calls torch matmul, which needs the cube unit"
refused int_dtype.py "input x is int64: only float32, float16 and bfloat16 tensors are imported"
refused malformed.py "malformed.py:8: error: [invalid-param] not a KernelBench problem: not valid Python"
refused not_a_problem.py "not a KernelBench problem: no module-level Model"
refused half_sigmoid.py "half_sigmoid.py:18: error: [invalid-param] cannot import: forward() failed on get_inputs()"
grep -qF "no float16 kernel for this op" "$tmp/err" || fail "half_sigmoid.py: no hint about float16 on the CPU"
refused failing_inputs.py "failing_inputs.py:17: error: [invalid-param] cannot import: get_inputs() failed"
set +e
err=$("$kwb" task import --from kernelbench "$fx/relu.py" --shape x=3xq --out "$tmp/badshape" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a bad --shape exited $rc, want 2"
case "$err" in *'"3xq" is not a shape'*) ;; *) fail "bad --shape message: $err";; esac
echo "ok"
