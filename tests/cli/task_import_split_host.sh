#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What CANN's op repositories and the NPUKernelBench answers write (docs/emulator.md, "Operator
# projects"), on the abs_split fixture: the OpDef in one op_host source and the tiling registered with
# IMPL_OP_OPTILING (plus IMPL_OP_INFERSHAPE) in another, logging macros with GNU's `, ##__VA_ARGS__`,
# GetBlockNum/GetBlockIdx called unqualified without `using namespace AscendC`, and a TBuf taken and
# given back with AllocTensor/FreeTensor. A failing TilingFunc is reported at its own file and line, and
# token pasting that can build a name stays refused.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
proj="$root/tests/fixtures/op_projects/abs_split"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # the sandboxed reference build reads the new task from here

"$kwb" task import "$proj" --cases "$root/tests/fixtures/op_projects/abs_split.cases.json" \
  --reference "$root/tests/fixtures/op_projects/abs_split.reference.cpp" --out "$tmp/t" >/dev/null ||
  fail "import of abs_split failed"
t="$tmp/t"
for f in abs_split.cpp abs_split_host.cpp abs_split_def_host.cpp abs_split_tiling.h; do
  [ -f "$t/imported/$f" ] || fail "imported/$f is missing"
done
evaluate() {
  "$kwb" eval --task "$t" --kernel "$t/imported/abs_split.cpp" --file "$t/imported/abs_split_host.cpp" \
    --file "$t/imported/abs_split_def_host.cpp" --file "$t/imported/abs_split_tiling.h" --seed 3 2>&1
}
out=$(evaluate) || fail "abs_split does not pass: $out"

# A shape the TilingFunc refuses: the failure names the TilingFunc's own source, not the OpDef's.
set_flat_length() {  # the flat_8192 case's length
  python3 - "$t/task.json" "$1" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
task = json.load(open(path))
for case in task["cases"]:
    if case["name"] == "flat_8192":
        case["shapes"] = {"x": [n], "y": [n]}
json.dump(task, open(path, "w"), indent=2)
PY
}
set_flat_length 8200
grep -q '8200' "$t/task.json" || fail "the shape edit did not apply"
set +e
out=$(evaluate); rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a shape the TilingFunc refuses passed: $out"
case "$out" in *"AbsSplitTiling"*"abs_split_host.cpp:"*) ;; *) fail "the failing TilingFunc is not located: $out";; esac
set_flat_length 8192

# Token pasting that can assemble a name is still refused in a host file.
printf '#define ABS_PASTE(a, b) a ## b\n' >> "$t/imported/abs_split_host.cpp"
set +e
out=$(evaluate); rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a ## that can build names was accepted: $out"
case "$out" in *"token pasting"*) ;; *) fail "the ## refusal is not reported: $out";; esac
