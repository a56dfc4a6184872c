#!/bin/bash
# SPDX-License-Identifier: MIT
# The built-in attention task (issue 14): flash_attention_fwd passes with its mixed AIC/AIV expert
# candidate on the emulator (7 cases, causal and not, the profile shows a mix kernel with cube and vector
# pipes), and two broken flash-attention variants are wrong answers: one that never adds the causal/tail
# mask, one that never rescales the accumulator when the running row maximum grows.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/flash_attention_fwd"
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
assert len(cases) == 7 and all(c["passed"] for c in cases), [c.get("case") for c in cases if not c["passed"]]
assert d["profile"]["kernel_kind"] == "mix", d["profile"]["kernel_kind"]
kinds = {b["core_kind"] for b in d["profile"]["blocks"]}
assert kinds == {"AIC", "AIV"}, kinds
text = json.dumps(d)
for pipe in ('"M"', '"MTE1"', '"FIX"', '"V"'):
    assert pipe in text, "profile lacks the pipe " + pipe
PY

# wrong_variant NAME FROM TO: the expert with one line changed must be a wrong answer in the cases it breaks.
wrong_variant() {
  local name="$1" from="$2" to="$3"
  sed "s/$from/$to/" "$TASK/expert_candidate.cpp" > "$WORK/$name.cpp"
  grep -qF "$to" "$WORK/$name.cpp" || fail "$name: mutation did not apply"
  cmp -s "$TASK/expert_candidate.cpp" "$WORK/$name.cpp" && fail "$name: mutation changed nothing"
  "$KWB" eval --task "$TASK" --kernel "$WORK/$name.cpp" --seed 14 --json --work-dir "$WORK/w-$name" > "$WORK/$name.json"; rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1"
  python3 - "$WORK/$name.json" "$name" <<'PY' || fail "$name verdict"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "wrong_answer", d["verdict"]
failed = sorted(c["case"] for c in d["verify"]["cases"] if not c["passed"])
print(sys.argv[2], "fails", failed)
if sys.argv[2] == "no_mask":
    # Every causal case, and the non-causal ones whose last key tile is short (d64_s129_h1).
    assert {"d64_s77_h3_causal", "d128_s300_h2_causal", "d64_s2048_h2_causal", "d64_s129_h1"} <= set(failed), failed
else:
    assert len(failed) >= 4, failed
PY
}
wrong_variant no_mask 'if (masked) Add(s, s, mask, n);' 'if (false) Add(s, s, mask, n);'
wrong_variant no_rescale 'Muls(acc\[r \* d\], acc\[r \* d\], alpha.GetValue(r),' 'Muls(acc[r * d], acc[r * d], 1.0f,'
echo PASS
