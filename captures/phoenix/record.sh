#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: VENV (the arize-phoenix venv), MITM_VENV (a venv with mitmproxy==11.0.2 + httpx),
#      APP_PORT (18310), PROXY_PORT (18311), GRPC_PORT (18312: Phoenix's OTLP gRPC receiver), LOGDIR.
set -euo pipefail
: "${VENV:?set VENV to the arize-phoenix venv}"
export VENV
export GRPC_PORT="${GRPC_PORT:-18312}"
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-18310}" PROXY_PORT="${PROXY_PORT:-18311}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
