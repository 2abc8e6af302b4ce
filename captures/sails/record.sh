#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: SAILS_DIR (the npm prefix with sails 1.5.18), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42980), PROXY_PORT (42981), LOGDIR.
set -euo pipefail
: "${SAILS_DIR:?set SAILS_DIR to the npm prefix with sails 1.5.18 installed}"
export SAILS_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42980}" PROXY_PORT="${PROXY_PORT:-42981}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
