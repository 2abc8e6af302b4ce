#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (a virtualenv with alerta-server==9.1.0, psycopg2-binary and gunicorn), MITM_VENV (a venv with
#      mitmproxy==11.0.2 + httpx), APP_PORT (46010; PostgreSQL on 46012), PROXY_PORT (46011), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to a virtualenv with alerta-server==9.1.0, psycopg2-binary and gunicorn installed}"
export VENV
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-46010}" PROXY_PORT="${PROXY_PORT:-46011}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
