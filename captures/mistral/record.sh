#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (a virtualenv with mistral==23.0.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (18910), PROXY_PORT (18911), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to a virtualenv with mistral==23.0.0 installed}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18910}" PROXY_PORT="${PROXY_PORT:-18911}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
