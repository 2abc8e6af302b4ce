#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: SIGNALK_DIR (the npm prefix with signalk-server 2.23.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (47310), PROXY_PORT (47311), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-47310}" PROXY_PORT="${PROXY_PORT:-47311}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
