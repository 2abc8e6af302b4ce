#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: RABBITMQ_ROOT (the unpacked .debs, default .ci/cache/rabbitmq), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (42740), PROXY_PORT (42741), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42740}" PROXY_PORT="${PROXY_PORT:-42741}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
