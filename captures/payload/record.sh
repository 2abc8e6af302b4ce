#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: PAYLOAD_DIR (the npm prefix with payload 2.32.3), MITM_VENV (a venv with mitmproxy==11.0.2 +
#      httpx), APP_PORT (18400; PostgreSQL on 18402), PROXY_PORT (18401), LOGDIR.
set -euo pipefail
: "${PAYLOAD_DIR:?set PAYLOAD_DIR to the npm prefix with payload 2.32.3 installed}"
export PAYLOAD_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18400}" PROXY_PORT="${PROXY_PORT:-18401}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
