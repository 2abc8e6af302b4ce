#!/usr/bin/env bash
# Start TiddlyWiki 5.4.1's Node.js server FRESH and seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the server listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where the wiki folder is made (default: mktemp -d): HOME_DIR/wiki, removed first
# Env:  TIDDLYWIKI_DIR  the npm prefix with tiddlywiki 5.4.1 installed (.ci/live-apps.sh; required)
# Prints "tiddlywiki READY on <port>" once it answers; stops on SIGINT/SIGTERM.
# The wiki folder is made by `tiddlywiki HOME_DIR/wiki --init server` (the client-server edition:
# tiddlyweb + filesystem plugins); the seed is ./seed/*.tid copied into its tiddlers/ folder before
# the server starts, so it is never recorded. Seeded tiddlers carry fixed created/modified
# timestamps and the server never adds one to a PUT, so any day's start answers the same.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
TIDDLYWIKI_DIR="${TIDDLYWIKI_DIR:?set TIDDLYWIKI_DIR to the npm prefix with tiddlywiki 5.4.1 installed}"
TW_JS="$TIDDLYWIKI_DIR/node_modules/tiddlywiki/tiddlywiki.js"
[ -f "$TW_JS" ] || { echo "no tiddlywiki in $TIDDLYWIKI_DIR/node_modules" >&2; exit 2; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/wiki"
node "$TW_JS" "$HOME_DIR/wiki" --init server >/dev/null
mkdir -p "$HOME_DIR/wiki/tiddlers"
cp "$HERE"/seed/*.tid "$HOME_DIR/wiki/tiddlers/"

stop_app_on_signal
node "$TW_JS" "$HOME_DIR/wiki" --listen "port=$PORT" host=127.0.0.1 &
APP_PID=$!
wait_until_up 300 0.2 "tiddlywiki did not come up on $PORT" "http://127.0.0.1:$PORT/status"
echo "tiddlywiki READY on $PORT"
wait "$APP_PID"
