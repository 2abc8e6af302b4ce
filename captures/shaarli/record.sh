#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (18410), PROXY_PORT (18411),
#      SHAARLI_DIR (optional, see start.sh), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18410}" PROXY_PORT="${PROXY_PORT:-18411}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
