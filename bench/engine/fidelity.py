"""Run-to-run spread of kta's timing: evaluates a task (baseline against itself) N times with
`kta eval` and reports the median per-launch time of each evaluation and the coefficient of
variation of those medians, for the baseline and the candidate series.

To tell where a spread comes from, it also prints, per series, the standard error a median of the
run's own samples would have if the samples were independent (1.2533 stdev / sqrt(n), as a share
of the median, averaged over runs): a between-run CV near it is sampling noise that more samples
shrink; a CV well above it is a per-process offset (clock state, memory placement). The
correlation of the baseline and candidate medians across runs separates offsets common to the
GPU (both series move together) from offsets of each worker process (they do not).
Usage: python3 bench/engine/fidelity.py KTA TASK.kta DEVICE [N] [-- extra kta eval arguments]"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile


def correlation(x, y):
    mx, my = statistics.mean(x), statistics.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sxy / (sx * sy) if sx > 0 and sy > 0 else float("nan")


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    kta, task, device = args[:3]
    n = int(args[3]) if len(args) > 3 else 20
    series = {"baseline": [], "candidate": []}
    se = {"baseline": [], "candidate": []}
    samples = []
    with tempfile.TemporaryDirectory() as out:
        for i in range(n):
            run = os.path.join(out, str(i))
            subprocess.run([kta, "eval", task, "--device", device, "--output", run] + extra,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            doc = json.load(open(os.path.join(run, "results.json")))
            shape = next(s for s in doc["tasks"][0]["shapes"]
                         if s.get("set") == "visible" and "candidate" in s)
            for k in series:
                st = shape[k]
                series[k].append(st["median"])
                if st.get("n", 0) > 1 and st["median"]:
                    se[k].append(1.2533 * st["stdev"] / math.sqrt(st["n"]) / st["median"])
            samples.append(shape["candidate"].get("n", 0))
    print(f"{os.path.basename(task)} on {device}: {n} evaluations {' '.join(extra)}")
    for k, v in series.items():
        mean = statistics.mean(v)
        cv = statistics.stdev(v) / mean * 100
        within = statistics.mean(se[k]) * 100 if se[k] else float("nan")
        print(f"  {k:9s} median of medians {statistics.median(v) * 1e6:.4f} us, "
              f"CV {cv:.3f}%  (min {min(v) * 1e6:.4f}, max {max(v) * 1e6:.4f}); "
              f"within-run standard error {within:.3f}%")
    print(f"  correlation of baseline and candidate medians across runs: "
          f"{correlation(series['baseline'], series['candidate']):+.2f}")
    print(f"  samples per evaluation (candidate): {samples}")
    print("  medians (us), baseline/candidate: " + " ".join(
        f"{a * 1e6:.4f}/{b * 1e6:.4f}" for a, b in zip(series["baseline"], series["candidate"])))


if __name__ == "__main__":
    main()
