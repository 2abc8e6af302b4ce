#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (pygeoapi==0.21.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (46350), PROXY_PORT (46351), LOGDIR.
# pygeoapi writes its configured base URL into links and Location headers: start.sh's default, the
# application's own origin, which is the one the HAR records (mitmdump's reverse mode records the upstream URL).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
export APP_PORT="${APP_PORT:-46350}" PROXY_PORT="${PROXY_PORT:-46351}"
exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
