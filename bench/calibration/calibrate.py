#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every calibration program of bench/calibration/published.json on the emulator (kwb sim build +
run) and prints published vs predicted Task Duration, the error and the per-pipe ratios side by side
(docs/calibration.md). Exit status 1 when a point is outside the tolerance or an optimisation step is
ranked differently from the device.

  bench/calibration/calibrate.py [--kwb build/dev/app/kwb/kwb] [--only ID,...] [--tolerance 25]
                                 [--markdown] [--json OUT]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PIPES = ("V", "S", "MTE2", "MTE3", "M", "MTE1", "FIX")  # M: the cube (msprof mac), FIX: fixpipe

# Optimisation steps the device ranks: (faster label, slower label). Each must be predicted faster too.
STEPS = [
    ("data_copy S3 Tile[64,1024]", "data_copy S1 Tile[1,64]"),
    ("data_copy S2 Tile[64,64]", "data_copy S1 Tile[1,64]"),
    ("data_copy S3 Tile[64,1024]", "data_copy S2 Tile[64,64]"),
    ("data_copy S3 Tile[64,1024]", "data_copy S4 unaligned N=12287"),
    ("data_copy S6 quarters x4 (L2 hit 75%)", "data_copy S5 whole matrix x4 (L2 miss)"),
    ("data_copy S8 same address, staggered", "data_copy S7 same address, same order"),
    ("data_copy_l1 S2 ND2NZ Tile[64,256]", "data_copy_l1 S1 ND2NZ Tile[64,64]"),
    ("data_copy_l1 S2 ND2NZ Tile[64,256]", "data_copy_l1 S3 ND2NZ unaligned N=12287"),
    ("data_copy_l1 S5 quarters x4 (L2 hit 75%)", "data_copy_l1 S4 whole matrix x4 (L2 miss)"),
    ("data_copy_l1 S7 same address, staggered", "data_copy_l1 S6 same address, same order"),
]


