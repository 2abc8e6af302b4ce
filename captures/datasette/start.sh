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
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with datasette==1.0a41 installed}"
SECRET="capenv-datasette-throwaway-secret"
# made once with: datasette create-token root --secret capenv-datasette-throwaway-secret
TOKEN="dstok_eyJhIjoicm9vdCIsInQiOjE3OTYxNjUzNzR9.Fm8ZR5izLRZTKacgmUXPak5eddU"

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "port $PORT is already in use" >&2; exit 1
fi
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

DPID=""
stop() { [ -n "$DPID" ] && kill -TERM "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null; exit 0; }
trap stop INT TERM
# --root: the actor {"id": "root"} (the token's actor) holds every permission, writes included.
# It also prints a one-time login URL for a browser, unused here.
"$VENV/bin/datasette" serve "$DB" --host 127.0.0.1 --port "$PORT" --secret "$SECRET" --root \
  --setting default_page_size 100 &
DPID=$!
up=0
for i in $(seq 1 200); do
  if curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" \
       "http://127.0.0.1:$PORT/blog/articles.json?_size=1"; then up=1; break; fi
  kill -0 "$DPID" 2>/dev/null || break
  sleep 0.1
done
[ "$up" = 1 ] || { echo "datasette did not come up on $PORT" >&2; kill -TERM "$DPID" 2>/dev/null; exit 1; }
echo "datasette READY on $PORT"
wait "$DPID"
