#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: N8N_DIR (the npm prefix with n8n@1.123.81), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (43190), PROXY_PORT (43191), LOGDIR.
set -euo pipefail
: "${N8N_DIR:?set N8N_DIR to the npm prefix with n8n@1.123.81 installed}"
export N8N_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43190}" PROXY_PORT="${PROXY_PORT:-43191}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
