#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: FEATHERS_DIR (the npm prefix with @feathersjs/* 5.0.50), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (43020), PROXY_PORT (43021), LOGDIR.
set -euo pipefail
: "${FEATHERS_DIR:?set FEATHERS_DIR to the npm prefix with @feathersjs/feathers 5.0.50 installed}"
export FEATHERS_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43020}" PROXY_PORT="${PROXY_PORT:-43021}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
