#!/usr/bin/env bash
# Configures and builds one flavour into build/<flavour>: release (default), debug, asan
# (AddressSanitizer + UndefinedBehaviorSanitizer), fuzz (the libFuzzer targets of fuzz/, clang,
# ASan + UBSan) or tsan (ThreadSanitizer, clang). Prints the build directory on stdout.
# FCP_TARGETS="a b" builds only those targets (fuzz builds fuzz_all unless told otherwise).
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
  fuzz)
    # -O1 with line tables only: stack traces name lines; asserts stay on (no NDEBUG).
    args=(-DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only"
          -DCMAKE_CXX_COMPILER=clang++ -DFCP_FUZZ=ON -DFCP_BUILD_TESTS=OFF -DFCP_BUILD_BENCH=OFF)
    : "${FCP_TARGETS:=fuzz_all}" ;;
  tsan)
    args=(-DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only"
          -DCMAKE_CXX_COMPILER=clang++ -DFCP_TSAN=ON -DFCP_BUILD_BENCH=OFF) ;;
  *) echo "usage: build.sh [release|debug|asan|fuzz|tsan]" >&2; exit 2 ;;
esac
[ "${FCP_BUILD_TESTS:-ON}" = OFF ] && args+=(-DFCP_BUILD_TESTS=OFF -DFCP_BUILD_BENCH=OFF)
cmake -S "$root" -B "$dir" -G Ninja "${args[@]}" >&2
targets=()
for target in ${FCP_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >&2
echo "$dir"
