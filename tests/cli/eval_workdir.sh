#!/bin/bash
# SPDX-License-Identifier: MIT
# `kwb eval` and `kwb suite eval` clean up after themselves: without --work-dir the work folder is a
# fresh mkdtemp folder removed at the end (nothing left in TMPDIR), --keep-work keeps it, an explicit
# --work-dir is kept, and the JSON report never points at removed files.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/tests/fixtures/tasks/tiny_add"
EXPERT="$SRC/resources/tasks/add_custom/expert_candidate.cpp"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
export KWB_EVAL_CACHE_DIR="$WORK/cache"
export TMPDIR="$WORK/tmp"; mkdir -m 755 "$TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
# What is left in TMPDIR, except the sandbox's own private seccomp-filter folder (kwb-sandbox-UID).
leftovers() { find "$TMPDIR" -mindepth 1 -maxdepth 1 ! -name 'kwb-sandbox-*' | sort; }

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --json > "$WORK/a.json"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/a.json"; fail "default work dir: exit $rc, expected 0"; }
[ -z "$(leftovers)" ] || fail "kwb eval left behind in TMPDIR: $(leftovers)"
python3 - "$WORK/a.json" <<'PY' || fail "report of a removed work folder"
import json, os, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "pass", d["verdict"]
assert d["work_dir_removed"] is True
for k, v in d.get("artifacts", {}).items():
    assert not v.startswith(os.environ["TMPDIR"]), (k, v)
for r in d.get("runs", []):
    assert not r.get("dir"), r.get("dir")
PY

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --json --keep-work > "$WORK/b.json"; rc=$?
[ $rc -eq 0 ] || fail "--keep-work: exit $rc"
kept=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['artifacts']['work_dir'])" "$WORK/b.json") \
  || fail "--keep-work: no work_dir artifact"
case "$kept" in "$TMPDIR"/kwb-eval-*) ;; *) fail "--keep-work: unexpected work dir $kept";; esac
[ -f "$kept/kernel.cpp" ] && [ -x "$kept/kernel_app" ] || fail "--keep-work: $kept does not hold the build"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['work_dir_removed'] is False" "$WORK/b.json" \
  || fail "--keep-work: report says removed"
[ "$(stat -c %a "$kept")" = 700 ] || [ "$(id -u)" = 0 ] || fail "work dir mode $(stat -c %a "$kept"), expected 700"
rm -rf "$kept"

"$KWB" eval --task "$TASK" --kernel "$EXPERT" --seed 5 --json --work-dir "$WORK/explicit" > /dev/null; rc=$?
[ $rc -eq 0 ] || fail "--work-dir: exit $rc"
[ -f "$WORK/explicit/kernel.cpp" ] || fail "an explicit --work-dir must be kept"

mkdir -p "$WORK/suite"; cp -r "$TASK" "$WORK/suite/"; cp "$EXPERT" "$WORK/suite/tiny_add/expert_candidate.cpp"
"$KWB" suite eval "$WORK/suite" --reference --json > "$WORK/s.json"; rc=$?
[ $rc -eq 0 ] || { cat "$WORK/s.json"; fail "suite: exit $rc"; }
[ -z "$(leftovers)" ] || fail "kwb suite eval left behind in TMPDIR: $(leftovers)"

# The cache folder is verified before use: a symlink is refused with a clear message.
ln -s "$WORK/cache" "$WORK/cachelink"
KWB_EVAL_CACHE_DIR="$WORK/cachelink" "$KWB" eval --task "$TASK" --kernel "$EXPERT" > "$WORK/l.out" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "symlinked cache: exit $rc, expected 2"
grep -q "symbolic link" "$WORK/l.out" || fail "symlinked cache: no clear message: $(cat "$WORK/l.out")"
echo "eval work folders ok"
