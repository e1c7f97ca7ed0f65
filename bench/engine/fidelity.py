"""Run-to-run spread of kta's timing: evaluates a task (baseline against itself) N times with
`kta eval` and reports the median per-launch time of each evaluation and the coefficient of
variation of those medians, for the baseline and the candidate series.
Usage: python3 bench/engine/fidelity.py KTA TASK.kta DEVICE [N]"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    kta, task, device = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    series = {"baseline": [], "candidate": []}
    samples = []
    with tempfile.TemporaryDirectory() as out:
        for i in range(n):
            run = os.path.join(out, str(i))
            subprocess.run([kta, "eval", task, "--device", device, "--output", run],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            doc = json.load(open(os.path.join(run, "results.json")))
            shape = next(s for s in doc["tasks"][0]["shapes"]
                         if s.get("set") == "visible" and "candidate" in s)
            for k in series:
                series[k].append(shape[k]["median"])
            samples.append(shape["candidate"].get("n", 0))
    print(f"{os.path.basename(task)} on {device}: {n} evaluations")
    for k, v in series.items():
        mean = statistics.mean(v)
        cv = statistics.stdev(v) / mean * 100
        print(f"  {k:9s} median of medians {statistics.median(v) * 1e6:.3f} us, "
              f"CV {cv:.3f}%  (min {min(v) * 1e6:.3f}, max {max(v) * 1e6:.3f})")
    print(f"  samples per evaluation (candidate): {samples}")


if __name__ == "__main__":
    main()
