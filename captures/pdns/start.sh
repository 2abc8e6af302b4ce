#!/usr/bin/env bash
# Start the PowerDNS Authoritative Server 4.7.3 FRESH on a new sqlite3 database, and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of its HTTP API (webserver-port, 127.0.0.1); refused when something listens
#   HOME_DIR  its config dir, database and control socket (default: mktemp -d); old ones are replaced
# Env:  PDNS_ROOT  where the Debian packages pdns-server, pdns-backend-sqlite3 (4.7.3-2) and
#                  libluajit2-5.1-2 were unpacked with `dpkg -x` (required; .ci/live-apps.sh)
#       DNS_PORT   the DNS port (UDP and TCP, 127.0.0.1); default: a free one
# Prints "pdns READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# pdns_server runs as the current user (daemon=no, guardian=no, no setuid), with its own config
# dir, and never polls for security updates (security-poll-suffix empty: no DNS leaves the host).
# The seed (seed.py) runs directly on the API port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
PDNS_ROOT="${PDNS_ROOT:?set PDNS_ROOT to the unpacked pdns-server 4.7.3 packages}"
PDNS_ROOT="$(cd "$PDNS_ROOT" && pwd)"
API_KEY="pdns-capture-key-not-a-secret-0001"
LIBS="$PDNS_ROOT/usr/lib/x86_64-linux-gnu"

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "port $PORT is already in use" >&2; exit 1
fi
DNS_PORT="${DNS_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
mkdir -p "$HOME_DIR"
CONF="$HOME_DIR/pdns-conf"
rm -rf "$CONF"
mkdir -p "$CONF"
sqlite3 "$CONF/pdns.sqlite3" < "$PDNS_ROOT/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql"
cat > "$CONF/pdns.conf" <<CONF
launch=gsqlite3
gsqlite3-database=$CONF/pdns.sqlite3
gsqlite3-dnssec=yes
module-dir=$LIBS/pdns
socket-dir=$CONF
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

PDNSPID=""
stop() { [ -n "$PDNSPID" ] && kill -TERM "$PDNSPID" 2>/dev/null; wait "$PDNSPID" 2>/dev/null; exit 0; }
trap stop INT TERM
LD_LIBRARY_PATH="$LIBS" "$PDNS_ROOT/usr/sbin/pdns_server" --config-dir="$CONF" &
PDNSPID=$!
up=0
for i in $(seq 1 300); do
  if curl -sf -o /dev/null -H "X-API-Key: $API_KEY" "http://127.0.0.1:$PORT/api/v1/servers/localhost"; then up=1; break; fi
  kill -0 "$PDNSPID" 2>/dev/null || break
  sleep 0.1
done
[ "$up" = 1 ] || { echo "pdns_server did not come up on $PORT" >&2; kill -TERM "$PDNSPID" 2>/dev/null; exit 1; }
python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_KEY" \
  || { echo "seeding failed" >&2; kill -TERM "$PDNSPID" 2>/dev/null; exit 1; }
echo "pdns READY on $PORT"
wait "$PDNSPID"
