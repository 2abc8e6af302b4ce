#!/usr/bin/env bash
# Start the Feathers 5 app of ./app (users, messages, notes on @feathersjs/memory, served by
# @feathersjs/koa's REST transport) FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the app listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where the app is copied (default: mktemp -d): HOME_DIR/app, removed first, with
#             node_modules linked to $FEATHERS_DIR/node_modules
# Env:  FEATHERS_DIR  the npm prefix with @feathersjs/feathers, koa, memory, schema and typebox 5.0.50
#                     installed (captures/feathers/install/package.json; .ci/live-apps.sh; required)
# Prints "feathers READY on <port>" once up; stops on SIGINT/SIGTERM.
# The memory adapter keeps nothing between starts. The seed (app/app.js, seed()) is created through
# the services before the port opens, so it is never recorded; its clocks are fixed instants from
# 2026-01-05T10:00Z, not the day of the start.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
FEATHERS_DIR="${FEATHERS_DIR:?set FEATHERS_DIR to the npm prefix with @feathersjs/feathers 5.0.50 installed}"
[ -f "$FEATHERS_DIR/node_modules/@feathersjs/koa/package.json" ] \
  || { echo "no @feathersjs/koa in $FEATHERS_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
FEATHERS_DIR="$(cd "$FEATHERS_DIR" && pwd)"
rm -rf "$HOME_DIR/app"
cp -a "$HERE/app" "$HOME_DIR/app"
ln -s "$FEATHERS_DIR/node_modules" "$HOME_DIR/app/node_modules"

stop_app_on_signal
NODE_ENV=production node "$HOME_DIR/app/app.js" "$PORT" &
APP_PID=$!
# The port opens only after the seed is created.
wait_until_up 600 0.2 "feathers did not come up on $PORT" "http://127.0.0.1:$PORT/notes/5"
echo "feathers READY on $PORT"
wait "$APP_PID"
