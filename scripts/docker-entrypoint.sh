#!/usr/bin/env bash
# How the Docker image runs fcpd: MCP over TCP and Streamable HTTP on all interfaces, with the
# documents volume as the only allowed root. Extra arguments are passed to fcpd.
# Listening on all interfaces needs a token: FCPD_TOKEN (one principal, "default") or
# FCPD_TOKEN_FILE (PRINCIPAL:TOKEN lines, e.g. a Docker secret). Without either it refuses to
# start, unless FCP_INSECURE=1 says something in front of the container authenticates.
# Environment: FCPD (binary), FCPD_CONFIG, FCP_DOCUMENTS, FCP_STATE_DIR, FCP_TCP_PORT,
# FCP_HTTP_PORT, FCP_ALLOW_HOSTS (space-separated extra HTTP Host names, e.g. the service's DNS
# name), FCPD_TOKEN, FCPD_TOKEN_FILE, FCP_INSECURE.
set -euo pipefail
fcpd="${FCPD:-/usr/local/bin/fcpd}"
args=(--tcp "0.0.0.0:${FCP_TCP_PORT:-7300}" --http "0.0.0.0:${FCP_HTTP_PORT:-7301}"
      --root "${FCP_DOCUMENTS:-/documents}" --state-dir "${FCP_STATE_DIR:-/state}")
[ -n "${FCPD_CONFIG:-}" ] && args=(--config "$FCPD_CONFIG" "${args[@]}")
for host in ${FCP_ALLOW_HOSTS:-}; do args+=(--allow-host "$host"); done
[ -n "${FCPD_TOKEN_FILE:-}" ] && args+=(--token-file "$FCPD_TOKEN_FILE")
if [ -z "${FCPD_TOKEN:-}" ] && [ -z "${FCPD_TOKEN_FILE:-}" ]; then
  if [ "${FCP_INSECURE:-}" != 1 ]; then
    cat >&2 <<'MSG'
fcpd-entrypoint: refusing to serve on all interfaces without a token.
  docker run -e FCPD_TOKEN="$(openssl rand -hex 32)" …            one token, principal "default"
  docker run -e FCPD_TOKEN_FILE=/run/secrets/fcpd_tokens …          PRINCIPAL:TOKEN per line
  docker run -e FCP_INSECURE=1 …      only if something in front of the container authenticates
Clients send the token: fcp reads $FCPD_TOKEN (or --token-file FILE); HTTP clients send
"Authorization: Bearer TOKEN". See SECURITY.md.
MSG
    exit 2
  fi
  args+=(--insecure)
fi
exec "$fcpd" "${args[@]}" "$@"
