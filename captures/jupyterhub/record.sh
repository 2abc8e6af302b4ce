#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the jupyterhub venv), CHP_DIR (the configurable-http-proxy npm prefix), MITM_VENV (a venv
#      with mitmproxy==11.0.2 + httpx), APP_PORT (42400), PROXY_PORT (42401), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the jupyterhub venv}"
: "${CHP_DIR:?set CHP_DIR to the configurable-http-proxy npm prefix}"
export VENV CHP_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42400}" PROXY_PORT="${PROXY_PORT:-42401}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
