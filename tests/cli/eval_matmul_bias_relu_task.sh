#!/bin/bash
# SPDX-License-Identifier: MIT
# The built-in fused cube task (issue 14): matmul_bias_relu passes with its expert candidate on the
# emulator, and candidates that drop the bias (plain Mmad) or the ReLU (Fixpipe reluEn false) are wrong
# answers.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/matmul_bias_relu"
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
assert len(cases) == 5 and all(c["passed"] for c in cases), [c.get("case") for c in cases if not c["passed"]]
PY

expect_wrong() {  # name, sed expression, text the mutation must produce
  sed "$2" "$TASK/expert_candidate.cpp" > "$WORK/$1.cpp"
  grep -qF "$3" "$WORK/$1.cpp" || fail "$1: mutation did not apply"
  "$KWB" eval --task "$TASK" --kernel "$WORK/$1.cpp" --seed 14 --json --work-dir "$WORK/w_$1" > "$WORK/$1.json"; rc=$?
  [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']=='wrong_answer', d['verdict']" "$WORK/$1.json" || fail "$1 verdict"
}
expect_wrong no_bias 's/Mmad(c1, a2, b2, bias2, p);/Mmad(c1, a2, b2, p);/' "Mmad(c1, a2, b2, p);  // C starts"
expect_wrong no_relu 's/n_, true);  \/\/ reluEn/n_, false);  \/\/ reluEn/' "n_, false);  // reluEn"
echo PASS
