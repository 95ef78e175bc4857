#!/usr/bin/env bash
# How the Docker image runs fcpd: MCP over TCP and Streamable HTTP on all interfaces, with the
# documents volume as the only allowed root. Extra arguments are passed to fcpd.
# Environment: FCPD (binary), FCPD_CONFIG, FCP_DOCUMENTS, FCP_STATE_DIR, FCP_TCP_PORT, FCP_HTTP_PORT,
# FCP_ALLOW_HOSTS (space-separated extra HTTP Host names, e.g. the service's DNS name).
set -euo pipefail
fcpd="${FCPD:-/usr/local/bin/fcpd}"
args=(--tcp "0.0.0.0:${FCP_TCP_PORT:-7300}" --http "0.0.0.0:${FCP_HTTP_PORT:-7301}"
      --root "${FCP_DOCUMENTS:-/documents}" --state-dir "${FCP_STATE_DIR:-/state}")
[ -n "${FCPD_CONFIG:-}" ] && args=(--config "$FCPD_CONFIG" "${args[@]}")
for host in ${FCP_ALLOW_HOSTS:-}; do args+=(--allow-host "$host"); done
exec "$fcpd" "${args[@]}" "$@"
