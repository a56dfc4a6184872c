#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 17, Deliver 4: every emulator estimate on the command line carries the cost model's expected error
# for its kind of kernel (docs/calibration.md, "Expected error of an estimate"): the emulated program's own
# log and `kwb eval` say "≈ X µs ± Y %, emulator estimate".
set -u
KWB="$1"; SRC="$2"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }
LABEL='≈ [0-9.e+]* µs ± [0-9]* %, emulator estimate'

"$KWB" sim build -o "$WORK/mm" --soc Ascend910B3 "$SRC/bench/calibration/matmul.cpp" > "$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; fail "kwb sim build"; }
(cd "$WORK" && KWB_SIM_REPORT="$WORK/mm.json" ./mm) > "$WORK/run.log" 2>&1 || { cat "$WORK/run.log"; fail "program"; }
grep -q "\[INFO\]\[kwb-sim\] calibration_matmul: $LABEL" "$WORK/run.log" \
  || { cat "$WORK/run.log"; fail "the program's log does not give the estimate with its expected error"; }
python3 - "$WORK/mm.json" <<'PY' || fail "report"
import json, sys
p = json.load(open(sys.argv[1]))["profile"]
assert p["kernel_kind"] == "cube" and p["expected_error_pct"] > 0, p
assert p["estimate"].endswith("%, emulator estimate") and "±" in p["estimate"], p["estimate"]
PY

"$KWB" eval --task "$SRC/tests/fixtures/tasks/tiny_add" --kernel "$SRC/resources/tasks/add_custom/expert_candidate.cpp" \
  --work-dir "$WORK/w" > "$WORK/eval.log" 2>&1; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/eval.log"; fail "kwb eval: exit $rc"; }
grep -q "^latency: $LABEL" "$WORK/eval.log" || { cat "$WORK/eval.log"; fail "kwb eval does not give the estimate with its expected error"; }
echo "estimate with expected error ok"
