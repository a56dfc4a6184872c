#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tiling template programming (docs/emulator.md, "Template tiling keys") on the tpl_scale fixture: the
# kernel entry is a function template whose arguments ASCENDC_TPL_ARGS_DECL declares and ASCENDC_TPL_SEL
# combines, the TilingFunc sets the key with ASCENDC_TPL_SEL_PARAM. Both dtype combinations import and
# pass, with the keys the reference's encoding gives (D_T_X in bits 0-7, BUFFER_NUM's position in its
# list in bits 8-9, NEGATE in bit 10); a key whose combination ASCENDC_TPL_SEL leaves out, and a UINT
# value the declaration does not list, stop the launch with the decoded arguments.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
proj="$root/tests/fixtures/op_projects/tpl_scale"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # the sandboxed reference build reads the new tasks from here

evaluate() {  # task dir -> kwb eval --json output
  "$kwb" eval --task "$1" --kernel "$1/imported/tpl_scale.cpp" --file "$1/imported/tpl_scale_host.cpp" \
    --file "$1/imported/tpl_scale_tiling.h" --file "$1/imported/tpl_scale_tiling_key.h" --seed 5 --json 2>&1
}

# Column 0 is float (DT_FLOAT = 0), column 1 float16 (DT_FLOAT16 = 1).
expected=("0 1280" "257 1281")
for column in 0 1; do
  "$kwb" task import "$proj" --cases "$root/tests/fixtures/op_projects/tpl_scale.cases.json" \
    --reference "$root/tests/fixtures/op_projects/tpl_scale.reference.cpp" --dtype-combination "$column" \
    --out "$tmp/t$column" >/dev/null || fail "import of tpl_scale (combination $column) failed"
  out=$(evaluate "$tmp/t$column") || fail "tpl_scale (combination $column) does not pass: $out"
  keys=$(echo "$out" | grep -o '"tiling_key": *[0-9]*' | grep -o '[0-9]*$' | tr '\n' ' ' | sed 's/ $//')
  [ "$keys" = "${expected[$column]}" ] || fail "combination $column: tiling keys '$keys', expected '${expected[$column]}'"
done

# float16 with one buffer: declared, but ASCENDC_TPL_SEL compiles float16 only with two.
sed -i 's/(dtype == ge::DT_FLOAT16 || perBlock > 1024)/(perBlock > 1024)/' "$tmp/t1/imported/tpl_scale_host.cpp"
set +e
out=$(evaluate "$tmp/t1"); rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a key outside ASCENDC_TPL_SEL passed: $out"
case "$out" in *"is no combination of ASCENDC_TPL_SEL"*"D_T_X=1, BUFFER_NUM=1, NEGATE=0"*) ;;
  *) fail "the unselected key is not explained with its decoded arguments: $out";; esac

# A buffer count the declaration does not list: INVALID_TILING_KEY, with GET_TPL_TILING_KEY's reason.
sed -i 's/: TPL_SCALE_ONE_BUFFER;/: 3;/' "$tmp/t0/imported/tpl_scale_host.cpp"
set +e
out=$(evaluate "$tmp/t0"); rc=$?
set -e
[ "$rc" -ne 0 ] || fail "an undeclared template argument value passed: $out"
case "$out" in *"INVALID_TILING_KEY"*) ;; *) fail "the invalid key is not named: $out";; esac
