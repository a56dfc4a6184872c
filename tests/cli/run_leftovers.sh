#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb run leaves nothing behind (docs/reliability.md, "Leftovers"): no scratch in TMPDIR after a clean
# end or SIGTERM; a kill -9 while compiling leaves no compiler running (the process group dies with
# kwb); the scratch folder a killed run left is removed by the next run, and a folder that is not
# provably a dead kwb's own (no marker, a live owner, a symlink) is left alone.
set -u
KWB="$1"; SRC="$2"
TASK="$SRC/resources/tasks/add_custom"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
export TMPDIR="$WORK/tmp"; mkdir -m 755 "$TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
scratch() { find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'kwb-agent-*' | sort; }
python3 - "$SRC/resources/lessons/unaligned-tail/lesson.json" "$WORK/replay.json" <<'PY'
import json, sys
lesson = json.load(open(sys.argv[1]))
json.dump({"responses": [{"text": s["reply"]} for s in lesson["steps"]]}, open(sys.argv[2], "w"))
PY
RUN=("$KWB" run --task "$TASK" --provider replay --replay "$WORK/replay.json" --seed 3)
run() { "${RUN[@]}" "$@"; }  # in the background use "${RUN[@]}" itself, so that $! is kwb
# Descendants of $1 as "pid:starttime" (field 22 of /proc/PID/stat names a process for the boot).
descendants() {
  ps -eo pid=,ppid= | awk -v root="$1" '{ parent[$1] = $2 } END {
    for (p in parent) { q = p; while (q in parent && q != root && q > 1) q = parent[q]; if (q == root && p != root) print p } }' |
    while read -r k; do echo "$k:$(cut -d' ' -f22 "/proc/$k/stat" 2>/dev/null):$(cat "/proc/$k/comm" 2>/dev/null)"; done
}
# Still running (a zombie waiting for its reaper runs nothing).
alive() {
  local pid=${1%%:*} rest=${1#*:} stat; stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  stat=${stat##*) }; [ "${stat%% *}" != Z ] && [ "$(echo "$stat" | cut -d' ' -f20)" = "${rest%%:*}" ]
}

# 1. A clean end removes the scratch.
run --max-iterations 1 --session "$WORK/s1" > /dev/null 2> "$WORK/s1.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/s1.err"; fail "clean run: exit $rc, expected 1"; }
[ -z "$(scratch)" ] || fail "a clean run left $(scratch)"

# 2. SIGTERM while compiling: the run stops, says how to resume, exits 143 and removes its scratch.
"${RUN[@]}" --max-iterations 2 --session "$WORK/s2" > /dev/null 2> "$WORK/s2.err" & P=$!
for _ in $(seq 300); do grep -q "#1 compiling" "$WORK/s2.err" && break; sleep 0.05; done
kill -TERM $P; wait $P; rc=$?
[ $rc -eq 143 ] || { cat "$WORK/s2.err"; fail "SIGTERM: exit $rc, expected 143"; }
grep -q "stopped by signal 15; resume with --session" "$WORK/s2.err" || fail "no stop message: $(cat "$WORK/s2.err")"
[ -z "$(scratch)" ] || fail "SIGTERM left $(scratch)"
"$KWB" session show "$WORK/s2" > /dev/null || fail "the session stopped by SIGTERM is not healthy"

# 3. kill -9 while the compiler runs (a fresh evaluation cache, so that it does compile): no process of
# that run survives it by more than 300 ms. Under bubblewrap (--die-with-parent) and without it: a PATH
# without bwrap makes kwb fall back to rlimits only, where nothing but kwb's own watchdog kills g++.
mkdir "$WORK/nobwrap"
for f in /usr/bin/* /bin/*; do n=$(basename "$f"); [ "$n" = bwrap ] || [ -e "$WORK/nobwrap/$n" ] || ln -s "$f" "$WORK/nobwrap/$n"; done
killWhileCompiling() {  # $1: label, $2: PATH
  PATH="$2" KWB_EVAL_CACHE_DIR="$WORK/cache-$1" "${RUN[@]}" --max-iterations 1 --session "$WORK/s3-$1" > /dev/null 2> "$WORK/s3-$1.err" & P=$!
  TREE=""
  for _ in $(seq 600); do
    TREE=$(descendants $P)
    echo "$TREE" | grep -qE ':(cc1plus|g\+\+|c\+\+)$' && break
    sleep 0.02
  done
  echo "$TREE" | grep -qE ':(cc1plus|g\+\+|c\+\+)$' || { cat "$WORK/s3-$1.err"; fail "$1: never saw the compiler run: $TREE"; }
  if [ "$1" = rlimits ]; then echo "$TREE" | grep -q ':bwrap$' && fail "rlimits: bwrap was used: $TREE"; fi
  kill -KILL $P; wait $P 2>/dev/null
  sleep 0.3
  for p in $TREE; do alive "$p" && fail "$1: still running 300 ms after kill -9 of kwb: $p (of: $(echo $TREE))"; done
  "$KWB" session show "$WORK/s3-$1" > /dev/null || fail "$1: the session killed while compiling is not healthy"
}
killWhileCompiling bwrap "$PATH"
killWhileCompiling rlimits "$WORK/nobwrap"
[ -n "$(scratch)" ] || fail "expected the killed runs' scratch folders (the next run removes them)"
LEFT=$(scratch | head -1)
[ -f "$LEFT/.kwb-owner" ] || fail "no owner marker in $LEFT"

# 4. Folders not provably a dead kwb's own are kept: no marker, a live owner, a symlink to a dead one.
mkdir "$TMPDIR/kwb-agent-nomarker"
mkdir "$TMPDIR/kwb-agent-live"; sed "s/^pid .*/pid $$/; s/^start .*/start $(cut -d' ' -f22 /proc/$$/stat)/" \
  "$LEFT/.kwb-owner" > "$TMPDIR/kwb-agent-live/.kwb-owner"
mkdir "$WORK/target"; cp "$LEFT/.kwb-owner" "$WORK/target/"; ln -s "$WORK/target" "$TMPDIR/kwb-agent-link"
run --max-iterations 1 --session "$WORK/s4" > /dev/null 2> "$WORK/s4.err"; rc=$?
[ $rc -eq 1 ] || { cat "$WORK/s4.err"; fail "run after the kill: exit $rc, expected 1"; }
[ ! -e "$LEFT" ] || fail "the next run did not remove the killed run's $LEFT"
[ "$(scratch | grep -c -v -e nomarker -e live -e link)" = 0 ] || fail "killed runs' scratch left: $(scratch)"
for d in nomarker live link; do [ -e "$TMPDIR/kwb-agent-$d" ] || fail "removed kwb-agent-$d, which is not provably ours"; done
[ -f "$WORK/target/.kwb-owner" ] || fail "followed the symlink"
echo PASS
