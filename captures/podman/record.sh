#!/usr/bin/env bash
# Record capture.har of this application through mitmproxy: ../kit/record.sh does the work.
# Env: PODMAN (optional: Debian bookworm's podman 4.3.1, default the one on PATH; run as root),
#      MITM_VENV (a venv with mitmproxy==11.0.2 + httpx), APP_PORT (43210), PROXY_PORT (43211), LOGDIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_PORT="${APP_PORT:-43210}" PROXY_PORT="${PROXY_PORT:-43211}" exec "$HERE/../kit/record.sh" "$HERE" "${1:-capture}"
