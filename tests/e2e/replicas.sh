#!/usr/bin/env bash
# The replica test (replicas.test.mjs): two fcpd replicas behind nginx. Installs nginx (Debian
# package) when it is missing, as scripts/install-deps.sh installs packages; skips (exit 77) only
# when nginx cannot be installed, or node_modules is missing.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

nginx_binary() {
  command -v nginx 2>/dev/null || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; }
}
if [[ -z "$(nginx_binary)" ]]; then
  sudo=""
  [[ "$(id -u)" -eq 0 ]] || sudo="sudo -n"
  echo "replicas: installing nginx (Debian package)" >&2
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
           --no-install-recommends nginx; } >&2; then
    echo "SKIP: nginx is not installed and apt-get could not install it (install the Debian package nginx)"
    exit 77
  fi
fi
NGINX="$(nginx_binary)"
if [[ -z "$NGINX" ]]; then
  echo "SKIP: nginx is not installed and apt-get did not provide it (install the Debian package nginx)"
  exit 77
fi
if [[ ! -d "$here/node_modules/@modelcontextprotocol/sdk" ]]; then
  echo "SKIP: tests/e2e/node_modules missing (npm ci in tests/e2e)"
  exit 77
fi
export NGINX
cd "$here" && exec node --test --test-reporter=spec replicas.test.mjs
