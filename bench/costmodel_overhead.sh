#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost model's share of emulator time (cost-model issue goal: at most +30 %) measured robustly on a
# shared or virtual machine: the emulator Add benchmark with and without the cost model, interleaved
# ROUNDS times, keeping the minimum of each (interference only ever adds time) for real time and for the
# CPU time of the process and its block children.
#   bench/costmodel_overhead.sh [BUILD_DIR=build/release] [ROUNDS=6]
set -euo pipefail
build="${1:-build/release}"
rounds="${2:-6}"
exe="$build/bench/bench_emulator_add"
[ -x "$exe" ] || { echo "missing $exe: cmake --preset release && cmake --build build/release --target bench_emulator_add" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  for variant in BM_EmulatorAddNoCostModel BM_EmulatorAdd BM_PlainLoopAdd; do
    "$exe" --benchmark_filter="^${variant}/" --benchmark_min_time=1 --benchmark_format=json > "$out/$variant-$r.json" 2>/dev/null
  done
  echo "round $r/$rounds done" >&2
done
/usr/bin/python3 - "$out" <<'PY'
import glob, json, os, sys
best = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    for b in json.load(open(f))["benchmarks"]:
        name = b["name"].split("/")[0]
        real = b["real_time"]  # ms (the benchmarks report in ms)
        cpu = b.get("cpu_ms_per_launch", b["cpu_time"])
        r, c = best.get(name, (float("inf"), float("inf")))
        best[name] = (min(r, real), min(c, cpu))
plain = best["BM_PlainLoopAdd"][0]
off, on = best["BM_EmulatorAddNoCostModel"], best["BM_EmulatorAdd"]
print(f"plain loop               real {plain:8.1f} ms")
print(f"emulator, no cost model  real {off[0]:8.1f} ms  cpu {off[1]:8.1f} ms  ({off[0]/plain:.2f}x plain)")
print(f"emulator + cost model    real {on[0]:8.1f} ms  cpu {on[1]:8.1f} ms  ({on[0]/plain:.2f}x plain)")
print(f"cost model overhead      real {100*(on[0]/off[0]-1):+.1f} %  cpu {100*(on[1]/off[1]-1):+.1f} %  (goal: at most +30 %)")
PY
