#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb lesson` (docs/lessons.md): list in course order, exercise prompt and hints,
# check grades (0 solved, 1 not yet, 2 bad input), make turns a played session into a draft that plays.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$kwb" lesson list --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin); names = [l["name"] for l in d["lessons"]]
assert len(names) >= 13 and names[0] == "first-kernel" and "matmul" in names, names' || fail "list --json"

"$kwb" lesson exercise tile-size --hints 1 --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["hints"]) == 1 and d["hints_total"] >= 2 and "solution" not in d and d["target_us"] > 0, d' \
  || fail "exercise --json"
# Captured first: grep -q stops reading at the first match, and pipefail would then report kwb's SIGPIPE.
solution_text=$("$kwb" lesson exercise tile-size --solution)
grep -q "Reference solution" <<<"$solution_text" || fail "exercise --solution"

ex="$root/resources/lessons/first-kernel"
set +e
"$kwb" lesson check first-kernel --kernel "$ex/exercise-start.cpp" >"$tmp/start.txt"; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "starting kernel graded $rc, want 1"
grep -q "^not yet: wrong_answer" "$tmp/start.txt" || fail "starting kernel summary: $(head -1 "$tmp/start.txt")"
"$kwb" lesson check first-kernel --kernel "$ex/exercise-solution.cpp" --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin); assert d["passed"] and d["verdict"] == "pass", d' || fail "solution does not pass"
set +e
err=$("$kwb" lesson check first-kernel --kernel "$tmp/none.cpp" 2>&1); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "missing kernel exited $rc, want 2"
case "$err" in *"$tmp/none.cpp"*) ;; *) fail "error does not name the kernel file: $err";; esac

"$kwb" lesson play first-kernel --session "$tmp/session" >/dev/null || fail "play first-kernel"
"$kwb" lesson make "$tmp/session" --steps 1,2 --out "$tmp/draft" >/dev/null || fail "make"
grep -q '"TODO' "$tmp/draft/lesson.json" || fail "draft has no TODO placeholders"
"$kwb" lesson play "$tmp/draft" --session "$tmp/replayed" >/dev/null || fail "the draft does not replay"
set +e
err=$("$kwb" lesson make "$tmp/session" --steps 1,x --out "$tmp/draft2" 2>&1); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "bad --steps exited $rc, want 2"
case "$err" in *'--steps element 2 "x"'*) ;; *) fail "error does not name the bad step: $err";; esac
echo ok
