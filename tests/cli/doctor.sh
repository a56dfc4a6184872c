#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract: kwb --version, bad usage exits 2, `kwb doctor --json` prints one valid JSON document
# and never prints the API key.
set -euo pipefail
kwb="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$kwb" --version | grep -q '^kwb [0-9]' || fail "--version does not print 'kwb X.Y.Z'"

set +e
"$kwb" no-such-command >/dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "unknown command exited $rc, want 2"

sentinel="sk-test-SENTINEL-$$-do-not-print"
out=$(KWB_LLM_PROVIDER=openai KWB_LLM_BASE_URL=http://127.0.0.1:9/v1 KWB_LLM_MODEL=m \
      KWB_LLM_API_KEY_ENV=KWB_TEST_KEY KWB_TEST_KEY="$sentinel" "$kwb" doctor --json) || fail "doctor exited $?"
case "$out" in *"$sentinel"*) fail "doctor printed the API key";; esac
printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
names = {c["name"] for c in d["checks"]}
for want in ("c++ compiler", "cann", "bisheng", "msprof", "nvcc", "bubblewrap", "llm endpoint"):
    assert want in names, f"missing check {want}: {sorted(names)}"
assert d["llm"]["api_key_env"] == "KWB_TEST_KEY", d["llm"]
assert d["llm"]["api_key_present"] is True, d["llm"]
assert d["emulator"]["available"] is True
' || fail "doctor --json is not the expected document: $out"

# A stand-in CANN toolkit folder is detected through ASCEND_TOOLKIT_HOME.
tk=$(mktemp -d); trap 'rm -rf "$tk"' EXIT
mkdir -p "$tk/compiler/ccec_compiler/bin" "$tk/tools/profiler/bin" "$tk/tools/simulator/Ascend910B1"
printf '#!/bin/sh\necho bisheng\n' > "$tk/compiler/ccec_compiler/bin/bisheng"
chmod +x "$tk/compiler/ccec_compiler/bin/bisheng"
echo "Version=8.1.RC1" > "$tk/version.info"
out=$(ASCEND_TOOLKIT_HOME="$tk" "$kwb" doctor --json) || fail "doctor with toolkit exited $?"
printf '%s' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["cann"] is not None, "toolkit not detected"
assert d["cann"]["version"] == "8.1.RC1", d["cann"]
assert d["cann"]["simulator_socs"] == ["Ascend910B1"], d["cann"]
assert d["cann"]["msprof"] is None
' || fail "stand-in toolkit not reported: $out"
echo "doctor CLI contract ok"
