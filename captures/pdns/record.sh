#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: PDNS_ROOT (the unpacked pdns-server 4.7.3 packages), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42660), PROXY_PORT (42661), LOGDIR.
set -euo pipefail
: "${PDNS_ROOT:?set PDNS_ROOT to the unpacked pdns-server 4.7.3 packages}"
export PDNS_ROOT
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42660}" PROXY_PORT="${PROXY_PORT:-42661}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
