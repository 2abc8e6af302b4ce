#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VERDACCIO_DIR (the npm prefix with verdaccio 6.8.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (46370), PROXY_PORT (46371), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46370}" PROXY_PORT="${PROXY_PORT:-46371}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
