#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the last version
# that runs on Node 20) against fcpd_testing over Streamable HTTP.
#
#   tests/e2e/conformance.sh            the scenarios that apply to fcpd (must all pass)
#   tests/e2e/conformance.sh --all      the whole active suite, judged against the baseline
#                                       expected-failures.yml (fixture-tool scenarios)
#   tests/e2e/conformance.sh NAME...    just these scenarios
#
# The daemon is $FCPD (CTest sets it), else fcpd_testing from a build directory of this tree.
# Exit status: 0 all passed, 1 a scenario failed, 77 skipped (node_modules not installed).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_root="$(cd "$here/../.." && pwd)"
version="0.1.13"
package="@modelcontextprotocol/conformance@$version"

# The scenarios that apply to fcpd (docs: shared/spec/mcp.md), plus two that need no fixtures and
# pass for real: resources-list (fcp://DOMAIN/session) and server-sse-multiple-streams.
applicable=(server-initialize ping tools-list logging-set-level dns-rebinding-protection tools-call-error
            resources-list server-sse-multiple-streams)

if [[ ! -f "$here/node_modules/@modelcontextprotocol/conformance/package.json" ]]; then
  echo "SKIP: $here/node_modules is missing (run: npm ci --prefix tests/e2e)"
  exit 77
fi

fcpd="${FCPD:-}"
if [[ -z "$fcpd" ]]; then
  for dir in build-e2e build; do
    if [[ -x "$source_root/$dir/tests/fcpd_testing" ]]; then
      fcpd="$source_root/$dir/tests/fcpd_testing"
      break
    fi
  done
fi
if [[ -z "$fcpd" || ! -x "$fcpd" ]]; then
  echo "error: set FCPD to the fcpd_testing binary" >&2
  exit 1
fi

mode=scenarios
scenarios=("${applicable[@]}")
if [[ $# -gt 0 ]]; then
  if [[ "$1" == "--all" ]]; then
    mode=all
  else
    scenarios=("$@")
  fi
fi

# tools-call-error calls the suite's fixture tool `test_error_handling`; a daemon that can host
# the suite's fixture tools says so in --help (flag --conformance-fixtures).
fixture_flags=()
if "$fcpd" --help 2>/dev/null | grep -q -- '--conformance-fixtures'; then
  fixture_flags=(--conformance-fixtures)
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/fcp-conformance-XXXXXX")"
log="$work/fcpd.log"
"$fcpd" --http 127.0.0.1:0 --root "$work" --log-level info "${fixture_flags[@]}" 2>"$log" >/dev/null </dev/null &
daemon=$!

cleanup() {
  if kill -0 "$daemon" 2>/dev/null; then
    kill -TERM "$daemon" 2>/dev/null
    for _ in $(seq 1 100); do
      kill -0 "$daemon" 2>/dev/null || break
      sleep 0.05
    done
    kill -KILL "$daemon" 2>/dev/null
  fi
  wait "$daemon" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The port the daemon chose, from its log (deadline 15 s).
port=""
for _ in $(seq 1 300); do
  port="$(sed -n 's|.*listening for MCP over HTTP on http://127\.0\.0\.1:\([0-9][0-9]*\)/mcp.*|\1|p' "$log" | head -n 1)"
  [[ -n "$port" ]] && break
  if ! kill -0 "$daemon" 2>/dev/null; then
    echo "error: fcpd_testing exited before listening:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.05
done
if [[ -z "$port" ]]; then
  echo "error: fcpd_testing did not report its HTTP port within 15 s:" >&2
  cat "$log" >&2
  exit 1
fi
url="http://127.0.0.1:$port/mcp"
echo "fcpd_testing (pid $daemon) listening on $url"

# npx from this directory uses the pinned local install; --no forbids fetching anything.
conformance() {
  (cd "$here" && timeout 120 npx --no "$package" server --url "$url" "$@")
}

if [[ "$mode" == all ]]; then
  conformance --expected-failures "$here/expected-failures.yml"
  status=$?
  [[ $status -eq 0 ]] && echo "conformance: the active suite matches expected-failures.yml"
  exit $status
fi

passed=0
failed=0
failures=()
for scenario in "${scenarios[@]}"; do
  echo "=== conformance scenario: $scenario"
  out="$work/$scenario.out"
  conformance --scenario "$scenario" >"$out" 2>&1
  status=$?
  # A scenario passes when the tool exits 0 and reports no failed check.
  if [[ $status -eq 0 ]] && grep -qE '^Passed: [0-9]+/[0-9]+, 0 failed' "$out"; then
    passed=$((passed + 1))
    grep -E '^Passed:' "$out"
  else
    failed=$((failed + 1))
    failures+=("$scenario")
    cat "$out"
  fi
  if ! kill -0 "$daemon" 2>/dev/null; then
    echo "error: fcpd_testing died during $scenario:" >&2
    cat "$log" >&2
    exit 1
  fi
done

echo
if [[ $failed -gt 0 ]]; then
  echo "failed scenarios: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
