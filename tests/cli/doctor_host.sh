#!/bin/bash
# SPDX-License-Identifier: MIT
# kwb doctor --host ssh:// against real loopback sshds (docs/suites.md, "SSH"): one whose logins see
# the CANN stand-in toolkit (every check that needs a toolkit ok, no NPU device, exit 0), one without
# a toolkit (the toolkit line fails with its fix, exit 1), and an unreachable port (exit 1, the rest
# skipped). Needs openssh-server (scripts/deps.sh); skipped (77) without.
set -u
KWB="$1"; SRC="$2"
if ! { command -v sshd || [ -x /usr/sbin/sshd ]; } >/dev/null 2>&1 || ! command -v ssh >/dev/null; then
  echo "SKIP: needs openssh-server and openssh-client"; exit 77
fi
WORK=$(mktemp -d)
cleanup() {
  "$SRC/tests/services/stop-sshd.sh" "$WORK/with"
  "$SRC/tests/services/stop-sshd.sh" "$WORK/without"
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH SSH_AUTH_SOCK
cp -r "$SRC/tests/fixtures/cann_standin" "$WORK/remote-cann"
"$SRC/tests/services/start-sshd.sh" "$WORK/with" "$WORK/remote-cann" > /dev/null || fail "sshd (with) did not start"
"$SRC/tests/services/start-sshd.sh" "$WORK/without" > /dev/null || fail "sshd (without) did not start"

( source "$WORK/with/env"; "$KWB" doctor --host "$KWB_SSH_URL" ) > "$WORK/with.txt"; rc=$?
[ $rc -eq 0 ] || fail "doctor --host with a toolkit: exit $rc: $(cat "$WORK/with.txt")"
grep -q '^\[ok\]   reachable' "$WORK/with.txt" || fail "no reachable line: $(cat "$WORK/with.txt")"
grep -q '^\[ok\]   authentication' "$WORK/with.txt" || fail "no authentication line"
grep -q "^\[ok\]   cann toolkit: CANN 8.1.RC1 at $WORK/remote-cann" "$WORK/with.txt" || fail "no toolkit line: $(cat "$WORK/with.txt")"
grep -q '^\[ok\]   msprof' "$WORK/with.txt" || fail "no msprof line"
grep -q '^\[fail\] npu device: no /dev/davinci' "$WORK/with.txt" || fail "the device line: $(cat "$WORK/with.txt")"

( source "$WORK/with/env"; "$KWB" doctor --host "$KWB_SSH_URL" --json ) > "$WORK/with.json" || fail "--json exit $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["name"]: x for x in d["checks"]}
assert d["ok"] is True and c["bisheng"]["status"] == "ok" and c["npu device"]["fix"], d
' "$WORK/with.json" || fail "doctor --host --json: $(cat "$WORK/with.json")"

( source "$WORK/without/env"; "$KWB" doctor --host "$KWB_SSH_URL" ) > "$WORK/without.txt"; rc=$?
[ $rc -eq 1 ] || fail "doctor --host without a toolkit: exit $rc"
grep -q '^\[fail\] cann toolkit' "$WORK/without.txt" || fail "no failing toolkit line: $(cat "$WORK/without.txt")"
grep -q 'fix: install the CANN toolkit' "$WORK/without.txt" || fail "no fix hint"

FREE=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$KWB" doctor --host "ssh://root@127.0.0.1:$FREE" > "$WORK/down.txt"; rc=$?
[ $rc -eq 1 ] || fail "doctor --host unreachable: exit $rc"
grep -q '^\[fail\] reachable: .*unreachable' "$WORK/down.txt" || fail "the reachable line: $(cat "$WORK/down.txt")"
grep -q '^\[--\]   authentication' "$WORK/down.txt" || fail "authentication was not skipped"
"$KWB" doctor --host "npu-07" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a bad --host: exit $rc, expected 2"
echo "ok"
