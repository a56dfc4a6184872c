#!/bin/bash
# SPDX-License-Identifier: MIT
# A damaged session is never rewritten away from what cannot be read (docs/reliability.md, "Damaged
# sessions"): `kwb run --session` refuses it with exit 2 naming the damage and changes nothing;
# `kwb session show` exits 1 while it reports damage; `--repair` moves the damaged iteration into
# SESSION/damaged-<time>/ byte for byte and resumes. A folder a run left before its first session.json
# is resumed; one with foreign files is refused naming the file.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/add_custom"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
export TMPDIR="$WORK/tmp"; mkdir -m 755 "$TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/replay.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
json.dump({"responses": [{"text": lesson["steps"][0]["reply"]}]}, open(sys.argv[2], "w"))
PY
run() { "$KWB" run --task "$TASK" --provider replay --replay "$WORK/replay.json" --seed 3 "$@"; }
S="$WORK/s"

run --max-iterations 1 --session "$S" > /dev/null 2> "$WORK/first.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/first.err"; fail "first run: exit $rc, expected 1 (no passing candidate)"; }
"$KWB" session show "$S" > /dev/null; rc=$?
[ $rc -eq 0 ] || fail "session show of a healthy session: exit $rc, expected 0"

# Damage: iteration.json cut short.
IT="$S/iterations/0001/iteration.json"
head -c 120 "$IT" > "$WORK/cut" && cp "$WORK/cut" "$IT"
cp "$S/session.json" "$WORK/index.before"
"$KWB" session show "$S" > "$WORK/show.out"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/show.out"; fail "session show of a damaged session: exit $rc, expected 1"; }
grep -q "error: $IT" "$WORK/show.out" || fail "session show does not name the damaged file: $(cat "$WORK/show.out")"
"$KWB" session show "$S" --json > "$WORK/show.json"; rc=$?
[ $rc -eq 1 ] || fail "session show --json of a damaged session: exit $rc, expected 1"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["damaged"] is True and d["problems"], d' \
  "$WORK/show.json" || fail "session show --json does not report the damage"

run --max-iterations 2 --session "$S" > /dev/null 2> "$WORK/refused.err"; rc=$?
[ $rc -eq 2 ] || { cat "$WORK/refused.err"; fail "resume of a damaged session: exit $rc, expected 2"; }
grep -q "is damaged; nothing was changed" "$WORK/refused.err" || fail "no refusal message: $(cat "$WORK/refused.err")"
grep -q "$IT" "$WORK/refused.err" || fail "the refusal does not name the damaged file"
grep -q -- "--repair" "$WORK/refused.err" || fail "the refusal does not say how to repair"
cmp -s "$S/session.json" "$WORK/index.before" || fail "the refused resume rewrote session.json"
cmp -s "$IT" "$WORK/cut" || fail "the refused resume changed the damaged file"

run --max-iterations 1 --repair --session "$S" > /dev/null 2> "$WORK/repair.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/repair.err"; fail "resume with --repair: exit $rc, expected 1"; }
grep -q "repaired session" "$WORK/repair.err" || fail "no repair report: $(cat "$WORK/repair.err")"
MOVED=$(ls -d "$S"/damaged-*/iterations/0001 2>/dev/null | head -1)
[ -n "$MOVED" ] || fail "the damaged iteration was not moved aside: $(ls -R "$S")"
cmp -s "$MOVED/iteration.json" "$WORK/cut" || fail "the moved iteration.json is not the damaged file"
cmp -s "$(dirname "$(dirname "$MOVED")")/session.json" "$WORK/index.before" || fail "no copy of the old session.json"
grep -q "$IT" "$(dirname "$(dirname "$MOVED")")/damage.txt" || fail "damage.txt does not name the damaged file"
"$KWB" session show "$S" --json > "$WORK/after.json"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/after.json"; fail "session show after the repair: exit $rc, expected 0"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [t["id"] for t in d["tree"]] == [2], d["tree"]' \
  "$WORK/after.json" || fail "after the repair the new iteration must take id 2 (1 stays reserved)"

# A run killed before its first session.json: session.lock, an empty iterations/, a temporary index.
P="$WORK/partial"; mkdir -p "$P/iterations"; echo 4242 > "$P/session.lock"; echo '{"trunc' > "$P/.tmp-4242-0-session.json"
run --max-iterations 1 --session "$P" > /dev/null 2> "$WORK/partial.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/partial.err"; fail "resume of an early-killed folder: exit $rc, expected 1"; }
grep -q "partial files of a run stopped before it wrote session.json" "$WORK/partial.err" || fail "no note on the partial folder"
[ ! -e "$P/.tmp-4242-0-session.json" ] || fail "the temporary index was left"
F="$WORK/foreign"; mkdir -p "$F/iterations"; echo 4242 > "$F/session.lock"; echo notes > "$F/notes.txt"
run --max-iterations 1 --session "$F" > /dev/null 2> "$WORK/foreign.err"; rc=$?
[ $rc -eq 2 ] || { cat "$WORK/foreign.err"; fail "folder with foreign files: exit $rc, expected 2"; }
grep -q "it holds notes.txt" "$WORK/foreign.err" || fail "the refusal does not name the foreign file: $(cat "$WORK/foreign.err")"
[ -f "$F/notes.txt" ] || fail "the foreign file was touched"
echo PASS
