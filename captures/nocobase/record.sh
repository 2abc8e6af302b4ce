#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: NOCOBASE_DIR (the npm prefix with @nocobase/app@2.2.15 and a built sqlite3), MITM_VENV (a venv
#      with mitmproxy==11.0.2 + httpx), APP_PORT (43230), PROXY_PORT (43231), LOGDIR.
set -euo pipefail
: "${NOCOBASE_DIR:?set NOCOBASE_DIR to the npm prefix with @nocobase/app@2.2.15 installed}"
export NOCOBASE_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43230}" PROXY_PORT="${PROXY_PORT:-43231}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
