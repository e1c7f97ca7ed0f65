#!/usr/bin/env bash
# kta's one set-up script: installs missing Debian packages, configures and builds, then either
# runs the main job (quickstart) or the whole test suite (test).
#   bash cmake/setup.sh quickstart   build everything, run `kta eval` on examples/quickstart.kta
#   bash cmake/setup.sh test         build everything, run the test suite through ctest
#   bash cmake/setup.sh build        only install and build
# Environment: KTA_BUILD_DIR (default build), KTA_JOBS (default nproc), CI=true turns on -Werror.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KTA_BUILD_DIR:-$root/build}
jobs=${KTA_JOBS:-$(nproc)}
what=${1:-quickstart}

packages=(
  build-essential cmake ninja-build ccache pkg-config
  tao-pegtl-dev libfmt-dev libgtest-dev libgmock-dev nlohmann-json3-dev libcli11-dev
  libsqlite3-dev libboost-context-dev libssl-dev libdtl-dev
  clang-16 libclang-16-dev libclang-cpp16-dev llvm-16-dev libclang-rt-16-dev clang-tidy-16
  libamdhip64-dev hipcc
  python3-torch python3-numpy bubblewrap clang-format-16 universal-ctags
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages (run as root or install them first)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

configure_and_build() {
  # ccache keyed relative to the source root, so fresh clones reuse earlier builds.
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKTA_WERROR=$werror >/dev/null
  fi
  cmake --build "$build" -j "$jobs"
}

install_missing
configure_and_build
case "$what" in
  build) ;;
  quickstart)
    cd "$root/examples"
    "$build/kta" eval quickstart.kta --device cpu
    ;;
  test)
    ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 900 -LE gpu
    ;;
  *) echo "usage: cmake/setup.sh [quickstart|test|build]" >&2; exit 2 ;;
esac
