#!/usr/bin/env bash
# Builds the transport, MCP and daemon (event loop) tests with ThreadSanitizer (scripts/build.sh
# tsan: clang) and runs them; any data race, lock-order inversion or thread leak fails the run.
# Boost.Asio and Beast are header-only, so their code in these tests is instrumented too;
# libstdc++, Boost.JSON and spdlog are not (TSan still sees their locks and atomics through its
# interceptors).
#   scripts/tsan.sh [GTEST_ARGS...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(FCP_TARGETS="transport_tests mcp_tests daemon_tests" "$root/scripts/build.sh" tsan)"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/config/sanitizers/tsan.supp ${TSAN_OPTIONS:-}"
export FCP_SOURCE_DIR="$root"
for tests in transport_tests mcp_tests daemon_tests; do
  echo "== ThreadSanitizer build: $tests" >&2
  "$build/tests/$tests" --gtest_brief=1 "$@"
done
