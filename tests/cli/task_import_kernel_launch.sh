#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb task import` on kernel-launch sample folders (docs/task-format.md, "Importing a
# kernel-launch sample"): two samples of our own import, their adapted kernels pass, `kwb run` starts
# from them as iteration 1; broken folders exit 2 naming the file and line.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
fixtures="$root/tests/fixtures/kernel_launch"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"  # the sandboxed reference build reads the new tasks from here

for op in mul_custom relu_custom; do
  "$kwb" task import "$fixtures/$op" --cases "$fixtures/$op.cases.json" \
    --reference "$root/resources/tasks/$op/reference.cpp" --out "$tmp/$op" >/dev/null || fail "import of $op failed"
  "$kwb" task validate "$tmp/$op" >/dev/null || fail "the imported $op task does not validate"
  out=$("$kwb" eval --task "$tmp/$op" --kernel "$tmp/$op/imported/$op.cpp" --seed 5 2>&1) ||
    fail "the imported $op kernel does not pass: $out"
done
# Signature from the entry and the kernel's casts; the block count from main.cpp's ICPU_RUN_KF.
grep -q '"dtype": "float16"' "$tmp/mul_custom/task.json" || fail "mul_custom's tensors are not float16"
case "$out" in *"pass (blockDim 4)"*"y [4, 1000] float32: ok"*) ;; *) fail "relu_custom did not run float32 on 4 blocks: $out";; esac
grep -q 'GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)' "$tmp/relu_custom/imported/relu_custom.cpp" ||
  fail "the entry did not gain workspace and tiling"
# The sample's device-build launcher (<<<>>>, aclrtSynchronizeStream) is host code: left out, its lines kept.
! grep -q 'aclrtSynchronizeStream\|<<<' "$tmp/mul_custom/imported/mul_custom.cpp" || fail "the launcher is still there"
grep -q 'GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {' <(sed -n 68p "$tmp/mul_custom/imported/mul_custom.cpp") ||
  fail "the entry is not at the sample's line plus three"

echo '{"responses":[{"text":"Nothing to change."}]}' > "$tmp/replay.json"
out=$("$kwb" run --task "$tmp/mul_custom" --provider replay --replay "$tmp/replay.json" --seed 3 --max-iterations 1 \
  --session "$tmp/session" 2>&1) || fail "kwb run on the imported sample failed: $out"
case "$out" in *"#1 imported"*"pass"*) ;; *) fail "iteration 1 is not the imported kernel: $out";; esac

# A case of another size than main.cpp's buffers imports with a warning naming main.cpp.
echo '[{"name": "small_100", "shapes": {"x": [100], "y": [100]}}]' > "$tmp/small.json"
err=$("$kwb" task import "$fixtures/relu_custom" --cases "$tmp/small.json" \
  --reference "$root/resources/tasks/relu_custom/reference.cpp" --out "$tmp/small" 2>&1 >/dev/null) ||
  fail "a case of another size was refused: $err"
case "$err" in *"main.cpp: warning"*"small_100"*"400 bytes"*"16000"*) ;; *) fail "no warning about main.cpp's sizes: $err";; esac

expect_refused() {  # folder, then the texts the error must contain
  set +e
  err=$("$kwb" task import "$1" --cases "$fixtures/mul_custom.cases.json" \
    --reference "$root/resources/tasks/mul_custom/reference.cpp" --out "$1.task" 2>&1 >/dev/null); rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$(basename "$1") exited $rc, want 2: $err"
  local dir="$1"; shift
  for want in "$@"; do
    grep -qF -- "$want" <<<"$err" || fail "$(basename "$dir"): the error lacks '$want': $err"
  done
  [ ! -e "$dir.task/task.json" ] || fail "$(basename "$dir") wrote a task"
}
cp -r "$fixtures/mul_custom" "$tmp/no_entry"
sed -i 's/__global__ __aicore__ void mul_custom/__aicore__ inline void mul_custom/' "$tmp/no_entry/mul_custom.cpp"
expect_refused "$tmp/no_entry" "no_entry: error" "no kernel entry"
cp -r "$fixtures/mul_custom" "$tmp/two_entries"
cat >> "$tmp/two_entries/mul_custom.cpp" <<'CPP'

extern "C" __global__ __aicore__ void mul_twice(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  MulKernel op;
  op.Init(x, y, z);
  op.Process();
}
CPP
expect_refused "$tmp/two_entries" "mul_custom.cpp:79: error" 'second kernel entry "mul_twice"' "mul_custom.cpp:65"
cp -r "$fixtures/mul_custom" "$tmp/by_value"
sed -i 's/void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)/void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, MulTiling t)/' \
  "$tmp/by_value/mul_custom.cpp"
expect_refused "$tmp/by_value" "mul_custom.cpp:65: error" 'parameter "MulTiling t"' "GM_ADDR"
cp -r "$fixtures/mul_custom" "$tmp/no_blocks"
sed -i 's/ICPU_RUN_KF(mul_custom, blockDim,/ICPU_RUN_KF(mul_custom, BlocksFor(x),/' "$tmp/no_blocks/main.cpp"
expect_refused "$tmp/no_blocks" "main.cpp:25: error" "block count"
