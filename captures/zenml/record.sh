#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the zenml venv), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (42930),
#      PROXY_PORT (42931), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the zenml venv}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42930}" PROXY_PORT="${PROXY_PORT:-42931}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
