#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (a virtualenv with nautobot==3.2.7), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (18300; PostgreSQL on 18302), PROXY_PORT (18301), LOGDIR, NAUTOBOT_TEMPLATE (optional:
#      start.sh's template folder, so the recording skips the migrations).
set -euo pipefail
: "${VENV:?set VENV to a virtualenv with nautobot==3.2.7 installed}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18300}" PROXY_PORT="${PROXY_PORT:-18301}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
