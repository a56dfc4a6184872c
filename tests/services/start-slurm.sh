#!/bin/bash
# SPDX-License-Identifier: MIT
# Starts a single-node Slurm on loopback for the tests (docs/suites.md, "Testing the Slurm executor"):
# munged with its own key and socket, slurmctld and slurmd with a generated slurm.conf, every state,
# spool, log and pid file under the folder given. Installs nothing (scripts/test installs slurm-wlm and
# munge). Waits until sinfo shows the node idle, at most KWB_SLURM_START_TIMEOUT seconds (default 60);
# on any failure prints what failed with the daemons' logs, stops what it started, and exits 1. Must run
# as root (slurmd starts jobs as their submitting user).
# Usage: start-slurm.sh DIR        then: source DIR/env (SLURM_CONF), and stop-slurm.sh DIR at the end.
set -u
DIR="${1:?usage: start-slurm.sh DIR}"
TIMEOUT="${KWB_SLURM_START_TIMEOUT:-60}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"

die() {
  echo "start-slurm: $*" >&2
  for log in munged.log slurmctld.log slurmd.log; do
    [ -s "$DIR/$log" ] && { echo "----- $DIR/$log (last 40 lines)" >&2; tail -n 40 "$DIR/$log" >&2; }
  done
  "$HERE/stop-slurm.sh" "$DIR" >/dev/null 2>&1
  exit 1
}

[ "$(id -u)" -eq 0 ] || die "must run as root (slurmd runs jobs as their user)"
for tool in munged mungekey slurmctld slurmd sinfo sbatch squeue scancel; do
  command -v "$tool" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null 2>&1 ||
    die "$tool not found: apt-get install slurm-wlm munge"
done
export PATH="$PATH:/usr/sbin"

# A free TCP port on loopback (the kernel picks it; a race with another process is possible but rare).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool"
chmod 700 "$DIR/munge"
mungekey --create --keyfile="$DIR/munge/munge.key" --force >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none || die "cannot create a munge key"
chmod 400 "$DIR/munge/munge.key"
SOCKET="$DIR/munge/munge.socket"
munged --force --socket="$SOCKET" --key-file="$DIR/munge/munge.key" --pid-file="$DIR/munged.pid" \
  --log-file="$DIR/munged.log" --seed-file="$DIR/munge/munge.seed" >/dev/null 2>&1 ||
  die "munged did not start"
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.1; done
[ -S "$SOCKET" ] || die "munged made no socket at $SOCKET"

CPUS=$(nproc)
MEM_MB=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
cat > "$DIR/slurm.conf" <<CONF
ClusterName=kwbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
# Finished jobs stay visible to squeue --states=all for this long (the executor reads their end state).
MinJobAge=300
KillWait=10
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$DIR/slurm.conf"
printf 'export SLURM_CONF=%q\nexport PATH="$PATH:/usr/sbin"\n' "$SLURM_CONF" > "$DIR/env"

slurmctld -i -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -N localhost -f "$SLURM_CONF" || die "slurmd did not start"
deadline=$((SECONDS + TIMEOUT))
while [ $SECONDS -lt $deadline ]; do
  state=$(sinfo --noheader --nodes=localhost --format=%T 2>/dev/null | head -1)
  [ "$state" = "idle" ] && { echo "start-slurm: node localhost idle ($CPUS CPUs, ${MEM_MB} MB), SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.5
done
die "the node is not idle after ${TIMEOUT}s (sinfo says: '${state:-nothing}')"
