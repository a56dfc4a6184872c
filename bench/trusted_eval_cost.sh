#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the trusted evaluation costs on the built-in suite: `kwb suite eval resources/tasks --reference`
# with two kwb binaries (before and after), interleaved so that both meet the same machine load, each
# with its own warm build cache (the first round fills the caches and is not counted). Prints the
# minimum and median wall time of each over ROUNDS rounds, and the ratio of the minima.
# Usage: bench/trusted_eval_cost.sh BEFORE_KWB AFTER_KWB [ROUNDS]
set -euo pipefail
before="$1"
after="$2"
rounds="${3:-3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() {  # kwb cache-dir -> seconds
  local start end
  start=$(date +%s.%N)
  KWB_EVAL_CACHE_DIR="$2" "$1" suite eval "$root/resources/tasks" --reference --seed 7 >"$work/last.txt"
  grep -q "summary: 24/24 passed" "$work/last.txt" || { echo "not every expert passed with $1:" >&2; tail -3 "$work/last.txt" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
mkdir -p "$work/cb" "$work/ca"
# Readable by the sandbox user: the older kwb runs the reference from its cache folder.
chmod 755 "$work" "$work/cb" "$work/ca"
run "$before" "$work/cb" >/dev/null
run "$after" "$work/ca" >/dev/null
tb=() ta=()
for ((i = 0; i < rounds; i++)); do
  tb+=("$(run "$before" "$work/cb")")
  ta+=("$(run "$after" "$work/ca")")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "min %.2f s  median %.2f s", a[1], a[int((NR+1)/2)]}'; }
echo "before: $(stats "${tb[@]}")  ($before)"
echo "after:  $(stats "${ta[@]}")  ($after)"
minb=$(printf '%s\n' "${tb[@]}" | sort -n | head -1)
mina=$(printf '%s\n' "${ta[@]}" | sort -n | head -1)
echo "ratio after/before (minima): $(echo "scale=2; $mina / $minb" | bc)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
