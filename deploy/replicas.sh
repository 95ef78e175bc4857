#!/usr/bin/env bash
# Starts N fcpd replicas sharing one state directory behind nginx, in the foreground; Ctrl-C
# (or SIGTERM) stops them all. For a single machine; see deploy/README.md for more.
#
#   deploy/replicas.sh [-n N] [-p PORT] [-s STATE_DIR] [-r ROOT] [-b FIRST_REPLICA_PORT]
#
# Clients use http://127.0.0.1:PORT/mcp (default 8080). Replica i (r1, r2, …) listens on
# 127.0.0.1:FIRST_REPLICA_PORT+i-1 (default 18081…), with --replica-id ri --state-dir STATE_DIR
# (default ./fcpd-state) --root ROOT (default the working directory). nginx runs without root
# from its own prefix, STATE_DIR/nginx. FCPD and NGINX name the binaries (default: on PATH).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
count=2
port=8080
state="$PWD/fcpd-state"
root="$PWD"
first=18081
while getopts "n:p:s:r:b:" option; do
  case "$option" in
    n) count="$OPTARG" ;;
    p) port="$OPTARG" ;;
    s) state="$OPTARG" ;;
    r) root="$OPTARG" ;;
    b) first="$OPTARG" ;;
    *) sed -n '2,11p' "$0" >&2; exit 2 ;;
  esac
done
fcpd="${FCPD:-$(command -v fcpd || true)}"
nginx="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
[[ -x "$fcpd" ]] || { echo "$0: fcpd not found (set FCPD=path/to/fcpd)" >&2; exit 1; }
[[ -x "$nginx" ]] || { echo "$0: nginx not found (apt-get install nginx, or set NGINX)" >&2; exit 1; }
mkdir -p "$state"
state="$(cd "$state" && pwd)"

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop EXIT
trap 'exit 0' INT TERM

replicas=()
for ((i = 1; i <= count; ++i)); do
  address="127.0.0.1:$((first + i - 1))"
  # nginx runs here: its X-Forwarded-For names each client (limits.max_calls_per_client).
  "$fcpd" --http "$address" --state-dir "$state" --replica-id "r$i" --root "$root" \
    --trusted-proxy 127.0.0.1 --log-file "$state/r$i.log" 2>/dev/null &
  pids+=($!)
  replicas+=("r$i=$address")
done
"$here/nginx-conf.sh" "$state/nginx" "127.0.0.1:$port" "${replicas[@]}" >"$state/nginx.conf.tmp"
mv "$state/nginx.conf.tmp" "$state/nginx/nginx.conf"
"$nginx" -p "$state/nginx" -e "$state/nginx/error.log" -c "$state/nginx/nginx.conf" \
  -g 'daemon off;' &
pids+=($!)
echo "fcpd replicas ${replicas[*]} behind nginx at http://127.0.0.1:$port/mcp (state: $state)"
wait -n || true
echo "$0: a replica or nginx ended; stopping the others" >&2
