#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (a virtualenv with gnocchi==4.7.1 and gunicorn), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (43200; PostgreSQL on 43202), PROXY_PORT (43201), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to a virtualenv with gnocchi==4.7.1 and gunicorn installed}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43200}" PROXY_PORT="${PROXY_PORT:-43201}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
