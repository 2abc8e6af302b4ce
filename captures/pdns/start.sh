#!/usr/bin/env bash
# Start the PowerDNS Authoritative Server 4.7.3 FRESH on a new sqlite3 database, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of its HTTP API (webserver-port, 127.0.0.1); refused when something listens
#   HOME_DIR  its config dir, database and control socket (default: mktemp -d); old ones are replaced;
#             the control socket goes to a short temporary dir when HOME_DIR is too deep for one
# Env:  PDNS_ROOT  where the Debian packages pdns-server, pdns-backend-sqlite3 (4.7.3-2) and
#                  libluajit2-5.1-2 were unpacked with `dpkg -x` (required; .ci/live-apps.sh)
#       DNS_PORT   the DNS port (UDP and TCP, 127.0.0.1); default: a free one
# Prints "pdns READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# pdns_server runs as the current user (daemon=no, guardian=no, no setuid), with its own config
# dir, and never polls for security updates (security-poll-suffix empty: no DNS leaves the host).
# The seed (seed.py) runs directly on the API port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
PDNS_ROOT="${PDNS_ROOT:?set PDNS_ROOT to the unpacked pdns-server 4.7.3 packages}"
PDNS_ROOT="$(cd "$PDNS_ROOT" && pwd)"
API_KEY="pdns-capture-key-not-a-secret-0001"
LIBS="$PDNS_ROOT/usr/lib/x86_64-linux-gnu"

refuse_taken_port "$PORT"
DNS_PORT="${DNS_PORT:-$(free_port)}"
mkdir -p "$HOME_DIR"
CONF="$HOME_DIR/pdns-conf"
rm -rf "$CONF"
mkdir -p "$CONF"
# A UNIX socket path holds at most 107 bytes: a deep HOME_DIR (a test's scratch dir) gets its
# control socket in a short temporary dir instead, removed when this script exits.
SOCKET_DIR="$CONF"
if [ "${#CONF}" -gt 80 ]; then
  SOCKET_DIR="$(mktemp -d "${TMPDIR:-/tmp}/pdns.XXXXXX")"
  trap 'rm -rf "$SOCKET_DIR"' EXIT
fi
sqlite3 "$CONF/pdns.sqlite3" < "$PDNS_ROOT/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql"
cat > "$CONF/pdns.conf" <<CONF
launch=gsqlite3
gsqlite3-database=$CONF/pdns.sqlite3
gsqlite3-dnssec=yes
module-dir=$LIBS/pdns
socket-dir=$SOCKET_DIR
api=yes
api-key=$API_KEY
webserver=yes
webserver-address=127.0.0.1
webserver-port=$PORT
webserver-allow-from=127.0.0.0/8
local-address=127.0.0.1
local-port=$DNS_PORT
daemon=no
guardian=no
disable-syslog=yes
security-poll-suffix=
CONF

stop_app_on_signal
LD_LIBRARY_PATH="$LIBS" "$PDNS_ROOT/usr/sbin/pdns_server" --config-dir="$CONF" &
APP_PID=$!
wait_until_up 300 0.1 "pdns_server did not come up on $PORT" \
  -H "X-API-Key: $API_KEY" "http://127.0.0.1:$PORT/api/v1/servers/localhost"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_KEY"
echo "pdns READY on $PORT"
wait "$APP_PID"
