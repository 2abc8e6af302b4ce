#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: CADDY_ROOT (the unpacked .deb, default .ci/cache/caddy), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (43110), PROXY_PORT (43111), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43110}" PROXY_PORT="${PROXY_PORT:-43111}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
