#!/bin/bash
# SPDX-License-Identifier: MIT
# A case beyond the old 16 Mi-element / 64 MiB caps (issue 20, "Scale of inputs"; docs/task-format.md,
# "Size limits"): it validates, evaluates to a pass on the emulator, and reports its steps as progress
# lines while it runs (inputs by tenths, the kernel, the reference, the verification).
set -u
KWB="$1"; SRC="$2"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }

cp -r "$SRC/resources/tasks/div_custom" "$WORK/task"
# 17,000,000 float32 elements: 68 MB per tensor, over the old 64 MiB cap; 204 MB in all.
python3 - "$WORK/task/task.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
n = 17000000
t["cases"] = [{"name": "large_17M", "shapes": {"x": [n], "y": [n], "z": [n]},
               "tensor_values": {"y": {"distribution": "uniform", "low": 1, "high": 10}}}]
json.dump(t, open(sys.argv[1], "w"))
PY
chmod -R a+rX "$WORK/task"
"$KWB" task validate "$WORK/task" > "$WORK/validate.txt" 2>&1 || { cat "$WORK/validate.txt"; fail "the large case does not validate"; }

"$KWB" eval --task "$WORK/task" --kernel "$WORK/task/expert_candidate.cpp" --seed 3 > "$WORK/out.txt" 2> "$WORK/err.txt"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/out.txt" "$WORK/err.txt"; fail "expert on the large case: exit $rc, expected 0"; }
grep -q "^pass: 1/1 cases pass" "$WORK/out.txt" || { cat "$WORK/out.txt"; fail "the large case does not pass"; }
grep -Eq "case large_17M: inputs [1-9]0 %" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "no progress while drawing the inputs"; }
for want in "case large_17M: drawing 130 MiB of inputs" "case large_17M: inputs drawn; writing the case's files" \
            "case large_17M: running the kernel" "case large_17M: the kernel ran; computing the reference" \
            "case large_17M: reference done; verifying"; do
  grep -q "$want" "$WORK/err.txt" || { cat "$WORK/err.txt"; fail "no progress line '$want'"; }
done
# A large case is not written to the case cache (drawing it again is cheaper than hashing it).
if ls "$WORK/cache/cases" 2>/dev/null | grep -q "^inputs-"; then fail "the large case's inputs were cached"; fi
echo "PASS"
