#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: NODE_RED_DIR (the npm prefix with node-red 4.1.15), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (43050), PROXY_PORT (43051), LOGDIR.
set -euo pipefail
: "${NODE_RED_DIR:?set NODE_RED_DIR to the npm prefix with node-red 4.1.15 installed}"
export NODE_RED_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43050}" PROXY_PORT="${PROXY_PORT:-43051}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
