#!/usr/bin/env bash
# Builds the .kta front-end fuzzer with clang-16 (libFuzzer + AddressSanitizer + UBSan) and runs it.
#   bash tests/fuzz/run.sh [SECONDS]      default 600; corpus in build-fuzz/corpus (seeded from
#                                         every .kta file in the repository), crashes in build-fuzz/
# Every crash it finds becomes a file in tests/fuzz/regressions/, replayed by ctest (lang.fuzz_regressions).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${KTA_FUZZ_DIR:-$root/build-fuzz}
seconds=${1:-600}
mkdir -p "$out/corpus" "$out/artifacts"
clang++-16 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root" -DKTA_STDLIB_DIR="\"$root/stdlib\"" \
  "$root"/lang/*.cpp "$root/tests/fuzz/parse_fuzzer.cpp" -lfmt -o "$out/kta_parse_fuzzer"
find "$root/stdlib" "$root/tasks" "$root/examples" "$root/tests/lang" "$root/tests/fuzz/regressions" \
  -name '*.kta' -exec cp {} "$out/corpus/" \; 2>/dev/null || true
cd "$out"
KTA_FUZZ_TMP=${KTA_FUZZ_TMP:-/tmp} ./kta_parse_fuzzer -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=8192 -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$out/corpus"
