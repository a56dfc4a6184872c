#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb task validate`: valid built-in task exits 0; a broken one exits 2 and names the
# file, the JSON pointer and what was wrong; --json prints one document.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$kwb" task validate "$root/resources/tasks/add_custom" >/dev/null || fail "built-in add_custom is not valid"
"$kwb" task validate --json "$root/resources/tasks/add_custom" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin); assert d["valid"] is True and d["task"]["name"] == "add_custom", d' || fail "json for valid task"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$root/resources/tasks/add_custom/task.json" "$tmp/task.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["inputs"][0]["dtype"] = "flaot16"
json.dump(t, open(sys.argv[2], "w"), indent=2)
PY
set +e
err=$("$kwb" task validate "$tmp" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "broken task exited $rc, want 2"
case "$err" in *"$tmp/task.json"*"/inputs/0/dtype"*"flaot16"*) ;; *) fail "error does not name file, pointer and value: $err";; esac

printf '{ "name": "x", ' > "$tmp/task.json"
set +e
out=$("$kwb" task validate --json "$tmp"); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "truncated JSON exited $rc, want 2"
printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin); assert d["valid"] is False and d["problems"], d
assert "invalid JSON" in d["problems"][0]["message"] or "1:" in d["problems"][0]["message"], d' || fail "truncated json report: $out"

set +e
"$kwb" task validate "$tmp/nope" >/dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "missing folder exited $rc, want 2"
echo "task validate CLI contract ok"
