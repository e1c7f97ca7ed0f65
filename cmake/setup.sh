#!/usr/bin/env bash
# kta's one set-up script: installs missing Debian packages, configures and builds, then either
# runs the main job (quickstart) or the whole test suite (test).
#   bash cmake/setup.sh quickstart   build everything, run `kta eval` on examples/quickstart.kta
#   bash cmake/setup.sh test         build everything, run the test suite through ctest
#   bash cmake/setup.sh build        only install and build
# build and test also install the agent CLIs the tests run (tests/agents/clis) into $build/agent-clis.
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

# npm for the agent CLIs: Debian's, unless node came with its own npm (nodesource's nodejs, which
# Debian's npm package conflicts with), so the command is checked, not the package.
command -v npm >/dev/null || packages+=(nodejs npm)

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

# The agent CLIs the real-CLI tests run, at the versions of tests/agents/clis/package-lock.json,
# with the Node runtime pinned there (Gemini CLI needs Node >= 20, Debian 12's is 18), into
# $build/agent-clis: bin/ holds claude, codex, gemini and node (tests/agents/cli_install.h). Again
# only when package.json or the lockfile is newer than the last install. Without the registry the
# tests that run them are skipped, with the reason left in .install-failed; the set-up goes on.
install_agent_clis() {
  local src=$root/tests/agents/clis dest=$build/agent-clis
  if [ -f "$dest/.installed" ] && [ -z "$(find "$src" -maxdepth 1 -type f -newer "$dest/.installed")" ]; then
    return 0
  fi
  echo "setup: installing the agent CLIs (npm ci) into $dest"
  mkdir -p "$dest"
  rm -rf "$dest/bin" "$dest/.installed" "$dest/.install-failed"
  cp "$src/package.json" "$src/package-lock.json" "$dest/"
  # Install scripts off (npm 11 skips unapproved ones anyway, and keytar's and node-pty's would
  # fetch from outside the registry); Claude Code's own postinstall is run after, as its stub says.
  local why= node=node runtime cli
  if ! (cd "$dest" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) >"$dest/npm.log" 2>&1; then
    why="npm ci failed (npm registry not reachable?): $(grep -m1 'reason:' "$dest/npm.log" ||
      grep -m1 -i 'error' "$dest/npm.log" || tail -n1 "$dest/npm.log")"
  else
    for runtime in "$dest"/node_modules/node-linux-*/bin/node; do
      if [ -x "$runtime" ]; then node=$runtime; fi
    done
    mkdir -p "$dest/bin"
    if [ "$node" != node ]; then ln -s "../${node#"$dest"/}" "$dest/bin/node"; fi
    for cli in codex gemini claude; do ln -s "../node_modules/.bin/$cli" "$dest/bin/$cli"; done
    if ! (cd "$dest" && "$node" node_modules/@anthropic-ai/claude-code/install.cjs) >>"$dest/npm.log" 2>&1; then
      why="Claude Code's install.cjs failed, see $dest/npm.log"
      rm -f "$dest/bin/claude"
    fi
  fi
  if [ -n "$why" ]; then
    echo "$why" >"$dest/.install-failed"
    echo "setup: agent CLIs not installed, the tests that run them will be skipped: $why"
    return 0
  fi
  touch "$dest/.installed"
}

install_missing
configure_and_build
case "$what" in
  build) install_agent_clis ;;
  quickstart)
    cd "$root/examples"
    "$build/kta" eval quickstart.kta --device cpu
    ;;
  test)
    install_agent_clis
    ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 900 -LE gpu
    ;;
  *) echo "usage: cmake/setup.sh [quickstart|test|build]" >&2; exit 2 ;;
esac
