#!/usr/bin/env bash
# The main job: installs what is missing, builds fcpd (release) and runs it. With no arguments it
# serves MCP over TCP on 127.0.0.1:7300 and Streamable HTTP on http://127.0.0.1:7301/mcp with the
# current directory as the allowed root; any arguments are passed to fcpd instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
dir="$("$root/scripts/build.sh" release)"
if [ $# -eq 0 ]; then
  set -- --tcp 127.0.0.1:7300 --http 127.0.0.1:7301 --root "$PWD"
fi
exec "$dir/src/fcpd" "$@"
