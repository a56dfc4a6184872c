#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb task import`: an operator project becomes a valid task folder with its candidate
# in imported/, which `kwb eval --kernel ... --file ...` passes; a broken project exits 2 naming the
# file and line; `kwb run` on the task evaluates the project's kernel as iteration 1.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
proj="$root/tests/fixtures/op_projects/add_custom"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # the sandboxed reference build reads the new tasks from here

"$kwb" task import "$proj" --cases "$root/tests/fixtures/op_projects/add_custom.cases.json" \
  --reference "$root/resources/tasks/add_custom/reference.cpp" --out "$tmp/task" >/dev/null || fail "import failed"
for f in task.json reference.cpp imported/add_custom.cpp imported/add_custom_host.cpp imported/add_custom_tiling.h; do
  [ -f "$tmp/task/$f" ] || fail "missing $f"
done
"$kwb" task validate "$tmp/task" >/dev/null || fail "the imported task does not validate"
"$kwb" eval --task "$tmp/task" --kernel "$tmp/task/imported/add_custom.cpp" \
  --file "$tmp/task/imported/add_custom_host.cpp" --file "$tmp/task/imported/add_custom_tiling.h" \
  --seed 5 >/dev/null || fail "the imported candidate does not pass"

# `kwb run` on the imported task starts from the project's kernel: iteration 1, origin imported.
echo '{"responses":[{"text":"Nothing to change."}]}' > "$tmp/replay.json"
out=$("$kwb" run --task "$tmp/task" --provider replay --replay "$tmp/replay.json" --seed 3 --max-iterations 1 \
  --session "$tmp/session" 2>&1) || fail "kwb run on the imported task failed: $out"
case "$out" in *"#1 imported"*"pass"*) ;; *) fail "iteration 1 is not the imported kernel: $out";; esac

# A project of the kind found in the wild: an operator named after a C library function (div), a kernel
# templated over msopgen's DTYPE_<NAME> macros, a required attribute without a default (.Float()). Both
# dtype combinations of its OpDef evaluate: DTYPE_X1 follows the combination the task tests.
div="$root/tests/fixtures/op_projects/div"
for column in 0 1; do
  "$kwb" task import "$div" --cases "$root/tests/fixtures/op_projects/div.cases.json" \
    --reference "$root/tests/fixtures/op_projects/div.reference.cpp" --dtype-combination "$column" \
    --out "$tmp/div$column" >/dev/null || fail "import of the div project (combination $column) failed"
  out=$("$kwb" eval --task "$tmp/div$column" --kernel "$tmp/div$column/imported/div.cpp" \
    --file "$tmp/div$column/imported/div_host.cpp" --file "$tmp/div$column/imported/div_tiling.h" --seed 5 2>&1) ||
    fail "the div project (combination $column) does not pass: $out"
done
case "$out" in *"y [4096] float32: ok"*) ;; *) fail "combination 1 did not run in float32: $out";; esac
# Its op_host source runs only in the tiling sandbox, so it may use std::vector; the kernel may not.
sed -i 's|#include "tiling/platform/platform_ascendc.h"|&\n#include <vector>|; s|const uint32_t perBlock = |const std::vector<uint64_t> parts(blocks, total / blocks);\n    const uint32_t perBlock = parts.empty() ? 0 : |; s|static_cast<uint32_t>(total / blocks);|static_cast<uint32_t>(parts.front());|' \
  "$tmp/div0/imported/div_host.cpp"
grep -q 'std::vector<uint64_t> parts' "$tmp/div0/imported/div_host.cpp" || fail "the host edit did not apply"
out=$("$kwb" eval --task "$tmp/div0" --kernel "$tmp/div0/imported/div.cpp" --file "$tmp/div0/imported/div_host.cpp" \
  --file "$tmp/div0/imported/div_tiling.h" --seed 5 2>&1) || fail "std::vector in op_host is refused: $out"
sed -i 's|#include "kernel_operator.h"|&\n#include <vector>|' "$tmp/div0/imported/div.cpp"
set +e
out=$("$kwb" eval --task "$tmp/div0" --kernel "$tmp/div0/imported/div.cpp" --file "$tmp/div0/imported/div_host.cpp" \
  --file "$tmp/div0/imported/div_tiling.h" --seed 5 2>&1); rc=$?
set -e
# A failed ASSERT in the kernel ends the case at its line, naming the expression.
sed -i 's|#include <vector>||; s|ASSERT(GetBlockNum() != 0|ASSERT(GetBlockNum() == 0|' "$tmp/div0/imported/div.cpp"
set +e
assertOut=$("$kwb" eval --task "$tmp/div0" --kernel "$tmp/div0/imported/div.cpp" \
  --file "$tmp/div0/imported/div_host.cpp" --file "$tmp/div0/imported/div_tiling.h" --seed 5 2>&1); assertRc=$?
set -e
[ "$assertRc" -ne 0 ] || fail "a failed ASSERT passed"
case "$assertOut" in *"kernel.cpp:63: error: [invalid-param]"*"ASSERT(GetBlockNum() == 0"*"failed"*) ;; *) fail "the failed ASSERT is not named: $assertOut";; esac
[ "$rc" -ne 0 ] || fail "the kernel may include <vector>"
case "$out" in *"div.cpp:2"*"vector"*) ;; *) fail "the kernel's <vector> is not named: $out";; esac

cp -r "$proj" "$tmp/bad"
sed -i 's/DT_FLOAT16/DT_COMPLEX64/' "$tmp/bad/op_host/add_custom.cpp"
set +e
err=$("$kwb" task import "$tmp/bad" --cases "$root/tests/fixtures/op_projects/add_custom.cases.json" \
  --reference "$root/resources/tasks/add_custom/reference.cpp" --out "$tmp/bad_task" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a bad project exited $rc, want 2"
case "$err" in *"op_host/add_custom.cpp:55"*"DT_COMPLEX64"*) ;; *) fail "error does not name file and line: $err";; esac
[ ! -e "$tmp/bad_task/task.json" ] || fail "a bad project wrote a task"
