#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: PARSE_SERVER_DIR (the npm prefix with parse-server@9.10.0), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42750), PROXY_PORT (42751), LOGDIR. PostgreSQL (start.sh) takes APP_PORT+2.
set -euo pipefail
: "${PARSE_SERVER_DIR:?set PARSE_SERVER_DIR to the npm prefix with parse-server@9.10.0 installed}"
export PARSE_SERVER_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42750}" PROXY_PORT="${PROXY_PORT:-42751}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
