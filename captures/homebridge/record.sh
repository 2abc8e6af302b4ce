#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: HOMEBRIDGE_DIR (the npm prefix with homebridge-config-ui-x 5.10.0 and homebridge 1.11.4),
#      MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (46380), PROXY_PORT (46381), LOGDIR.
set -euo pipefail
: "${HOMEBRIDGE_DIR:?set HOMEBRIDGE_DIR to the npm prefix with homebridge-config-ui-x 5.10.0 installed}"
export HOMEBRIDGE_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46380}" PROXY_PORT="${PROXY_PORT:-46381}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