def run_point(kwb, point, work):
    defines = point["defines"]
    tag = os.path.splitext(point["program"])[0] + "".join(f"_{k}{v}" for k, v in sorted(defines.items()))
    exe = os.path.join(work, tag)
    cmd = [kwb, "sim", "build", "-o", exe, "--soc", point["soc"]]
    for k, v in sorted(defines.items()):
        cmd += ["-D", f"{k}={v}"]
    cmd.append(os.path.join(HERE, point["program"]))
    build = subprocess.run(cmd, capture_output=True, text=True)
    if build.returncode != 0:
        raise RuntimeError(f"{point['label']}: kwb sim build failed:\n{build.stdout}{build.stderr}")
    report = exe + ".json"
    env = dict(os.environ, KWB_SIM_REPORT=report, KWB_SIM_PROFILE_DIR=work)
    ran = subprocess.run([exe], capture_output=True, text=True, env=env)
    if ran.returncode != 0:
        raise RuntimeError(f"{point['label']}: the program failed:\n{ran.stdout}{ran.stderr}")
    with open(report, encoding="utf-8") as f:
        profile = json.load(f)["profile"]
    os.remove(exe)
    return profile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kwb", default=os.path.join(ROOT, "build", "dev", "app", "kwb", "kwb"))
    ap.add_argument("--only", default="", help="comma-separated point ids or label prefixes")
    ap.add_argument("--tolerance", type=float, default=25.0, help="allowed |error| in percent")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--json", default="", help="also write the results here")
    args = ap.parse_args()
    with open(os.path.join(HERE, "published.json"), encoding="utf-8") as f:
        points = json.load(f)["points"]
    if args.only:
        keys = [k.strip() for k in args.only.split(",") if k.strip()]
        points = [p for p in points if str(p["id"]) in keys or any(p["label"].startswith(k) for k in keys)]

    results = []
    with tempfile.TemporaryDirectory(prefix="kwb-calibration-") as work:
        for p in points:
            prof = run_point(args.kwb, p, work)
            pred = prof["total_us"]
            err = 100.0 * (pred - p["published_us"]) / p["published_us"]
            ratios = {k: prof["pipes"].get(k, {}).get("ratio", 0.0) for k in PIPES}
            results.append(dict(point=p, predicted_us=pred, error_pct=err, ratios=ratios,
                                l2_hit=prof.get("l2_hit_share", 0.0), bound=prof.get("bound", "")))
            print(f"  ran {p['label']}: {pred:.2f} us", file=sys.stderr)

    if args.markdown:
        print("| # | Program | SoC | Published µs | Predicted µs | Error | V pub/pred | S pub/pred | MTE2 pub/pred | "
              "MTE3 pub/pred | M pub/pred | MTE1 pub/pred | FIX pub/pred | L2 hit |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    else:
        print(f"{'#':>3} {'program':40} {'published':>10} {'predicted':>10} {'error':>8}  "
              "ratios pub/pred V S MTE2 MTE3 M MTE1 FIX")
    for r in results:
        p = r["point"]
        pub = p.get("published_ratios", {})
        cells = [f"{pub[k]:.3f}/{r['ratios'][k]:.3f}" if k in pub else f"–/{r['ratios'][k]:.3f}" for k in PIPES]
        if args.markdown:
            print(f"| {p['id']} | {p['label']} | {p['soc']} | {p['published_us']:.2f} | {r['predicted_us']:.2f} | "
                  f"{r['error_pct']:+.1f} % | " + " | ".join(cells) + f" | {r['l2_hit']:.2f} |")
        else:
            print(f"{p['id']:>3} {p['label']:40} {p['published_us']:>10.2f} {r['predicted_us']:>10.2f} "
                  f"{r['error_pct']:>+7.1f}%  " + " ".join(cells))

    # Expected error per kind of kernel: the mean |error| and the worst case, which profiles quote.
    kinds = {}
    for r in results:
        kinds.setdefault(r["point"]["kind"], []).append(abs(r["error_pct"]))
    print()
    for kind, errs in sorted(kinds.items()):
        print(f"kind {kind:16} points {len(errs):3}  mean |error| {sum(errs)/len(errs):5.1f} %  worst {max(errs):5.1f} %")

    # The same by the model's bound: what a profile of that bound quotes as its expected error
    # (resources/soc/*.json "calibration.expected_error_pct").
    bounds = {}
    for r in results:
        bounds.setdefault(r["bound"], []).append(abs(r["error_pct"]))
    for bound, errs in sorted(bounds.items()):
        print(f"bound {bound:15} points {len(errs):3}  mean |error| {sum(errs)/len(errs):5.1f} %  worst {max(errs):5.1f} %")

    failed = [r for r in results if abs(r["error_pct"]) > args.tolerance]
    by_label = {r["point"]["label"]: r for r in results}
    misranked = []
    for fast, slow in STEPS:
        if fast in by_label and slow in by_label:
            ok = by_label[fast]["predicted_us"] < by_label[slow]["predicted_us"]
            print(f"step {fast} < {slow}: {'ranked as on the device' if ok else 'MISRANKED'}")
            if not ok:
                misranked.append((fast, slow))
    # Within one op, a larger batch is slower on the device; the model must agree.
    ops = {}
    for r in results:
        if "CAL_BATCH" in r["point"]["defines"]:
            ops.setdefault(r["point"]["defines"]["CAL_OP"], []).append(r)
    for rs in ops.values():
        rs.sort(key=lambda r: r["point"]["defines"]["CAL_BATCH"])
        for a, b in zip(rs, rs[1:]):
            if not a["predicted_us"] < b["predicted_us"]:
                misranked.append((a["point"]["label"], b["point"]["label"]))
                print(f"step {a['point']['label']} < {b['point']['label']}: MISRANKED")
    print(f"\n{len(results) - len(failed)}/{len(results)} points within ±{args.tolerance:g} %, "
          f"{len(misranked)} misranked steps")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"results": [dict(id=r["point"]["id"], label=r["point"]["label"], kind=r["point"]["kind"],
                                        published_us=r["point"]["published_us"], predicted_us=r["predicted_us"],
                                        error_pct=r["error_pct"], ratios=r["ratios"], bound=r["bound"])
                                   for r in results],
                       "kinds": {k: {"points": len(v), "mean_abs_error_pct": sum(v) / len(v), "worst_pct": max(v)}
                                 for k, v in kinds.items()}}, f, indent=1)
    return 1 if failed or misranked else 0


if __name__ == "__main__":
    sys.exit(main())
