#!/bin/bash
# SPDX-License-Identifier: MIT
# Edit-to-verdict turnaround of `kwb eval` on a built-in task (issue 20), per phase from --json's
# "timings": cold (an empty build cache), warm (the same candidate again: everything cached) and edit
# (the candidate changed by one comment line: what an agent's next iteration costs), ROUNDS times each,
# the minimum kept (interference only ever adds time).
#   bench/eval_turnaround.sh KWB [TASK] [ROUNDS]
set -eu
KWB=$(realpath "$1"); TASK=${2:-resources/tasks/add_custom}; ROUNDS=${3:-3}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
for kind in cold warm edit; do
  for r in $(seq "$ROUNDS"); do
    cp "$TASK/expert_candidate.cpp" "$WORK/kernel.cpp"
    case $kind in
      cold) export KWB_EVAL_CACHE_DIR="$WORK/cache-cold-$r" ;;
      warm) export KWB_EVAL_CACHE_DIR="$WORK/cache-warm"
            [ -d "$WORK/cache-warm" ] || "$KWB" eval --task "$TASK" --kernel "$WORK/kernel.cpp" --seed 1 --json > /dev/null || true ;;
      edit) export KWB_EVAL_CACHE_DIR="$WORK/cache-warm"
            echo "// edit $r $(date +%s%N)" >> "$WORK/kernel.cpp" ;;
    esac
    s=$(date +%s%N)
    "$KWB" eval --task "$TASK" --kernel "$WORK/kernel.cpp" --seed 1 --json > "$WORK/$kind-$r.json" || true
    e=$(date +%s%N)
    echo "$(( (e - s) / 1000000 ))" > "$WORK/$kind-$r.wall"
  done
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import json, sys, os
work, rounds = sys.argv[1], int(sys.argv[2])
for kind in ("cold", "warm", "edit"):
    best = None
    for r in range(1, rounds + 1):
        d = json.load(open(os.path.join(work, f"{kind}-{r}.json")))
        wall = int(open(os.path.join(work, f"{kind}-{r}.wall")).read())
        if best is None or wall < best[0]:
            best = (wall, d)
    wall, d = best
    phases = {}
    for t in d.get("timings", []):
        phases[t["phase"]] = phases.get(t["phase"], 0.0) + t["ms"]
    print(f"{kind}: verdict {d.get('verdict')}, wall {wall} ms (min of {rounds}), evaluate() {d.get('duration_ms', 0):.0f} ms")
    for p, ms in phases.items():
        print(f"  {p:<16}{ms:9.1f} ms")
PY
