#!/usr/bin/env bash
# The official MCP conformance suite @modelcontextprotocol/conformance 0.1.13 (the last version
# that runs on Node 20, installed by `npm ci` in this directory) against fcpd_testing over
# Streamable HTTP, with the suite's fixtures hosted by the daemon (--conformance-fixtures).
# The newer suite with its frozen requirement sets runs from conformance-requirements.sh.
#
#   tests/e2e/conformance.sh            the whole active suite: every scenario must pass
#   tests/e2e/conformance.sh NAME...    just these scenarios
#
# Exit status: 0 all passed, 1 a scenario failed, 77 skipped (node_modules not installed).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="@modelcontextprotocol/conformance@0.1.13"
source "$here/conformance_daemon.sh"

if [[ ! -f "$here/node_modules/@modelcontextprotocol/conformance/package.json" ]]; then
  echo "SKIP: $here/node_modules is missing (run: npm ci --prefix tests/e2e)"
  exit 77
fi

start_conformance_daemon

# npx from this directory uses the pinned local install; --no forbids fetching anything.
conformance() {
  (cd "$here" && timeout 120 npx --no "$package" server --url "$url" "$@")
}

# A run passes when the tool exits 0 and its summary reports no failed check.
passes() {
  [[ $1 -eq 0 ]] && grep -qE '^(Total: [0-9]+ passed, 0 failed|Passed: [0-9]+/[0-9]+, 0 failed)' "$2"
}

if [[ $# -eq 0 ]]; then
  out="$work/suite.out"
  conformance >"$out" 2>&1
  status=$?
  check_conformance_daemon "the suite"
  sed -n '/=== SUMMARY ===/,$p' "$out"
  if ! passes $status "$out"; then
    cat "$out"
    echo "conformance $package: a scenario failed (exit status $status)"
    exit 1
  fi
  echo "conformance $package: every scenario of the active suite passed"
  exit 0
fi

passed=0
failed=0
failures=()
for scenario in "$@"; do
  echo "=== conformance scenario: $scenario"
  out="$work/$scenario.out"
  conformance --scenario "$scenario" >"$out" 2>&1
  status=$?
  if passes $status "$out"; then
    passed=$((passed + 1))
    grep -E '^Passed:' "$out"
  else
    failed=$((failed + 1))
    failures+=("$scenario")
    cat "$out"
  fi
  check_conformance_daemon "$scenario"
done

echo
if [[ $failed -gt 0 ]]; then
  echo "failed scenarios: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
