#!/bin/bash
# SPDX-License-Identifier: MIT
# An installed copy is relocatable and independent of the source tree: `cmake --install` into a
# prefix, move the prefix, and the installed kwb finds its data, the emulator headers and the runtime
# library relative to itself (doctor says so), and evaluates a built-in task's expert on the emulator.
set -u
KWB="$1"; SRC="$2"
BUILD=$(cd "$(dirname "$KWB")/../.." && pwd)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$BUILD" --prefix "$WORK/first" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "cmake --install"; }
mv "$WORK/first" "$WORK/moved"
P="$WORK/moved"
for f in bin/kwb lib/kernel-workbench/libkwb_sim_runtime.a share/kernel-workbench/emulator/include/kernel_operator.h \
         share/kernel-workbench/resources/tasks/relu_custom/task.json share/kernel-workbench/docs/candidate-contract.md; do
  [ -e "$P/$f" ] || fail "not installed: $f"
done

env -u KWB_DATA_DIR XDG_CACHE_HOME="$WORK/cache" "$P/bin/kwb" doctor --json > "$WORK/doctor.json" || fail "installed doctor exited $?"
python3 - "$WORK/doctor.json" "$P" <<'PY' || fail "installed doctor does not use the moved prefix: $(cat "$WORK/doctor.json")"
import json, sys
d = json.load(open(sys.argv[1])); prefix = sys.argv[2]
c = [c for c in d["checks"] if c["name"] == "emulator runtime"][0]
assert c["status"] == "ok", c
assert c["path"].startswith(prefix), c
assert c["detail"].startswith("installed"), c
PY

TASK="$P/share/kernel-workbench/resources/tasks/relu_custom"
env -u KWB_DATA_DIR XDG_CACHE_HOME="$WORK/cache" KWB_EVAL_CACHE_DIR="$WORK/evalcache" \
  "$P/bin/kwb" eval --task "$TASK" --kernel "$TASK/expert_candidate.cpp" --seed 3 --json --work-dir "$WORK/w" > "$WORK/eval.json"
rc=$?
[ $rc -eq 0 ] || { head -c 3000 "$WORK/eval.json"; fail "installed kwb eval: exit $rc, expected 0"; }
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['verdict']=='pass', d['verdict']" "$WORK/eval.json" || fail "verdict"
grep -q "$SRC/core/emulator" "$WORK/eval.json" && fail "the installed kwb used the source tree's emulator"
echo "ok"
