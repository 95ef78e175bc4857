#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds the release flavour and runs every test
# (unit, conformance, end-to-end with the official MCP SDK and the official MCP conformance
# suite), then builds with ASan+UBSan and runs the tests again under the sanitizers (all but those
# labelled timing), runs each libFuzzer target briefly (scripts/fuzz.sh) and the transport and MCP
# tests under ThreadSanitizer (scripts/tsan.sh). FCP_SKIP_SANITIZERS=1 skips all three, FCP_SKIP_FUZZ=1 and
# FCP_SKIP_TSAN=1 one each.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/install-runtime-deps.sh"  # what the Docker runtime stage runs
( cd "$root/tests/e2e" && { [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error; } )

jobs="$(nproc)"
# Daemons the tests start keep their document journals under the build tree, not in the user's
# ~/.local/state/fcpd: ctest gives every test XDG_STATE_HOME=build/FLAVOUR/test-state (see
# CMakeLists.txt). Tests that kill a daemon on purpose leave journals there: start clean.
rm -rf "$root"/build/*/test-state "$root/build/test-state"
release="$("$root/scripts/build.sh" release)"
echo "== release build: all tests" >&2
ctest --test-dir "$release" --output-on-failure -j "$jobs" --timeout 300

if [ "${FCP_SKIP_SANITIZERS:-0}" != 1 ]; then
  asan="$("$root/scripts/build.sh" asan)"
  # Tests labelled `timing` measure time limits and latency: they mean something only at the
  # release build's speed, so the sanitizer run leaves them out.
  echo "== ASan+UBSan build: all tests but the timing ones" >&2
  LSAN_OPTIONS=suppressions=$root/config/sanitizers/lsan.supp ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$asan" --output-on-failure -j "$jobs" --timeout 600 -LE timing
  if [ "${FCP_SKIP_FUZZ:-0}" != 1 ]; then
    echo "== libFuzzer targets (ASan+UBSan), ${FCP_FUZZ_SECONDS:-30} s each" >&2
    "$root/scripts/fuzz.sh"
  fi
  if [ "${FCP_SKIP_TSAN:-0}" != 1 ]; then
    "$root/scripts/tsan.sh"
  fi
fi
