#!/bin/bash
# SPDX-License-Identifier: MIT
# Edit-to-verdict turnaround of `kwb eval` on a built-in task (issue 20), per phase from --json's
# "timings": cold (an empty evaluation cache), warm (the same candidate again: everything cached) and
# edit (the candidate changed by one comment line: what an agent's next iteration costs), ROUNDS times
# each, the minimum kept (interference only ever adds time). With a second binary (BEFORE), both run
# interleaved in every round, each with its own caches, so that the machine's load falls on both alike.
#   bench/eval_turnaround.sh KWB [TASK] [ROUNDS] [BEFORE]
set -eu
KWB=$(realpath "$1"); TASK=${2:-resources/tasks/add_custom}; ROUNDS=${3:-3}
BEFORE=${4:+$(realpath "$4")}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # sandboxed programs may run as another user and must reach the work folder
BINS="after"; [ -n "$BEFORE" ] && BINS="before after"
bin_of() { if [ "$1" = before ]; then echo "$BEFORE"; else echo "$KWB"; fi; }
for r in $(seq "$ROUNDS"); do
  for kind in cold warm edit; do
    for b in $BINS; do
      bin=$(bin_of "$b")
      cp "$TASK/expert_candidate.cpp" "$WORK/kernel-$b.cpp"
      case $kind in
        cold) export KWB_EVAL_CACHE_DIR="$WORK/cache-cold-$b-$r" ;;
        warm) export KWB_EVAL_CACHE_DIR="$WORK/cache-warm-$b"
              [ -d "$WORK/cache-warm-$b" ] || "$bin" eval --task "$TASK" --kernel "$WORK/kernel-$b.cpp" --seed 1 --json > /dev/null || true ;;
        edit) export KWB_EVAL_CACHE_DIR="$WORK/cache-warm-$b"
              echo "// edit $r $(date +%s%N)" >> "$WORK/kernel-$b.cpp" ;;
      esac
      s=$(date +%s%N)
      "$bin" eval --task "$TASK" --kernel "$WORK/kernel-$b.cpp" --seed 1 --json > "$WORK/$b-$kind-$r.json" || true
      e=$(date +%s%N)
      echo "$(( (e - s) / 1000000 ))" > "$WORK/$b-$kind-$r.wall"
    done
  done
done
python3 - "$WORK" "$ROUNDS" $BINS <<'PY'
import json, sys, os
work, rounds, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for b in bins:
    for kind in ("cold", "warm", "edit"):
        best = None
        for r in range(1, rounds + 1):
            d = json.load(open(os.path.join(work, f"{b}-{kind}-{r}.json")))
            wall = int(open(os.path.join(work, f"{b}-{kind}-{r}.wall")).read())
            if best is None or wall < best[0]:
                best = (wall, d)
        wall, d = best
        phases = {}
        for t in d.get("timings", []):
            phases[t["phase"]] = phases.get(t["phase"], 0.0) + t["ms"]
        print(f"{b} {kind}: verdict {d.get('verdict')}, wall {wall} ms (min of {rounds}), evaluate() {d.get('duration_ms', 0):.0f} ms")
        for p, ms in phases.items():
            print(f"  {p:<16}{ms:9.1f} ms")
PY
