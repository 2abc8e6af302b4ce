#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: ICINGA2_ROOT (the unpacked .debs, default .ci/cache/icinga2), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (43122), PROXY_PORT (43123), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
UPSTREAM_SCHEME=https APP_PORT="${APP_PORT:-43122}" PROXY_PORT="${PROXY_PORT:-43123}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
