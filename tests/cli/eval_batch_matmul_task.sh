#!/bin/bash
# SPDX-License-Identifier: MIT
# The built-in batched cube task (issue 14): batch_matmul_f16_f32 passes with its expert candidate on the
# emulator, and a candidate that forgets to offset a by the batch (every batch multiplies batch 0's a)
# is a wrong answer.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/batch_matmul_f16_f32"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KWB" eval --task "$TASK" --kernel "$TASK/expert_candidate.cpp" --seed 21 --json --work-dir "$WORK/w1" > "$WORK/pass.json"; rc=$?
[ $rc -eq 0 ] || { head -c 4000 "$WORK/pass.json"; fail "expert: exit $rc, expected 0"; }
python3 - "$WORK/pass.json" <<'PY' || fail "expert JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "pass", d["verdict"]
assert d["ran_on"] == "emulator"
cases = d["verify"]["cases"]
assert len(cases) == 5 and all(c["passed"] for c in cases), [c.get("case") for c in cases if not c["passed"]]
PY

sed 's/aGm\[aOff_ + /aGm[/' "$TASK/expert_candidate.cpp" > "$WORK/no_batch_offset.cpp"
grep -qF 'DataCopy(a1, aGm[static_cast<uint64_t>(m0) * k_ + k0]' "$WORK/no_batch_offset.cpp" || fail "mutation did not apply"
"$KWB" eval --task "$TASK" --kernel "$WORK/no_batch_offset.cpp" --seed 21 --json --work-dir "$WORK/w2" > "$WORK/wrong.json"; rc=$?
[ $rc -eq 1 ] || fail "no_batch_offset: exit $rc, expected 1"
python3 - "$WORK/wrong.json" <<'PY' || fail "no_batch_offset JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "wrong_answer", d["verdict"]
failed = [c["case"] for c in d["verify"]["cases"] if not c["passed"]]
# One batch alone has nothing to offset: only the multi-batch cases fail.
assert "one_batch_1x256x384x200" not in failed and len(failed) >= 3, failed
PY
echo PASS
