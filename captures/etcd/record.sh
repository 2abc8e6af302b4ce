#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: ETCD_ROOT (the unpacked .deb, default .ci/cache/etcd), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (46300), PROXY_PORT (46301), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46300}" PROXY_PORT="${PROXY_PORT:-46301}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
