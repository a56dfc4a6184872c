#!/bin/bash
# SPDX-License-Identifier: MIT
# Stops the sshd that start-sshd.sh DIR started, by its pid file, and waits for it to exit (SIGKILL
# after 5 s). Sessions still open end with it. Harmless when nothing runs.
set -u
DIR="${1:?usage: stop-sshd.sh DIR}"
pidfile="$DIR/sshd.pid"
[ -s "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
kill "$pid" 2>/dev/null || exit 0
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -9 "$pid" 2>/dev/null
rm -f "$pidfile"
exit 0
