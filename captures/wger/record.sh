#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (a virtualenv with wger==2.1), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (19000), PROXY_PORT (19001), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to a virtualenv with wger==2.1 installed}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-19000}" PROXY_PORT="${PROXY_PORT:-19001}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
