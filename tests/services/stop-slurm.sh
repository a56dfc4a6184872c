#!/bin/bash
# SPDX-License-Identifier: MIT
# Stops what start-slurm.sh DIR started (slurmd, slurmctld, munged), by the pids in DIR, and waits for
# them to exit (SIGKILL after 10 s). Harmless when nothing runs.
set -u
DIR="${1:?usage: stop-slurm.sh DIR}"
for name in slurmd slurmctld munged; do
  pidfile="$DIR/$name.pid"
  [ -s "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null
done
exit 0
