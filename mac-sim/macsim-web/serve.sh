#!/usr/bin/env bash
# Builds the page (build.sh) and serves it on http://127.0.0.1:PORT/ (default 8000)
# until Ctrl-C. Any static file server will do; this one is Python's.
set -euo pipefail
WEB=$(cd "$(dirname "$0")" && pwd)
port=${1:-8000}
case $port in
    '' | *[!0-9]*) echo "error: the port must be a number, not '$port' (usage: serve.sh [PORT])" >&2; exit 2 ;;
esac
"$WEB/build.sh"
echo "open http://127.0.0.1:$port/ (Ctrl-C stops the server)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$WEB/www"
