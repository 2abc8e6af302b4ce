#!/usr/bin/env bash
# Start Datasette 1.0a41 FRESH on a new, mutable SQLite file blog.db seeded from seed.sql, with a
# fixed signing secret so the throwaway API token of the root actor (TOKEN below) is valid.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Datasette listens on (127.0.0.1); refused when something already listens
#   HOME_DIR  where blog.db is made (default: mktemp -d); an old blog.db there is replaced
# Env:  VENV  virtualenv with datasette==1.0a41 installed (required)
# Prints "datasette READY on <port>" once the seeded database answers; stops on SIGINT/SIGTERM.
# The seed is written with Python's sqlite3 module before Datasette starts (never through the
# app, so it is not in any recording); start.sh then reads it back once on the app port.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with datasette==1.0a41 installed}"
SECRET="capenv-datasette-throwaway-secret"
# made once with: datasette create-token root --secret capenv-datasette-throwaway-secret
TOKEN="dstok_eyJhIjoicm9vdCIsInQiOjE3OTYxNjUzNzR9.Fm8ZR5izLRZTKacgmUXPak5eddU"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
DB="$HOME_DIR/blog.db"
rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-journal"
"$VENV/bin/python" - "$DB" "$HERE/seed.sql" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript(open(sys.argv[2], encoding="utf-8").read())
con.commit()
con.close()
PY

stop_app_on_signal
# --root: the actor {"id": "root"} (the token's actor) holds every permission, writes included.
# It also prints a one-time login URL for a browser, unused here.
"$VENV/bin/datasette" serve "$DB" --host 127.0.0.1 --port "$PORT" --secret "$SECRET" --root \
  --setting default_page_size 100 &
APP_PID=$!
wait_until_up 200 0.1 "datasette did not come up on $PORT" \
  -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/blog/articles.json?_size=1"
echo "datasette READY on $PORT"
wait "$APP_PID"
