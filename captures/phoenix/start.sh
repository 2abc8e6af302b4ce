#!/usr/bin/env bash
# Start Arize Phoenix 20.26.1 FRESH on SQLite under a new working directory, then seed it through its
# REST API (/v1).
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Phoenix's HTTP server listens on (127.0.0.1); refused when taken
#   HOME_DIR  Phoenix's working directory (PHOENIX_WORKING_DIR: its SQLite database, exports);
#             default: mktemp -d; an old one there is replaced
# Env:  VENV       virtualenv with arize-phoenix==20.26.1 installed (required)
#       GRPC_PORT  the port of its OTLP gRPC receiver (127.0.0.1; default: one the system picks)
# Prints "phoenix READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# No authentication (Phoenix's default: every REST call is allowed), telemetry off, external
# resources (the UI's fonts and scripts from CDNs) off, so nothing reaches outside at run time.
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with arize-phoenix==20.26.1 installed}"
GRPC_PORT="${GRPC_PORT:-$(free_port)}"

refuse_taken_port "$PORT"
refuse_taken_port "$GRPC_PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/phoenix"
mkdir -p "$HOME_DIR/phoenix"

stop_app_on_signal
cd "$HOME_DIR/phoenix"
HOME="$HOME_DIR/phoenix" PHOENIX_WORKING_DIR="$HOME_DIR/phoenix" PHOENIX_HOST=127.0.0.1 PHOENIX_PORT="$PORT" \
  PHOENIX_GRPC_PORT="$GRPC_PORT" PHOENIX_TELEMETRY_ENABLED=false PHOENIX_ALLOW_EXTERNAL_RESOURCES=false \
  "$VENV/bin/python" -m phoenix.server.main serve >"$HOME_DIR/phoenix.log" 2>&1 &
APP_PID=$!
wait_until_up 900 0.2 "Phoenix did not come up on $PORT" "http://127.0.0.1:$PORT/healthz"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT"
echo "phoenix READY on $PORT"
wait "$APP_PID"
