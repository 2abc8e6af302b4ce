#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: STRAPI_DIR (the npm prefix of the Strapi install), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (42030),
#      PROXY_PORT (42031), LOGDIR.
set -euo pipefail
: "${STRAPI_DIR:?set STRAPI_DIR to the npm prefix of the Strapi install}"
export STRAPI_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42030}" PROXY_PORT="${PROXY_PORT:-42031}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
