#!/usr/bin/env python3
"""The baseline against itself, N runs, quiet and loaded: how often the task's speedup interval
contains 1.0, and how far the point estimates spread. A harness whose verdicts can be trusted on a
busy machine reads 1.00x within its interval in (nearly) every run, loaded or not.

    bench/engine/self_speedup.py KTA TASK [--runs 20] [--load 0|N] [--timing quick|cold]
                                 [--device cpu|hip] [--plan] [--out DIR]

KTA is the kta binary, TASK a .kta task file (its baseline is evaluated as the candidate: the
replay agent with no solutions); with --plan, TASK is a plan of one task run as it stands (its
own agent and timing: bench/engine/plans/self_*.kta, batch timing or a torch2hip task's starter
against PyTorch). --load N keeps N busy-looping processes beside every run (as
`stress-ng --cpu N` would). Prints one line per run and a summary; the raw results.json of each
run stays under --out.
"""

import argparse
import json
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time


def spin(stop):
    x = 0
    while not stop.is_set():
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF


def one_run(kta, task, out, timing, empty, device, plan):
    args = [kta, "eval", task, "--device", device, "--output", out]
    if not plan:
        args += ["--replay", empty]
    if timing == "quick":
        args.append("--quick")
    t0 = time.monotonic()
    r = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        return None, wall, r.stderr[-2000:]
    doc = json.load(open(os.path.join(out, "results.json")))
    return doc["tasks"][0], wall, ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kta")
    p.add_argument("task")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--load", type=int, default=0)
    p.add_argument("--timing", default="quick", choices=["quick", "cold"])
    p.add_argument("--device", default="cpu")
    p.add_argument("--plan", action="store_true")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    out_root = a.out or tempfile.mkdtemp(prefix="kta-self-speedup-")
    empty = os.path.join(out_root, "no-solutions")
    os.makedirs(empty, exist_ok=True)
    stop = multiprocessing.Event()
    load = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(a.load)]
    for proc in load:
        proc.start()
    estimates, contains, noisy, inconclusive = [], 0, 0, 0
    try:
        for i in range(a.runs):
            t, wall, err = one_run(a.kta, a.task, os.path.join(out_root, "run%02d" % i), a.timing,
                                   empty, a.device, a.plan)
            if t is None:
                print("run %2d: kta failed: %s" % (i, err))
                continue
            s, lo, hi = t["speedup"], t["speedup_ci"][0], t["speedup_ci"][1]
            estimates.append(s)
            inside = lo is not None and hi is not None and lo <= 1.0 <= hi
            contains += inside
            noisy += bool(t.get("speedup_noisy"))
            inconclusive += bool(t.get("inconclusive"))
            print("run %2d: %.3fx [%.3f, %.3f] %s%s wall %.1f s" %
                  (i, s, lo or math.nan, hi or math.nan, "contains 1" if inside else "EXCLUDES 1",
                   " noisy" if t.get("speedup_noisy") else "", wall))
    finally:
        stop.set()
        for proc in load:
            proc.join()
    n = len(estimates)
    if n == 0:
        sys.exit("no run finished")
    logs = [math.log(x) for x in estimates]
    print("summary: %d runs, load %d, timing %s: interval contains 1.0 in %d of %d; estimates "
          "min %.3f median %.3f max %.3f, log stdev %.3f; marked noisy %d, inconclusive %d" %
          (n, a.load, a.timing, contains, n, min(estimates), statistics.median(estimates),
           max(estimates), statistics.pstdev(logs) if n > 1 else 0.0, noisy, inconclusive))


if __name__ == "__main__":
    main()
