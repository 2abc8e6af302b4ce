#!/usr/bin/env bash
# Start Nautobot 3.2.7 FRESH on a private, new PostgreSQL cluster, then seed it through its REST API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port Django's server (`nautobot-server runserver --noreload`, one process) listens on
#             (127.0.0.1); refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): NAUTOBOT_ROOT (media, job files) and the
#             cluster in HOME_DIR/pg (under /tmp when the postgres user cannot reach HOME_DIR),
#             listening on 127.0.0.1 at PORT+2 (or a free port when that one is taken), trust
#             authentication, loopback only
# Env:  VENV  virtualenv with nautobot==3.2.7 installed (.ci/live-apps.sh; required)
#       NAUTOBOT_TEMPLATE  optional folder: pgdata.tar, the cluster of an earlier start packed after
#             its migrations, superuser, token and seed, unpacked instead of doing them again (kept
#             there by the first start: `nautobot-server migrate` alone takes minutes)
#       initdb, pg_ctl, createdb, psql (PostgreSQL 15 server binaries) on PATH or in /usr/lib/postgresql/*/bin
# Prints "nautobot READY on <port>" once seeded; on SIGINT/SIGTERM stops the server and the cluster
# and deletes the cluster. The PostgreSQL binaries refuse to run as root: as root they run as the
# `postgres` user (runuser), which then must be able to enter HOME_DIR.
# nautobot_config.py: fixed throwaway SECRET_KEY, ALLOWED_HOSTS ['*'], DEBUG off, an in-process
# cache instead of Redis, nothing reaching an external network. The superuser `admin` holds the
# fixed API token below (`Authorization: Token <key>`). The seed (seed.py, directly on the app port,
# never through the recording proxy) runs on a server whose UUIDs come from a fixed sequence, then
# sets every created/last_updated clock to one fixed instant in PostgreSQL; that server is then
# stopped and the one that answers starts (Nautobot's own uuid4).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
. "$HERE/../kit/private-postgres.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with nautobot==3.2.7 installed}"
TOKEN=0123456789abcdef0123456789abcdef01234567
TEMPLATE_TAR="${NAUTOBOT_TEMPLATE:+$NAUTOBOT_TEMPLATE/pgdata.tar}"
SEEDED=""
[ -n "$TEMPLATE_TAR" ] && [ -f "$TEMPLATE_TAR" ] && SEEDED=yes

refuse_taken_port "$PORT"
start_private_postgres nautobot "$PORT" "$HOME_DIR" nautobot "$TEMPLATE_TAR"
export NAUTOBOT_CONFIG="$HERE/nautobot_config.py" NAUTOBOT_ROOT="$HOME_DIR/root" CAPENV_PG_PORT="$PG_PORT"
mkdir -p "$NAUTOBOT_ROOT"
cd "$HOME_DIR"
serve() {  # start Django's server in the background (APP_PID) and wait until the API answers
  "$VENV/bin/nautobot-server" runserver "127.0.0.1:$PORT" --noreload >>"$HOME_DIR/server.log" 2>&1 &
  APP_PID=$!
  wait_until_up 1200 0.5 "nautobot did not come up on $PORT" -H "Authorization: Token $TOKEN" \
    "http://127.0.0.1:$PORT/api/status/"
}

if [ -z "$SEEDED" ]; then
  # Migrations take minutes (NAUTOBOT_TEMPLATE keeps their outcome). CAPENV_UUID_SEED: fixed ids
  # for what migrations, the superuser and the seed make (nautobot_config.py).
  CAPENV_UUID_SEED=migrate "$VENV/bin/nautobot-server" migrate --no-input >"$HOME_DIR/migrate.log" 2>&1 \
    || { tail -n 40 "$HOME_DIR/migrate.log" >&2; exit 1; }
  CAPENV_UUID_SEED=superuser "$VENV/bin/nautobot-server" shell --command "
from nautobot.users.models import Token, User
admin = User.objects.create_superuser('admin', 'admin@example.com', 'capenv-nautobot-throwaway')
Token.objects.create(user=admin, key='$TOKEN', description='capenv')
" >"$HOME_DIR/superuser.log" 2>&1 || { cat "$HOME_DIR/superuser.log" >&2; exit 1; }
  CAPENV_UUID_SEED=seed serve
  seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$TOKEN" "$PG_BIN/psql" "$PG_PORT"
  kill -TERM "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  [ -z "$TEMPLATE_TAR" ] || keep_cluster_in_template "$TEMPLATE_TAR"
fi
serve
echo "nautobot READY on $PORT"
wait "$APP_PID"
