# Sourced by the conformance scripts: starts fcpd_testing over Streamable HTTP on a port it picks,
# with the conformance suite's fixtures (--conformance-fixtures), and stops it on exit.
#
#   start_conformance_daemon      sets daemon (pid), work (temporary root), url; exits 1 on failure
#   check_conformance_daemon WHAT exits 1 (with the daemon's log) when it died during WHAT
#
# The daemon is $FCPD (CTest sets it), else fcpd_testing from a build directory of this tree.

conformance_source_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

start_conformance_daemon() {
  local fcpd="${FCPD:-}"
  if [[ -z "$fcpd" ]]; then
    for dir in build-e2e build/release build; do
      if [[ -x "$conformance_source_root/$dir/tests/fcpd_testing" ]]; then
        fcpd="$conformance_source_root/$dir/tests/fcpd_testing"
        break
      fi
    done
  fi
  if [[ -z "$fcpd" || ! -x "$fcpd" ]]; then
    echo "error: set FCPD to the fcpd_testing binary" >&2
    exit 1
  fi

  work="$(mktemp -d "${TMPDIR:-/tmp}/fcp-conformance-XXXXXX")"
  log="$work/fcpd.log"
  "$fcpd" --http 127.0.0.1:0 --root "$work" --log-level info --conformance-fixtures \
    2>"$log" >/dev/null </dev/null &
  daemon=$!
  trap stop_conformance_daemon EXIT
  trap 'exit 1' INT TERM

  # The port the daemon chose, from its log (deadline 15 s).
  local port=""
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
}

check_conformance_daemon() {
  if ! kill -0 "$daemon" 2>/dev/null; then
    echo "error: fcpd_testing died during $1:" >&2
    cat "$log" >&2
    exit 1
  fi
}

stop_conformance_daemon() {
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
