#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (ihatemoney==7.2.1 + gunicorn), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (46330), PROXY_PORT (46331), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46330}" PROXY_PORT="${PROXY_PORT:-46331}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
