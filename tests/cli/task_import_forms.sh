#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What msopgen projects in the wild read in their TilingFunc and kernel (docs/emulator.md, "Operator
# projects"), on the mode_scale fixture: a string attribute through GetStr / GetAttrPointer<char> (its
# value with a space in it), the tiling key it chooses, ORIG_DTYPE_X compared with DT_FLOAT16 in `#if`
# and in C++, and a vector call in counter mask mode with MASK_PLACEHOLDER, in both dtype combinations;
# and on the scale_plain fixture the standard C++ tiling form: plain structs filled through
# context->GetTilingData<T>(), REGISTER_TILING_DEFAULT / REGISTER_TILING_FOR_TILINGKEY in the kernel,
# GET_TILING_DATA and GET_TILING_DATA_WITH_STRUCT chosen by the tiling key.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
proj="$root/tests/fixtures/op_projects/mode_scale"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # the sandboxed reference build reads the new tasks from here

for column in 0 1; do
  "$kwb" task import "$proj" --cases "$root/tests/fixtures/op_projects/mode_scale.cases.json" \
    --reference "$root/tests/fixtures/op_projects/mode_scale.reference.cpp" --dtype-combination "$column" \
    --out "$tmp/t$column" >/dev/null || fail "import of mode_scale (combination $column) failed"
  out=$("$kwb" eval --task "$tmp/t$column" --kernel "$tmp/t$column/imported/mode_scale.cpp" \
    --file "$tmp/t$column/imported/mode_scale_host.cpp" --file "$tmp/t$column/imported/mode_scale_tiling.h" \
    --seed 5 --json 2>&1) || fail "mode_scale (combination $column) does not pass: $out"
  echo "$out" | grep -q '"tiling_key": *2' || fail "the string attribute did not choose tiling key 2: $out"
done

# A mode the TilingFunc does not know fails at its TilingFunc: the string reached it.
sed -i 's|"mode": "negate scale"|"mode": "shift"|' "$tmp/t0/task.json"
grep -q '"mode": "shift"' "$tmp/t0/task.json" || fail "the mode edit did not apply"
set +e
out=$("$kwb" eval --task "$tmp/t0" --kernel "$tmp/t0/imported/mode_scale.cpp" \
  --file "$tmp/t0/imported/mode_scale_host.cpp" --file "$tmp/t0/imported/mode_scale_tiling.h" --seed 5 2>&1); rc=$?
set -e
[ "$rc" -ne 0 ] || fail "an unknown mode passed: $out"
case "$out" in *"TilingFunc"*) ;; *) fail "the failing TilingFunc is not named: $out";; esac

plain="$root/tests/fixtures/op_projects/scale_plain"
"$kwb" task import "$plain" --cases "$root/tests/fixtures/op_projects/scale_plain.cases.json" \
  --reference "$root/tests/fixtures/op_projects/scale_plain.reference.cpp" --out "$tmp/plain" >/dev/null ||
  fail "import of scale_plain failed"
[ -f "$tmp/plain/imported/scale_plain_tiling.h" ] || fail "the op_kernel tiling header was not imported"
out=$("$kwb" eval --task "$tmp/plain" --kernel "$tmp/plain/imported/scale_plain.cpp" \
  --file "$tmp/plain/imported/scale_plain_host.cpp" --file "$tmp/plain/imported/scale_plain_tiling.h" \
  --seed 5 --json 2>&1) || fail "scale_plain does not pass: $out"
echo "$out" | grep -q '"tiling_key": *2' || fail "the negated case did not run with tiling key 2: $out"
echo ok
