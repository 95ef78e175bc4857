#!/usr/bin/env bash
# Renders deploy/nginx.conf.template for a set of fcpd replicas.
#
#   deploy/nginx-conf.sh PREFIX LISTEN NAME=HOST:PORT... > PREFIX/nginx.conf
#
# PREFIX: nginx's directory (pid, logs, temp files; made if missing); LISTEN: the address:port
# clients use (e.g. 127.0.0.1:8080); NAME=HOST:PORT: each replica's --replica-id and --http
# address. Run nginx with: nginx -p PREFIX -e PREFIX/error.log -c PREFIX/nginx.conf
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -lt 3 ]]; then
  echo "usage: $0 PREFIX LISTEN NAME=HOST:PORT..." >&2
  exit 2
fi
prefix="$1"
listen="$2"
shift 2
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

names=()
addresses=()
for replica in "$@"; do
  name="${replica%%=*}"
  address="${replica#*=}"
  if [[ ! "$name" =~ ^[A-Za-z0-9_-]{1,32}$ || ! "$address" =~ ^[^=[:space:]]+:[0-9]+$ ]]; then
    echo "$0: \"$replica\" is not NAME=HOST:PORT (NAME as fcpd --replica-id takes it)" >&2
    exit 2
  fi
  names+=("$name")
  addresses+=("$address")
done

doc_servers=""
replica_upstreams=""
session_map=""
for i in "${!names[@]}"; do
  doc_servers+="    server ${addresses[$i]} max_fails=1 fail_timeout=10s;"$'\n'
  replica_upstreams+="  upstream fcp_${names[$i]} {"$'\n'
  replica_upstreams+="    server ${addresses[$i]} max_fails=1 fail_timeout=10s;"$'\n'
  for j in "${!names[@]}"; do
    [[ $j -eq $i ]] || replica_upstreams+="    server ${addresses[$j]} backup;"$'\n'
  done
  replica_upstreams+="    keepalive 16;"$'\n'"  }"$'\n'
  session_map+="    \"~^${names[$i]}-\" fcp_${names[$i]};"$'\n'
done

template="$(<"$here/nginx.conf.template")"
template="${template//@PREFIX@/$prefix}"
template="${template//@LISTEN@/$listen}"
template="${template//@DOC_SERVERS@/${doc_servers%$'\n'}}"
template="${template//@REPLICA_UPSTREAMS@/${replica_upstreams%$'\n'}}"
template="${template//@SESSION_MAP@/${session_map%$'\n'}}"
printf '%s\n' "$template"
