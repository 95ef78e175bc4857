#!/usr/bin/env bash
# Configures and builds one flavour into build/<flavour>: release (default), debug or asan
# (AddressSanitizer + UndefinedBehaviorSanitizer). Prints the build directory on stdout.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
flavour="${1:-release}"
dir="$root/build/$flavour"
# Lets ccache reuse objects across clones at different paths (CI builds a fresh clone).
export CCACHE_BASEDIR="$root"
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release) ;;
  debug) args=(-DCMAKE_BUILD_TYPE=Debug) ;;
  asan) args=(-DCMAKE_BUILD_TYPE=Debug -DFCP_SANITIZE=ON -DFCP_BUILD_BENCH=OFF) ;;
  *) echo "usage: build.sh [release|debug|asan]" >&2; exit 2 ;;
esac
[ "${FCP_BUILD_TESTS:-ON}" = OFF ] && args+=(-DFCP_BUILD_TESTS=OFF -DFCP_BUILD_BENCH=OFF)
cmake -S "$root" -B "$dir" -G Ninja "${args[@]}" >&2
cmake --build "$dir" -j "$(nproc)" >&2
echo "$dir"
