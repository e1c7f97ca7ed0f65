#!/usr/bin/env bash
# Per-task `kta eval` wall time: runs a plan RUNS+1 times; the first run starts from empty caches
# (kta's compile and reference caches in a fresh folder, the CUDA driver's cache off), the others
# are warm. Prints the whole-run wall time and the per-task times kta reports.
#   bench/engine/eval_wall.sh KTA PLAN DEVICE [RUNS]
set -euo pipefail
kta=$1 plan=$2 device=$3 runs=${4:-3}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
for ((r = 0; r <= runs; r++)); do
  label=warm
  if [ "$r" -eq 0 ]; then label=cold; fi
  t0=$(date +%s.%N)
  out=$(KTA_CACHE_DIR=$cache CUDA_CACHE_DISABLE=$([ "$r" -eq 0 ] && echo 1 || echo 0) \
        "$kta" eval "$plan" --device "$device" 2>/dev/null)
  t1=$(date +%s.%N)
  echo "== run $r ($label): $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}") s for the whole kta eval"
  echo "$out" | sed -n '1,/^$/p'
done
