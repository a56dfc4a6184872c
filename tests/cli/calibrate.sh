#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CLI contract and round trip of `kwb calibrate` (docs/calibration.md, "kwb calibrate"): emit the quick
# points, make "device" measurements from the emulator's prediction with a SoC whose launch overhead,
# L2 read rate, copy start and HBM bandwidth are perturbed, fit from the shipped SoC and recover them; bad
# input exits 2 naming the file.
set -euo pipefail
kwb="$1"; root="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$kwb" calibrate emit --soc Ascend910B1 --out "$tmp/points" --quick >/dev/null || fail "emit"
[ -f "$tmp/points/run_all.sh" ] && [ -f "$tmp/points/elementwise_add_b1/kwb-calibration.json" ] || fail "emit layout"
# The launch constants the emitted host takes from the kernel source compile on the host alone.
for p in "$tmp"/points/*/; do
  src=$(ls "$p" | grep -E '^(elementwise|data_copy|data_copy_l1|matmul)\.cpp$')
  defs=$(/usr/bin/python3 -c 'import json,sys; print(" ".join(f"-D{k}={v}" for k, v in json.load(open(sys.argv[1]))["defines"].items()))' "$p/kwb-calibration.json")
  # shellcheck disable=SC2086
  g++ -std=c++17 -fsyntax-only -DCAL_HOST_SHAPES $defs -x c++ "$p/$src" || fail "CAL_HOST_SHAPES part of $p$src"
done

/usr/bin/python3 - "$root/resources/soc/Ascend910B1.json" "$tmp/true.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["launch"]["task_overhead_cycles"]["value"] *= 1.4
d["gm"]["l2_read_bytes_per_cycle"]["value"] *= 0.8
d["transfer"]["GM->UB"]["start_cycles"]["value"] *= 1.2
d["gm"]["aggregate_bytes_per_cycle"]["value"] *= 0.85
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
"$kwb" calibrate predict "$tmp/points" --soc-file "$tmp/true.json" >/dev/null 2>&1 || fail "predict"
[ -f "$tmp/points/data_copy_s1_rows96/prof/KWB_EMULATED/OpBasicInfo.csv" ] || fail "predict wrote no OpBasicInfo.csv"

"$kwb" calibrate fit "$tmp/points" --soc Ascend910B1 --out "$tmp/fitted.json" --report "$tmp/report.md" \
  >/dev/null 2>"$tmp/fit.err" || fail "fit: $(cat "$tmp/fit.err")"
/usr/bin/python3 - "$tmp/true.json" "$tmp/fitted.json" "$root/resources/soc/Ascend910B1.json" <<'PY' || fail "fit did not recover the parameters: $(cat "$tmp/report.md")"
import json, sys
true, fitted, base = (json.load(open(p)) for p in sys.argv[1:])
def v(d, *path):
    for k in path: d = d[k]
    return d
for path in (("launch", "task_overhead_cycles"), ("gm", "l2_read_bytes_per_cycle"), ("transfer", "GM->UB", "start_cycles"),
             ("gm", "aggregate_bytes_per_cycle")):
    t, f = v(true, *path)["value"], v(fitted, *path)
    assert abs(f["value"] / t - 1) < 0.03, (path, f["value"], t)
    assert f["source"] == "fitted" and "kwb calibrate fit" in f["ref"], f
# The quick set's HBM-bound point (data_copy S5, 226 MB read 4 times) determines the HBM bandwidth; the
# expected error of the bounds the points cover comes from the fit's residuals.
assert fitted["calibration"]["expected_error_pct"]["memory"]["source"] == "fitted", fitted["calibration"]
assert fitted["clock_mhz"]["source"] == "measured", fitted["clock_mhz"]
PY
grep -q "| data_copy_s1_rows96 |" "$tmp/report.md" || fail "report has no residual row per point"
# The cube side of the quick set: a GM->L1 copy and the matmul, measured through their aic_* columns.
grep -q "| data_copy_l1_s1_rows1536 |" "$tmp/report.md" || fail "report has no row for the GM->L1 point"
grep -q "| matmul_m1 |" "$tmp/report.md" || fail "report has no row for the matmul point"
grep -q "aic_mac_ratio" "$tmp/points/matmul_m1/prof/KWB_EMULATED/PipeUtilization.csv" || fail "no aic_mac_ratio column"

# Bad input: a folder without msprof output, an unknown program, a non-numeric duration.
mkdir -p "$tmp/bad"
cp -r "$tmp/points/elementwise_relu_b1" "$tmp/bad/noprof" && rm -rf "$tmp/bad/noprof/prof"
set +e
err=$("$kwb" calibrate fit "$tmp/bad/noprof" --soc Ascend910B1 --out "$tmp/x.json" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "no msprof output exited $rc, want 2"
case "$err" in *"$tmp/bad/noprof"*"no OpBasicInfo.csv"*) ;; *) fail "no-output error: $err";; esac

cp -r "$tmp/points/elementwise_relu_b1" "$tmp/bad/unknown"
sed -i 's/"elementwise.cpp"/"softmax.cpp"/' "$tmp/bad/unknown/kwb-calibration.json"
set +e
err=$("$kwb" calibrate fit "$tmp/bad/unknown" --soc Ascend910B1 --out "$tmp/x.json" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "unknown program exited $rc, want 2"
case "$err" in *"$tmp/bad/unknown/kwb-calibration.json"*"unknown calibration program"*) ;; *) fail "unknown-program error: $err";; esac

cp -r "$tmp/points/elementwise_relu_b1" "$tmp/bad/nan"
sed -i '2s/,vector,[0-9.]*,/,vector,fast,/' "$tmp/bad/nan/prof/KWB_EMULATED/OpBasicInfo.csv"
set +e
err=$("$kwb" calibrate fit "$tmp/bad/nan" --soc Ascend910B1 --out "$tmp/x.json" 2>&1 >/dev/null); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "non-numeric duration exited $rc, want 2"
case "$err" in *"OpBasicInfo.csv:2"*"Task Duration(us)"*) ;; *) fail "non-numeric error: $err";; esac
[ ! -e "$tmp/x.json" ] || fail "a failed fit wrote a SoC file"
echo "calibrate CLI contract ok"
