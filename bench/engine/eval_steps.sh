#!/usr/bin/env bash
# Where a task's `kta eval` time goes, run after run: runs TARGET (a task or a plan) RUNS+1 times
# over one kta cache folder (run 0 from empty caches, the others warm) and prints, per run, the
# whole wall time, each step's wall time summed over the run's tasks, and the python runners'
# start count. Side by side with eval_wall.sh, which prints kta's own per-task summary.
#   bench/engine/eval_steps.sh KTA TARGET DEVICE [RUNS] [EXTRA EVAL ARGS...]
# KTA_CACHE_DIR, when set, is used as it is (warm from the start); else a fresh folder. With
# PHASES=1 each step's phases follow (bench/engine/step_profile.py: where a step's time went).
# For reference: AgentKernelArena's own harness took 14.4 s (warm) for compile, correctness and
# performance of its rms_norm task on 5 shapes on the H200 (issue 18).
set -euo pipefail
kta=$1 target=$2 device=$3 runs=${4:-2}
shift $(( $# < 4 ? $# : 4 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=${KTA_CACHE_DIR:-$work/cache}
for ((r = 0; r <= runs; r++)); do
  t0=$(date +%s.%N)
  KTA_CACHE_DIR=$cache "$kta" eval "$target" --device "$device" --output "$work/run$r" "$@" \
    >"$work/out$r" 2>"$work/err$r" || true
  t1=$(date +%s.%N)
  python3 - "$work/run$r" "$r" "$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")" "$work/err$r" <<'PY'
import collections, json, os, sqlite3, sys
run, r, wall, errf = sys.argv[1:5]
steps = collections.OrderedDict()
tasks = set()
try:
    db = sqlite3.connect(os.path.join(run, "results.db"))
    for task, step, outcome, secs in db.execute(
            "SELECT task, step, outcome, wall_seconds FROM step ORDER BY seq"):
        tasks.add(task)
        key = step if outcome in ("ok", "fail") else "%s (%s)" % (step, outcome)
        steps[key] = steps.get(key, 0.0) + secs
except Exception as e:
    print("run %s: no results.db (%s)" % (r, e))
starts = [l.strip() for l in open(errf) if l.startswith("python runner")]
print("== run %s: %s s for the whole kta eval, %d task(s)%s" %
      (r, wall, len(tasks), "; " + starts[-1] if starts else ""))
print("   " + ", ".join("%s %.2f s" % kv for kv in steps.items()))
PY
  if [ "${PHASES:-0}" = 1 ]; then
    python3 "$(dirname "$0")/step_profile.py" "$work/run$r" | grep -v "^  device:" | sed 's/^/     /'
  fi
done
