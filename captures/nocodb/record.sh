#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: NOCODB_DIR (the npm prefix with nocodb@0.301.3), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42630), PROXY_PORT (42631), LOGDIR.
set -euo pipefail
: "${NOCODB_DIR:?set NOCODB_DIR to the npm prefix with nocodb@0.301.3 installed}"
export NOCODB_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42630}" PROXY_PORT="${PROXY_PORT:-42631}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
