#!/usr/bin/env bash
# Builds the release flavour and runs the benchmarks: bench_core, bench_drawio and bench_midi
# (Google Benchmark) and bench_roundtrip (the real daemon measured from outside over stdio, TCP and
# Streamable HTTP). Each one's output is saved under bench/results/, named by UTC date and time.
#   bench/run.sh [bench_roundtrip options...]   e.g. bench/run.sh --calls 5000 --seconds 2
#   FCP_BENCH_BUILD_DIR=DIR bench/run.sh        use an existing build directory, build nothing
#   FCP_BENCH_ONLY="roundtrip" bench/run.sh     run a subset of: core drawio midi lofi roundtrip
#   FCP_BENCH_ONLY="big" bench/run.sh           bench_big alone (minutes and several GB; not run
#                                               by default)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ -n "${FCP_BENCH_BUILD_DIR:-}" ]; then
  build="$FCP_BENCH_BUILD_DIR"
elif [ -x "$root/scripts/build.sh" ]; then
  build="$("$root/scripts/build.sh" release)"
else
  build="$root/build/release"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  cmake --build "$build" >&2
fi
for binary in bench/bench_core bench/bench_drawio bench/bench_midi bench/bench_lofi bench/bench_roundtrip \
  tests/fcpd_testing; do
  [ -x "$build/$binary" ] || { echo "run.sh: $build/$binary is missing" >&2; exit 1; }
done

results="$root/bench/results"
mkdir -p "$results"
stamp="$(date -u +%Y-%m-%dT%H%M%SZ)"
header() {
  echo "# $1 — $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# commit $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)," \
       "$(uname -srm), $(nproc) CPUs"
}

only=" ${FCP_BENCH_ONLY:-core drawio midi lofi roundtrip} "
for bench in core drawio midi lofi; do
  [[ "$only" == *" $bench "* ]] || continue
  echo "== bench_$bench" >&2
  {
    header "bench_$bench"
    "$build/bench/bench_$bench" --benchmark_out="$results/$stamp-$bench.json" \
      --benchmark_out_format=json 2>&1
  } | tee "$results/$stamp-$bench.txt"
done

if [[ "$only" == *" big "* ]]; then
  echo "== bench_big" >&2
  [ -x "$build/bench/bench_big" ] || { echo "run.sh: $build/bench/bench_big is missing" >&2; exit 1; }
  {
    header bench_big
    echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    "$build/bench/bench_big" 2>&1
  } | tee "$results/$stamp-big.txt"
fi

if [[ "$only" == *" roundtrip "* ]]; then
  echo "== bench_roundtrip" >&2
  {
    header bench_roundtrip
    "$build/bench/bench_roundtrip" --fcpd "$build/tests/fcpd_testing" \
      --json "$results/$stamp-roundtrip.json" "$@" 2>&1
  } | tee "$results/$stamp-roundtrip.txt"
fi

# Paths relative to the repository, so saved results name no machine's directories.
sed -i "s|$root/||g" "$results/$stamp"-*
echo "results: $results/$stamp-*.{txt,json}" >&2
