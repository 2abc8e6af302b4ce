#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: POUCHDB_SERVER_DIR (the npm prefix with pouchdb-server@4.2.0), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (42940), PROXY_PORT (42941), LOGDIR.
set -euo pipefail
: "${POUCHDB_SERVER_DIR:?set POUCHDB_SERVER_DIR to the npm prefix with pouchdb-server@4.2.0 installed}"
export POUCHDB_SERVER_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42940}" PROXY_PORT="${PROXY_PORT:-42941}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
