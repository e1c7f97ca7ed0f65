#!/usr/bin/env bash
# The suite through `kta validate`: wall time and the per-check table, for bench/validate/RESULTS.md.
#   bench/validate/validate_suite.sh BUILD_DIR [DEVICE] [kta validate options...]
# e.g. bench/validate/validate_suite.sh build cpu --quick
#      bench/validate/validate_suite.sh build hip
# Validates every task under tasks/ with the cache off, prints the wall time, then the table
# (bench/validate/table.py) of every check's outcome per task.
set -euo pipefail
build=${1:?usage: validate_suite.sh BUILD_DIR [DEVICE] [options...]}
device=${2:-cpu}
shift $(($# < 2 ? $# : 2))
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
status=0
"$build/kta" validate "$root/tasks" --device "$device" --no-cache --format json "$@" >"$out" || status=$?
end=$(date +%s.%N)
echo "kta validate tasks/ --device $device $* : exit $status, $(echo "$end - $start" | bc) s wall"
echo "machine: $(nproc) cores, $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
python3 "$root/bench/validate/table.py" "$out"
