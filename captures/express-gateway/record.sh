#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: EXPRESS_GATEWAY_DIR (the npm prefix with express-gateway 1.16.11), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (43140), EG_GATEWAY_PORT (43141), PROXY_PORT (43142), LOGDIR.
set -euo pipefail
: "${EXPRESS_GATEWAY_DIR:?set EXPRESS_GATEWAY_DIR to the npm prefix with express-gateway 1.16.11 installed}"
export EXPRESS_GATEWAY_DIR
export EG_GATEWAY_PORT="${EG_GATEWAY_PORT:-43141}"
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43140}" PROXY_PORT="${PROXY_PORT:-43142}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
