#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: TIDDLYWIKI_DIR (the npm prefix with tiddlywiki 5.4.1), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (43010), PROXY_PORT (43011), LOGDIR.
set -euo pipefail
: "${TIDDLYWIKI_DIR:?set TIDDLYWIKI_DIR to the npm prefix with tiddlywiki 5.4.1 installed}"
export TIDDLYWIKI_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43010}" PROXY_PORT="${PROXY_PORT:-43011}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
