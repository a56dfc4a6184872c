#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract for `kwb task import --from npukernelbench DIR` (docs/task-format.md, "Importing an
# NPUKernelBench task"): a task folder in NPUKernelBench's layout (validation/ of our own, answer/0 our
# leaky_relu_custom operator project) becomes a task whose cases are the CSV rows of the OpDef's dtypes,
# whose reference is validation/module.py's Model on python3-torch, and whose imported answer passes;
# a candidate that ignores the attribute fails; bad folders exit 2 naming the file and line.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
task="$tmp/LeakyRelu"
mkdir -p "$task/answer"
cp -r "$root/tests/fixtures/npukernelbench/leaky_relu/." "$task/"
cp -r "$root/tests/fixtures/op_projects/leaky_relu_custom" "$task/answer/0"

# 1. The import: rows 0, 1, 2, 5 (float16) become cases with their attribute; row 3 (float32, which the
# OpDef does not list) and row 4 (get_inputs raises) are left out with a note each.
"$kwb" task import --from npukernelbench "$task" --out "$tmp/out" > "$tmp/import.out" 2> "$tmp/import.err" ||
  fail "import: $(cat "$tmp/import.out" "$tmp/import.err")"
grep -q "case_id 3 (test_cases.csv:5) left out: its tensors are x float32" "$tmp/import.err" ||
  fail "no note for the float32 row: $(cat "$tmp/import.err")"
grep -q "case_id 4 (test_cases.csv:6) left out: TypeError: .* at validation/prepare_inputs.py:11" "$tmp/import.err" ||
  fail "no note for the failing row: $(cat "$tmp/import.err")"
for f in task.json reference.py imported/leaky_relu_custom.cpp npukernelbench/module.py npukernelbench/test_cases.csv; do
  [ -f "$tmp/out/$f" ] || fail "missing $f"
done
"$kwb" task validate "$tmp/out" > /dev/null || fail "the imported task does not validate"
python3 - "$tmp/out/task.json" <<'PY' || fail "task.json is not what the folder describes"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["name"] == "leaky_relu_custom" and t["category"] == "npukernelbench", (t["name"], t["category"])
assert [(i["name"], i["dtype"]) for i in t["inputs"]] == [("x", "float16")], t["inputs"]
cases = {c["name"]: c for c in t["cases"]}
assert sorted(cases) == ["case_0", "case_1", "case_2", "case_5"], sorted(cases)
assert cases["case_1"]["shapes"] == {"x": [3, 1000], "y": [3, 1000]}, cases["case_1"]
assert cases["case_1"]["attrs"] == {"negative_slope": 0.2}, cases["case_1"]
# get_inputs() draws from [-4, 4): the hint keeps negatives and that domain.
hint = cases["case_0"]["tensor_values"]["x"]
assert hint["distribution"] == "with-negatives" and -4 <= hint["low"] < -3.9 and 3.9 < hint["high"] <= 4, hint
assert "api_desc.md" in t["description"], t["description"]
PY

# 2. The imported answer passes against the torch reference; one that ignores negative_slope fails.
o="$tmp/out/imported"
"$kwb" eval --task "$tmp/out" --kernel "$o/leaky_relu_custom.cpp" --file "$o/leaky_relu_custom_host.cpp" \
  --file "$o/leaky_relu_custom_tiling.h" --seed 5 > "$tmp/pass.out" 2>&1 ||
  fail "the answer does not pass: $(tail -20 "$tmp/pass.out")"
grep -q "verdict: pass" "$tmp/pass.out" || fail "no pass verdict: $(tail -5 "$tmp/pass.out")"
sed 's/static_cast<half>(negativeSlope)/static_cast<half>(0.01f)/' "$o/leaky_relu_custom.cpp" > "$tmp/wrong.cpp"
grep -q "static_cast<half>(0.01f)" "$tmp/wrong.cpp" || fail "the wrong candidate is not wrong"
set +e
"$kwb" eval --task "$tmp/out" --kernel "$tmp/wrong.cpp" --file "$o/leaky_relu_custom_host.cpp" \
  --file "$o/leaky_relu_custom_tiling.h" --seed 5 > "$tmp/wrong.out" 2>&1; rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the wrong candidate exited $rc, want 1: $(tail -5 "$tmp/wrong.out")"
grep -q "verdict: wrong_answer" "$tmp/wrong.out" || fail "no wrong_answer verdict: $(tail -5 "$tmp/wrong.out")"

# 3. Refusals: exit 2, the file and line named, nothing written.
refused() {  # DIR WANT-REGEX
  set +e
  "$kwb" task import --from npukernelbench "$1" --out "$tmp/refused" > "$tmp/r.out" 2> "$tmp/r.err"; local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2: $(cat "$tmp/r.err")"
  grep -Eq "$2" "$tmp/r.err" || fail "$1: no '$2' in: $(cat "$tmp/r.err")"
  [ ! -e "$tmp/refused/task.json" ] || fail "$1: a refused import wrote a task"
}
bad() { rm -rf "$tmp/bad"; cp -r "$task" "$tmp/bad"; }
bad; rm "$tmp/bad/validation/test_cases.csv"
refused "$tmp/bad" "validation/test_cases.csv: error: \[invalid-param\] missing"
bad; printf 'case_id;shape;dtype;negative_slope\n0;[8, 2048];float16\n' > "$tmp/bad/validation/test_cases.csv"
refused "$tmp/bad" "validation/test_cases.csv:2: error: \[invalid-param\] 3 cells for 4 columns"
bad; printf 'case_id;shape;dtype;negative_slope\n0;[8, 2048];float16;nan\n' > "$tmp/bad/validation/test_cases.csv"
refused "$tmp/bad" "validation/test_cases.csv:2: error: \[invalid-param\] the negative_slope cell \"nan\" is not a float"
bad; printf 'case_id;shape;dtype\n0;[8];float32\n1;[8];bfloat16\n' > "$tmp/bad/validation/test_cases.csv"
refused "$tmp/bad" "no row's tensors match a dtype combination"
bad; printf 'import torch\nclass Model(torch.nn.Module:\n    pass\n' > "$tmp/bad/validation/module.py"
refused "$tmp/bad" "validation/module.py:2: error: \[invalid-param\] cannot import: not valid Python"
bad; rm -r "$tmp/bad/answer/0"
refused "$tmp/bad" "answer/0: error: \[invalid-param\] missing: the answer is an operator project"
bad; sed -i 's/return (x,)/return (x, x)/' "$tmp/bad/validation/prepare_inputs.py"
refused "$tmp/bad" "  case_id 0 failed: TypeError: .*forward\(\) takes 2 positional arguments"
sed -i '0,/def forward(self, x: torch.Tensor)/s//def forward(self, x: torch.Tensor, y: torch.Tensor = None)/' \
  "$tmp/bad/validation/module.py"
refused "$tmp/bad" "validation/module.py:15: error: \[invalid-param\] forward\(\) takes 2 tensors and returns 1 .*declares 1 inputs"
echo "ok"
