#!/usr/bin/env bash
# clang-format over kta's own C++ sources (engine, lang, analyzers, tests, bench). Kernels that are
# test or benchmark data (corpus, kernels, cases, fixtures, data folders) and the task suite keep
# their exact text: tests cite their line numbers and tasks are hashed.
#   bash cmake/format.sh          rewrite files in place
#   bash cmake/format.sh --check  list unformatted files and exit 1 when there are any
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tool=${KTA_CLANG_FORMAT:-clang-format-16}
command -v "$tool" >/dev/null || { echo "format: $tool not found (bash cmake/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- 'engine/*.cpp' 'engine/*.h' 'lang/*.cpp' 'lang/*.h' \
  'analyzers/*.cpp' 'analyzers/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'bench/*.h' |
  grep -vE '/(corpus|kernels|cases|fixtures|data)/')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    "$tool" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format: ${#bad[@]} of ${#files[@]} files are not clang-format clean (bash cmake/format.sh fixes them):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files clean ($("$tool" --version | grep -o 'version [0-9.]*'))"
else
  "$tool" -i "${files[@]}"
fi
