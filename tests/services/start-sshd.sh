#!/bin/bash
# SPDX-License-Identifier: MIT
# Starts an OpenSSH server on loopback for the tests (docs/suites.md, "Testing the ssh executor"): a
# throwaway host key and user key under the folder given, sshd on a free 127.0.0.1 port with its own
# config (-f), public-key login of the current user only, and a client config for it. Changes nothing
# of the system's ssh setup. With ASCEND_HOME given, every login gets ASCEND_TOOLKIT_HOME=ASCEND_HOME
# (sshd's SetEnv), as a host whose login environment names its toolkit; without, the host has none.
# Waits until a login works, at most KWB_SSHD_START_TIMEOUT seconds (default 20); on failure prints
# sshd's log, stops it and exits 1.
# Usage: start-sshd.sh DIR [ASCEND_HOME]    then: source DIR/env (KWB_SSH_CONFIG, KWB_SSH_URL),
#        and stop-sshd.sh DIR at the end.
set -u
DIR="${1:?usage: start-sshd.sh DIR [ASCEND_HOME]}"
ASCEND_HOME="${2:-}"
TIMEOUT="${KWB_SSHD_START_TIMEOUT:-20}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"

die() {
  echo "start-sshd: $*" >&2
  [ -s "$DIR/sshd.log" ] && { echo "----- $DIR/sshd.log (last 40 lines)" >&2; tail -n 40 "$DIR/sshd.log" >&2; }
  "$HERE/stop-sshd.sh" "$DIR" >/dev/null 2>&1
  exit 1
}

SSHD=$(command -v sshd 2>/dev/null || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || die "sshd not found: apt-get install openssh-server"
command -v ssh >/dev/null 2>&1 || die "ssh not found: apt-get install openssh-client"
command -v ssh-keygen >/dev/null 2>&1 || die "ssh-keygen not found: apt-get install openssh-client"

rm -f "$DIR/host_key" "$DIR/host_key.pub" "$DIR/user_key" "$DIR/user_key.pub"
ssh-keygen -q -t ed25519 -N '' -C kwb-test-host -f "$DIR/host_key" || die "cannot make the host key"
ssh-keygen -q -t ed25519 -N '' -C kwb-test-user -f "$DIR/user_key" || die "cannot make the user key"
cp "$DIR/user_key.pub" "$DIR/authorized_keys"
chmod 600 "$DIR/authorized_keys" "$DIR/host_key" "$DIR/user_key"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
  die "no free port"
USER_NAME=$(id -un)
# sshd's privilege separation needs its empty folder when it runs as root.
[ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd && chmod 755 /run/sshd

{
  echo "Port $PORT"
  echo "ListenAddress 127.0.0.1"
  echo "HostKey $DIR/host_key"
  echo "PidFile $DIR/sshd.pid"
  echo "AuthorizedKeysFile $DIR/authorized_keys"
  echo "PubkeyAuthentication yes"
  echo "PasswordAuthentication no"
  echo "KbdInteractiveAuthentication no"
  echo "PermitRootLogin prohibit-password"
  echo "AllowUsers $USER_NAME"
  echo "StrictModes no"
  echo "UsePAM no"
  echo "PrintMotd no"
  echo "MaxSessions 64"
  echo "MaxStartups 64:30:128"
  [ -n "$ASCEND_HOME" ] && echo "SetEnv ASCEND_TOOLKIT_HOME=$ASCEND_HOME"
} > "$DIR/sshd_config"

{
  echo "Host *"
  echo "  User $USER_NAME"
  echo "  IdentityFile $DIR/user_key"
  echo "  IdentitiesOnly yes"
  echo "  IdentityAgent none"
  echo "  UserKnownHostsFile $DIR/known_hosts"
  echo "  StrictHostKeyChecking yes"
  echo "  LogLevel ERROR"
} > "$DIR/ssh_config"
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$DIR/host_key.pub")" > "$DIR/known_hosts"

"$SSHD" -f "$DIR/sshd_config" -E "$DIR/sshd.log" || die "sshd did not start"

deadline=$((SECONDS + TIMEOUT))
until ssh -F "$DIR/ssh_config" -o BatchMode=yes -p "$PORT" 127.0.0.1 true 2>/dev/null; do
  [ "$SECONDS" -ge "$deadline" ] && die "no login within ${TIMEOUT} s"
  sleep 0.2
done
{
  echo "export KWB_SSH_CONFIG=$DIR/ssh_config"
  echo "export KWB_SSH_URL=ssh://$USER_NAME@127.0.0.1:$PORT"
  echo "export KWB_SSH_PORT=$PORT"
} > "$DIR/env"
echo "start-sshd: sshd on 127.0.0.1:$PORT (user $USER_NAME${ASCEND_HOME:+, ASCEND_TOOLKIT_HOME=$ASCEND_HOME})"
