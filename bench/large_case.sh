#!/bin/bash
# SPDX-License-Identifier: MIT
# One case of N float32 elements (default 10^8) through `kwb eval` on the emulator: the div_custom task
# with its cases replaced by that one, its expert candidate, --timings, and the peak resident memory of
# kwb itself (GNU time). Usage: bench/large_case.sh KWB [N]   (docs/benchmarks.md, "Cases of 10^8 elements")
set -eu
KWB="$1"; N="${2:-100000000}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
cp -r "$SRC/resources/tasks/div_custom" "$WORK/task"
python3 - "$WORK/task/task.json" "$N" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
t["cases"] = [{"name": "huge", "shapes": {"x": [n], "y": [n], "z": [n]},
               "tensor_values": {"y": {"distribution": "uniform", "low": 1, "high": 10}}}]
json.dump(t, open(sys.argv[1], "w"))
PY
chmod -R a+rX "$WORK/task"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, peak RSS of kwb %M KiB" \
  "$KWB" eval --task "$WORK/task" --kernel "$WORK/task/expert_candidate.cpp" --seed 1 --timings \
  --work-dir "$WORK/eval" 2>&1 | grep -v "^ *note" | cut -c1-200
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
