#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the zou venv), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (18400),
#      PROXY_PORT (18401), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the zou venv}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18400}" PROXY_PORT="${PROXY_PORT:-18401}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
