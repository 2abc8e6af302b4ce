#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the gns3-server venv, QEMU unpacked in it), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (46110), PROXY_PORT (46111), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the gns3-server venv}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46110}" PROXY_PORT="${PROXY_PORT:-46111}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
