#!/usr/bin/env bash
# Start LoopBack 4's todo example (@loopback/example-todo 6.0.0) FRESH on its in-memory datasource,
# backed by a copy of ./seed.json (the memory connector's file format: "ids" holds the next id,
# "models" the seeded todos 1-6), so the seed is never recorded and every start begins alike.
# Usage: ./start.sh [APP_PORT] [HOME_DIR]   (default port 42970; HOME_DIR default: mktemp -d).
#        Runs in the foreground until SIGINT/SIGTERM; prints "LOOPBACK-TODO READY on <port>" once up.
# Env:   LOOPBACK_TODO_DIR  npm prefix with the pinned install (node_modules/@loopback/example-todo 6.0.0)
# HOME_DIR receives data/db.json (the datasource file, './data/db.json' relative to the working
# directory, which the application rewrites after every write); it must not already hold a data/.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
APP_PORT="${1:-42970}"
HOME_DIR="${2:-$(mktemp -d)}"
LOOPBACK_TODO_DIR="${LOOPBACK_TODO_DIR:?set LOOPBACK_TODO_DIR to the npm prefix holding @loopback/example-todo 6.0.0}"
MAIN="$LOOPBACK_TODO_DIR/node_modules/@loopback/example-todo/dist/index.js"
[ -f "$MAIN" ] || { echo "no $MAIN: install @loopback/example-todo into LOOPBACK_TODO_DIR first" >&2; exit 2; }

refuse_taken_port "$APP_PORT"
[ -e "$HOME_DIR/data" ] && { echo "$HOME_DIR/data already exists: give an empty HOME_DIR (starts are fresh)" >&2; exit 2; }
mkdir -p "$HOME_DIR/data"
cp "$HERE/seed.json" "$HOME_DIR/data/db.json"

stop_app_on_signal
cd "$HOME_DIR"
HOST=127.0.0.1 PORT="$APP_PORT" node "$MAIN" &
APP_PID=$!
wait_until_up 600 0.3 "loopback-todo did not come up on $APP_PORT" "http://127.0.0.1:$APP_PORT/todos/count"
curl -sf "http://127.0.0.1:$APP_PORT/todos/1" | grep -q '"Buy groceries"' \
  || fail_and_stop "loopback-todo is up but the seed is missing"
echo "LOOPBACK-TODO READY on $APP_PORT (pid $APP_PID, data $HOME_DIR/data/db.json)"
wait "$APP_PID"
