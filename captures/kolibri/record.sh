#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the kolibri venv), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (18300),
#      PROXY_PORT (18301), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the kolibri venv}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18300}" PROXY_PORT="${PROXY_PORT:-18301}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
