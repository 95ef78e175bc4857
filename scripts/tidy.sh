#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy) over every first-party translation unit (src/,
# domains/, tests/, bench/, fuzz/) of a build, one process per core. Any warning is an error:
# prints the warnings of each file that has some and exits 1.
#   scripts/tidy.sh [BUILD_DIR] [PATH_REGEX]
# BUILD_DIR defaults to build/release (configured, not built, when it has no
# compile_commands.json); PATH_REGEX limits the run to matching files, e.g. 'src/mcp/'.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/release}"
filter="${2:-}"
if [ ! -f "$build/compile_commands.json" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

python3 - "$build/compile_commands.json" "$root" "$filter" >"$logs/files" <<'EOF'
import json, re, sys
commands, root, pattern = sys.argv[1], sys.argv[2].rstrip("/") + "/", sys.argv[3]
first_party = re.compile(r"(src|domains|tests|bench|fuzz)/")
files = set()
for entry in json.load(open(commands)):
    path = entry["file"]
    relative = path[len(root):] if path.startswith(root) else None
    if relative and first_party.match(relative) and re.search(pattern, relative):
        files.add(path)
print("\n".join(sorted(files)))
EOF
count="$(grep -c . "$logs/files" || true)"
if [ "$count" -eq 0 ]; then
  echo "tidy: no translation unit matches '$filter' in $build" >&2
  exit 2
fi
echo "tidy: $count translation units, $(nproc) at a time" >&2

# One log per file. GCC-only warning flags in the compile commands (-Wno-restrict) mean nothing to
# clang; clang's own compiler warnings still count.
export build logs
tr '\n' '\0' <"$logs/files" | xargs -0 -P "$(nproc)" -I{} sh -c '
  log="$logs/$(printf %s "$1" | tr / _).log"
  clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option "$1" >"$log" 2>&1 ||
    touch "$log.failed"
' sh {}

failed=0
for marker in "$logs"/*.failed; do
  [ -e "$marker" ] || continue
  failed=$((failed + 1))
  grep -v -e '^[0-9]* warnings\? \(and [0-9]* errors\? \)\?generated\.$' \
    -e '^Error while processing ' -e '^Suppressed [0-9]* warnings' \
    -e '^Use -header-filter=' "${marker%.failed}"
done
if [ "$failed" -gt 0 ]; then
  echo "tidy: $failed of $count translation units have warnings (${SECONDS} s)" >&2
  exit 1
fi
echo "tidy: $count translation units, no warnings (${SECONDS} s)" >&2
