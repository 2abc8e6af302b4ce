#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (isso==0.14.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (46360), PROXY_PORT (46361), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46360}" PROXY_PORT="${PROXY_PORT:-46361}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
