#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: LOOPBACK_TODO_DIR (the npm prefix of the install), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42970), PROXY_PORT (42971), LOGDIR.
set -euo pipefail
: "${LOOPBACK_TODO_DIR:?set LOOPBACK_TODO_DIR to the npm prefix of the @loopback/example-todo install}"
export LOOPBACK_TODO_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42970}" PROXY_PORT="${PROXY_PORT:-42971}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
