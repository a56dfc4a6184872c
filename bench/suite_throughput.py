#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Suite throughput of `kwb suite run` on the local executor with 1, 2, ... workers (issue 18).

    bench/suite_throughput.py build/dev/app/kwb/kwb [--runs 2] [--samples 2] [--iterations 2] [--workers 1,2,3]

The LLM is the local scripted test server (tests/support/kwb-llm-test-server), which answers at once,
so the time measured is the workbench's own. Runs alternate the worker counts (interleaved, so a change of
machine load hits all alike) and print, per run:

- wall: seconds from start to exit;
- cpu: user + sys seconds of kwb and every sandboxed child it waited for (getrusage of the child);
- cores used: cpu / wall, what the machine actually gave the suite;
- concurrency: the time-average number of samples running at once, from the --json event stream
  (sample_started .. sample_finished). It is what the suite offers the machine and does not depend on
  the machine's load: with 2 workers and enough samples it should be close to 2;
- machine busy: cores' worth of the whole machine's non-idle time during the run (/proc/stat), which
  counts what getrusage cannot (processes nobody waited for, the kernel's own work for the run) and
  everything else running on the machine: on a quiet machine it bounds cores used from above;
- load: /proc/loadavg's 1-minute figure before the run, to tell a loaded machine from a slow suite.

docs/benchmarks.md, "Suite throughput", records the results and the machine.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TASKS = ("add_custom", "relu_custom", "sub_custom")


def start_server(server, src, work):
    """Starts the scripted LLM server; every request gets the unaligned-tail lesson's second reply."""
    lesson = json.load(open(os.path.join(src, "resources/lessons/unaligned-tail/lesson.json")))
    script = os.path.join(work, "script.json")
    with open(script, "w") as f:
        json.dump({"replies": [], "fallback": {"text": lesson["steps"][1]["reply"], "chunk_chars": 400,
                                                "prompt_tokens": 1000, "completion_tokens": 250}}, f)
    proc = subprocess.Popen([server, script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        proc.kill()
        sys.exit("suite_throughput: the test server printed no port")
    return proc, port


def cpu_times():
    """(busy, total) jiffies of the whole machine from /proc/stat's first line."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def mean_concurrency(events, t0, t1):
    """Time-average of the number of samples between their started and finished events."""
    changes = []
    for t, e in events:
        if e.get("event") == "sample_started":
            changes.append((t, 1))
        elif e.get("event") == "sample_finished":
            changes.append((t, -1))
    changes.sort()
    running, last, area = 0, t0, 0.0
    for t, d in changes:
        area += running * (t - last)
        running, last = running + d, t
    area += running * (t1 - last)
    return area / (t1 - t0) if t1 > t0 else 0.0


def run_once(kwb, src, port, workers, args, work, index):
    out = os.path.join(work, f"suite-{index}-w{workers}")
    argv = [kwb, "suite", "run", *[os.path.join(src, "resources/tasks", t) for t in TASKS],
            "--provider", "openai", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "test-model",
            "--api-key-env", "KWB_BENCH_UNSET_KEY", "--samples", str(args.samples),
            "--max-iterations", str(args.iterations), "--workers", str(workers), "--no-expert",
            "--no-report", "--seed", "7", "--json", "--out", out]
    load = loadavg()
    busy0, total0 = cpu_times()
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    events = []
    for line in proc.stdout:
        try:
            events.append((time.monotonic(), json.loads(line)))
        except json.JSONDecodeError:
            pass
    _, status, usage = os.wait4(proc.pid, 0)
    t1 = time.monotonic()
    busy1, total1 = cpu_times()
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit(f"suite_throughput: kwb suite run --workers {workers} exited {rc}")
    finished = sum(1 for _, e in events if e.get("event") == "sample_finished")
    iterations = sum(1 for _, e in events if e.get("event") == "iteration_finished")
    cpu = usage.ru_utime + usage.ru_stime
    shutil.rmtree(out, ignore_errors=True)
    return {"workers": workers, "wall": t1 - t0, "cpu": cpu, "cores": cpu / (t1 - t0),
            "concurrency": mean_concurrency(events, t0, t1), "load": load,
            "machine": (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0),
            "samples": finished, "iterations": iterations}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kwb")
    ap.add_argument("--server", help="kwb-llm-test-server (default: next to the build's tests/support)")
    ap.add_argument("--runs", type=int, default=2, help="runs per worker count (interleaved)")
    ap.add_argument("--samples", type=int, default=2, help="samples per task")
    ap.add_argument("--iterations", type=int, default=2, help="iterations per sample")
    ap.add_argument("--workers", default="1,2", help="worker counts to compare, comma-separated")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    kwb = os.path.abspath(args.kwb)
    server = args.server or os.path.join(os.path.dirname(kwb), "../../tests/support/kwb-llm-test-server")
    work = tempfile.mkdtemp(prefix="kwb-suite-throughput-")
    os.chmod(work, 0o755)  # sandboxed programs may run as another user and must reach the work folder
    server_proc, port = start_server(server, src, work)
    results = []
    try:
        for r in range(args.runs):
            for workers in counts:
                results.append(run_once(kwb, src, port, workers, args, work, r))
                res = results[-1]
                print(f"run {r + 1} --workers {workers}: wall {res['wall']:.1f} s, cpu {res['cpu']:.1f} s, "
                      f"cores used {res['cores']:.2f}, machine busy {res['machine']:.2f}, concurrency {res['concurrency']:.2f}, "
                      f"load before {res['load']:.1f}, {res['samples']} samples, "
                      f"{res['iterations']} iterations", flush=True)
    finally:
        server_proc.terminate()
        server_proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(TASKS)} tasks x {args.samples} samples x {args.iterations} iterations, "
          f"nproc {os.cpu_count()}\n")
    print("| run | workers | wall s | cpu s | cores used | machine busy | concurrency | load before |")
    print("|---|---|---|---|---|---|---|---|")
    for i, res in enumerate(results):
        print(f"| {i // len(counts) + 1} | {res['workers']} | {res['wall']:.1f} | {res['cpu']:.1f} | {res['cores']:.2f} "
              f"| {res['machine']:.2f} | {res['concurrency']:.2f} | {res['load']:.1f} |")
    best = {w: min(r["wall"] for r in results if r["workers"] == w) for w in counts}
    print()
    for w in counts:
        print(f"--workers {w}: best wall {best[w]:.1f} s, speed-up over --workers {counts[0]}: "
              f"{best[counts[0]] / best[w]:.2f}x")


if __name__ == "__main__":
    main()
