#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: MEDUSA_DIR (the npm prefix with @medusajs/medusa 2.21.2), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (18300; PostgreSQL on 18302), PROXY_PORT (18301), LOGDIR.
set -euo pipefail
: "${MEDUSA_DIR:?set MEDUSA_DIR to the npm prefix with @medusajs/medusa 2.21.2 installed}"
MEDUSA_DIR="$(cd "$MEDUSA_DIR" && pwd)"
export MEDUSA_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18300}" PROXY_PORT="${PROXY_PORT:-18301}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
