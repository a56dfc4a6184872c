#!/bin/bash
# SPDX-License-Identifier: MIT
# The built-in cube task (issue 14): matmul_f16_f32 passes with its expert candidate on the emulator, the
# profile shows the cube pipes, and a candidate that feeds B to L0B without transposing its fractals (ND
# where Zn is required) is a wrong answer, as it would be on the device.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/matmul_f16_f32"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KWB" eval --task "$TASK" --kernel "$TASK/expert_candidate.cpp" --seed 14 --json --work-dir "$WORK/w1" > "$WORK/pass.json"; rc=$?
[ $rc -eq 0 ] || { head -c 4000 "$WORK/pass.json"; fail "expert: exit $rc, expected 0"; }
python3 - "$WORK/pass.json" <<'PY' || fail "expert JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "pass", d["verdict"]
assert d["ran_on"] == "emulator"
cases = d["verify"]["cases"]
assert len(cases) == 6 and all(c["passed"] for c in cases), [c.get("name") for c in cases if not c["passed"]]
text = json.dumps(d)
for pipe in ('"M"', '"MTE1"', '"FIX"'):
    assert pipe in text, "profile lacks the cube pipe " + pipe
PY

sed 's/LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0)/LoadData2DParams(i, nBlocks, kBlocks, 0, 0, false, 0)/' \
  "$TASK/expert_candidate.cpp" > "$WORK/no_transpose.cpp"
grep -q "kBlocks, 0, 0, false, 0));" "$WORK/no_transpose.cpp" || fail "mutation did not apply"
"$KWB" eval --task "$TASK" --kernel "$WORK/no_transpose.cpp" --seed 14 --json --work-dir "$WORK/w2" > "$WORK/bad.json"; rc=$?
[ $rc -eq 1 ] || fail "untransposed B: exit $rc, expected 1"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']=='wrong_answer', d['verdict']" "$WORK/bad.json" || fail "untransposed B verdict"
echo PASS
