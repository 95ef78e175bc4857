#!/usr/bin/env bash
# The Docker image's entrypoint (scripts/docker-entrypoint.sh) run outside Docker: without a token
# (or FCP_INSECURE=1) it refuses to start; with FCPD_TOKEN it starts the daemon on TCP and HTTP
# with the documents directory as the only root, so that the fcp CLI holding the token can create,
# save and list a document there, and a client without it is refused. Needs FCPD (fcpd_testing)
# and FCP (the CLI).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
docs="$(mktemp -d)"
log="$(mktemp)"
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$docs" "$log"; }
trap cleanup EXIT

# No token, no opt-in: refused with the reason, nothing listens.
if env -u FCPD_TOKEN FCPD="$FCPD" FCP_DOCUMENTS="$docs" FCP_TCP_PORT=0 FCP_HTTP_PORT=0 \
    "$here/../../scripts/docker-entrypoint.sh" 2>"$log"; then
  echo "the entrypoint started without a token"; exit 1
fi
grep -q "refusing to serve on all interfaces without a token" "$log" || { cat "$log"; exit 1; }

token="docker-e2e-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
FCPD="$FCPD" FCP_DOCUMENTS="$docs" FCP_TCP_PORT=0 FCP_HTTP_PORT=0 FCPD_TOKEN="$token" \
  FCPD_CONFIG="$here/../../config/fcpd.json" "$here/../../scripts/docker-entrypoint.sh" 2>"$log" &
pid=$!
for _ in $(seq 100); do
  port="$(sed -n 's/.*listening for MCP over TCP on [0-9.]*:\([0-9]*\).*/\1/p' "$log")"
  http="$(sed -n 's/.*listening for MCP over HTTP on http:\/\/[0-9.]*:\([0-9]*\)\/mcp.*/\1/p' "$log")"
  [ -n "$port" ] && [ -n "$http" ] && break
  sleep 0.1
done
[ -n "$port" ] && [ -n "$http" ] || { echo "daemon did not start:"; cat "$log"; exit 1; }

export FCPD_TOKEN="$token"
"$FCP" --connect "tcp://127.0.0.1:$port" --session docker deck_session 'new "Box"'
"$FCP" --connect "tcp://127.0.0.1:$port" --session docker deck 'add A color:red'
"$FCP" --connect "http://127.0.0.1:$http/mcp" --session docker deck_session 'save as:box.deck'
[ -s "$docs/box.deck" ] || { echo "the document was not saved in the documents root"; exit 1; }
if "$FCP" --connect "tcp://127.0.0.1:$port" --session docker deck_session 'save as:/tmp/escape.deck'; then
  echo "a save outside the documents root was accepted"; exit 1
fi
if env -u FCPD_TOKEN "$FCP" --connect "tcp://127.0.0.1:$port" deck_session list 2>/dev/null; then
  echo "a client without the token was served over TCP"; exit 1
fi
if FCPD_TOKEN="wrong-token-0123456789" "$FCP" --connect "http://127.0.0.1:$http/mcp" deck_session list 2>/dev/null; then
  echo "a client with a wrong token was served over HTTP"; exit 1
fi
echo "docker entrypoint: ok"
