#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: UNLEASH_DIR (the npm prefix with unleash-server@7.5.1), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (42920), PROXY_PORT (42921), LOGDIR. PostgreSQL (start.sh) takes APP_PORT+2.
set -euo pipefail
: "${UNLEASH_DIR:?set UNLEASH_DIR to the npm prefix with unleash-server@7.5.1 installed}"
export UNLEASH_DIR
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-42920}" PROXY_PORT="${PROXY_PORT:-42921}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
