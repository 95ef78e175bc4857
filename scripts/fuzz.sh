#!/usr/bin/env bash
# Builds the libFuzzer targets (scripts/build.sh fuzz: clang, ASan + UBSan) and runs each one for
# a while on seeds from fixtures/ and fuzz/seeds/. Any crash, leak, UB report or timeout fails
# the run; libFuzzer leaves the input in build/fuzz/artifacts/ (add it to fuzz/seeds/<target>/
# with the fix, and a regression test to the unit tests).
#   scripts/fuzz.sh [TARGET...]
# FCP_FUZZ_SECONDS (default 30) is the time per target; FCP_FUZZ_JOBS (default nproc, at most 2)
# how many targets run at once. build/fuzz/corpus/<target> keeps what each run found, so later
# local runs start from there; CI starts from the seeds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${FCP_FUZZ_SECONDS:-30}"
jobs="${FCP_FUZZ_JOBS:-$(($(nproc) < 2 ? $(nproc) : 2))}"
all=(fuzz_op_parser fuzz_jsonrpc fuzz_http fuzz_smf fuzz_drawio fuzz_maxpat fuzz_osc)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

build="$(FCP_TARGETS="${targets[*]}" "$root/scripts/build.sh" fuzz)"
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/artifacts" "$build/logs"

# Seeds from the fixtures: documents as they are, ops from the golden transcripts and the
# tokenizer/parser conformance fixtures.
collect() {  # TARGET FILE...
  mkdir -p "$seeds/$1"
  local target="$1"
  shift
  cp "$@" "$seeds/$target/"
}
collect fuzz_smf "$root"/fixtures/midi/smf/*.mid "$root"/fixtures/midi/smf/*.rmi
collect fuzz_drawio "$root"/fixtures/drawio/*.drawio "$root"/fixtures/drawio/*.svg \
  "$root"/fixtures/drawio/*.png "$root"/fixtures/drawio/*.xml
collect fuzz_maxpat "$root"/fixtures/lofi/*.maxpat "$root"/fixtures/lofi/*.amxd
python3 - "$root" "$seeds/fuzz_op_parser" <<'PY'
import glob, json, os, sys
root, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
ops = set()
for path in glob.glob(f"{root}/fixtures/*/transcripts/*.txt"):
    for line in open(path, encoding="utf-8"):
        if line.startswith(">> "):
            ops.add(line[3:].rstrip("\n"))
        elif line.startswith("> ") and " " in line[2:]:
            ops.add(line[2:].rstrip("\n").split(" ", 1)[1])
def inputs(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "input" and isinstance(item, str):
                yield item
            else:
                yield from inputs(item)
    elif isinstance(value, list):
        for item in value:
            yield from inputs(item)
for name in ("tokenizer", "parse-op"):
    ops.update(inputs(json.load(open(f"{root}/fixtures/conformance/{name}.json", encoding="utf-8"))))
for i, op in enumerate(sorted(ops)):
    with open(f"{out}/op{i:04d}", "w", encoding="utf-8") as f:
        f.write(op)
PY

dictionary() {
  case "$1" in
    fuzz_op_parser) echo op ;;
    fuzz_jsonrpc) echo jsonrpc ;;
    fuzz_http) echo http ;;
    fuzz_drawio) echo drawio ;;
    fuzz_maxpat) echo maxpat ;;
  esac
}

run() {  # TARGET: fuzzes for $seconds; prints one summary line
  local target="$1" dict args=()
  dict="$(dictionary "$target")"
  [ -n "$dict" ] && args+=("-dict=$root/fuzz/dicts/$dict.dict")
  mkdir -p "$build/corpus/$target" "$build/artifacts/$target" "$seeds/$target"
  local extra=()
  [ -d "$root/fuzz/seeds/$target" ] && extra+=("$root/fuzz/seeds/$target")
  local log="$build/logs/$target.log"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/fuzz/$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" "${args[@]}" \
    "$build/corpus/$target" "$seeds/$target" "${extra[@]}" >"$log" 2>&1; then
    echo "fuzz: $target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') executions in ${seconds} s, corpus $(ls "$build/corpus/$target" | wc -l), no findings"
  else
    echo "fuzz: $target FAILED (log: $log; input in $build/artifacts/$target/)"
    grep -m 20 -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$log" || tail -30 "$log"
    return 1
  fi
}
export -f run dictionary
export build seeds root seconds

echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $jobs at a time" >&2
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run "$1"' _ {}
