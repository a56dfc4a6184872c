#!/bin/bash
# SPDX-License-Identifier: MIT
# CLI contract of `kwb eval` and `kwb suite eval`: exit codes 0/1/2 and one JSON document with --json.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/tests/fixtures/tasks/tiny_add"
EXPERT="$SRC/resources/tasks/add_custom/expert_candidate.cpp"
FIX="$SRC/tests/fixtures/candidates"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KWB" eval --task "$WORK/nope" --kernel "$EXPERT" --json > "$WORK/o.json"; rc=$?
[ $rc -eq 2 ] || fail "missing task: exit $rc, expected 2"

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --json --work-dir "$WORK/w1" > "$WORK/pass.json"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/pass.json"; fail "expert: exit $rc, expected 0"; }
python3 - "$WORK/pass.json" <<'PY' || fail "expert JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "pass", d["verdict"]
assert d["ran_on"] == "emulator" and d["seed"] == 5
assert len(d["verify"]["cases"]) == 2 and all(c["passed"] for c in d["verify"]["cases"])
PY

"$KWB" eval --task "$TASK" --kernel "$FIX/zeros.cpp" --json --work-dir "$WORK/w2" > "$WORK/zeros.json"; rc=$?
[ $rc -eq 1 ] || fail "zeros: exit $rc, expected 1"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']=='wrong_answer', d['verdict']" "$WORK/zeros.json" || fail "zeros verdict"

"$KWB" eval --task "$TASK" --kernel "$FIX/policy_breach.cpp" --json --work-dir "$WORK/w3" > "$WORK/policy.json"; rc=$?
[ $rc -eq 1 ] || fail "policy: exit $rc, expected 1"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']=='rejected'; assert d['diagnostics'][0]['category']=='policy-violation'" "$WORK/policy.json" || fail "policy verdict"

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed nope > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "bad seed: exit $rc, expected 2"
echo "eval CLI contract ok"
