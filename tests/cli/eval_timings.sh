#!/bin/bash
# SPDX-License-Identifier: MIT
# `kwb eval --timings` (issue 20): where the evaluation's time went, per phase and per case, after the
# report; the same entries in --json's "timings", covering no more than the evaluation's duration when
# the cases run one at a time (side by side, each case's own phases overlap: the same entries, in the
# same order).
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/tests/fixtures/tasks/tiny_add"
EXPERT="$SRC/resources/tasks/add_custom/expert_candidate.cpp"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
export KWB_EVAL_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*"; exit 1; }

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --case-workers 1 --timings > "$WORK/out.txt" 2> "$WORK/err.txt"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/out.txt" "$WORK/err.txt"; fail "expert with --timings: exit $rc, expected 0"; }
python3 - "$WORK/out.txt" <<'PY' || { cat "$WORK/out.txt"; fail "--timings text"; }
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("timings: ")]
assert len(head) == 1, "one 'timings:' header"
m = re.fullmatch(r"timings: (\d+\.\d) ms in all", lines[head[0]])
assert m, lines[head[0]]
total = float(m.group(1))
phases, cases, shares = {}, [], 0.0
for l in lines[head[0] + 1:]:
    p = re.fullmatch(r"  ([a-z-]+) +(\d+\.\d) ms +(\d+\.\d) %(?:  \((\d+) cases?\))?", l)
    c = re.fullmatch(r"  case ([A-Za-z0-9_]+):((?: [a-z-]+ \d+\.\d)+) ms", l)
    if p:
        phases[p.group(1)] = (float(p.group(2)), p.group(4))
        shares += float(p.group(3))
    elif c:
        cases.append(c.group(1))
    else:
        break
for want in ("policy", "prepare", "compile", "reference-build", "inputs", "tiling", "sandbox-setup",
             "emulator", "records", "results", "profile", "reference", "verify"):
    assert want in phases, "phase " + want + " missing: " + str(sorted(phases))
assert phases["emulator"][1] == "2", "the emulator ran for both cases: " + str(phases["emulator"])
assert phases["compile"][1] is None, "compile is not per case"
assert len(cases) == 2, cases
assert abs(sum(ms for ms, _ in phases.values()) - total) <= 0.1 * len(phases) + 0.1, "phases and other sum to the total"
assert 99.0 <= shares <= 101.0, shares
PY

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --case-workers 1 --json > "$WORK/out.json"; rc=$?
[ $rc -eq 0 ] || fail "expert with --json: exit $rc"
python3 - "$WORK/out.json" <<'PY' || fail "--json timings"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["timings"]
assert isinstance(t, list) and t, t
assert all(isinstance(e["phase"], str) and e["ms"] >= 0 for e in t)
assert sum(e["ms"] for e in t) <= d["duration_ms"] + 1.0
assert {e.get("case") for e in t if e["phase"] == "emulator"} == {c["case"] for c in d["runs"]}
PY

# Cases side by side: the same phases for the same cases, in the same order.
"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --case-workers 2 --json > "$WORK/par.json"; rc=$?
[ $rc -eq 0 ] || fail "expert with --case-workers 2: exit $rc"
python3 - "$WORK/out.json" "$WORK/par.json" <<'PY' || fail "--case-workers 2 timings"
import json, sys
serial, par = (json.load(open(f)) for f in sys.argv[1:3])
entries = lambda d: [(e["phase"], e.get("case")) for e in d["timings"]]
assert entries(par) == entries(serial), (entries(par), entries(serial))
assert par["verdict"] == serial["verdict"] == "pass"
PY

# Without the flag the text report has no timings.
"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 > "$WORK/plain.txt" 2>/dev/null
grep -q '^timings: ' "$WORK/plain.txt" && fail "timings printed without --timings"
echo "eval --timings ok"
