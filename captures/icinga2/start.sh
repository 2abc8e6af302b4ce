#!/usr/bin/env bash
# Start Icinga 2 2.13.6 (Debian bookworm's icinga2-bin and icinga2-common, unpacked) FRESH and seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of Icinga 2's REST API (HTTPS only, 127.0.0.1); refused when something listens
#   HOME_DIR  where its configuration, certificates, state and logs go (default: mktemp -d); an
#             old icinga below it is removed
# Env:  ICINGA2_ROOT  the unpacked packages (`dpkg -x` of icinga2-bin, icinga2-common and the three
#       Boost libraries Debian's system lacks; default the repository's .ci/cache/icinga2, where
#       .ci/live-apps.sh puts them)
# Prints "icinga2 READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The daemon runs directly (no systemd), as the current user, with every directory of its own
# under HOME_DIR/icinga (ConfigDir, DataDir, LogDir, CacheDir, SpoolDir, InitRunDir given as
# constants). DataDir is relative (lib, the daemon runs in HOME_DIR/icinga), so the config file
# paths the API shows (an object's source_location, some error messages) name no machine path. Its API needs TLS: as `icinga2 api setup` does, a CA and this node's certificate
# signed by it are made into DataDir/certs, here with openssl (RSA 2048: a second, where
# `icinga2 pki` takes ~20 s for RSA 4096). The ApiUser capenv (HTTP Basic, password
# capenv-icinga-not-a-secret) may do everything. The seed (seed.py) runs directly on the app port.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="$(cd "${ICINGA2_ROOT:-$HERE/../../.ci/cache/icinga2}" 2>/dev/null && pwd || true)"
BINARY="$ROOT/usr/lib/x86_64-linux-gnu/icinga2/sbin/icinga2"
[ -x "$BINARY" ] || { echo "no icinga2 binary in ${ICINGA2_ROOT:-.ci/cache/icinga2}: run bash .ci/live-apps.sh install" >&2; exit 1; }
export LD_LIBRARY_PATH="$ROOT/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

refuse_taken_port "$PORT"
IC="$(mkdir -p "$HOME_DIR" && cd "$HOME_DIR" && pwd)/icinga"
rm -rf "$IC"
mkdir -p "$IC/etc" "$IC/lib/certs" "$IC/log" "$IC/cache" "$IC/spool" "$IC/run"
sed "s/@PORT@/$PORT/" "$HERE/icinga2.conf" > "$IC/etc/icinga2.conf"

NODE=icinga.capenv.test
CERTS="$IC/lib/certs"
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=Icinga CA" -keyout "$IC/lib/ca.key" \
  -out "$CERTS/ca.crt" -addext "basicConstraints=critical,CA:TRUE" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$NODE" -keyout "$CERTS/$NODE.key" -out "$CERTS/$NODE.csr" 2>/dev/null
openssl x509 -req -in "$CERTS/$NODE.csr" -CA "$CERTS/ca.crt" -CAkey "$IC/lib/ca.key" -CAcreateserial \
  -days 3650 -out "$CERTS/$NODE.crt" 2>/dev/null

# The daemon forks a worker (and a helper) beside the process started here, and the worker outlives
# a SIGTERM to that process: stop the three by their ids.
stop_icinga() {
  local pids="$APP_PID" child grandchild
  for child in $(pgrep -P "$APP_PID" 2>/dev/null || true); do
    pids="$pids $child"
    for grandchild in $(pgrep -P "$child" 2>/dev/null || true); do pids="$pids $grandchild"; done
  done
  kill -KILL $pids 2>/dev/null || true
  wait "$APP_PID" 2>/dev/null || true
  exit 0
}
trap stop_icinga INT TERM
cd "$IC"
"$BINARY" daemon -DConfigDir="$IC/etc" -DDataDir=lib -DLogDir="$IC/log" -DCacheDir="$IC/cache" \
  -DSpoolDir="$IC/spool" -DInitRunDir="$IC/run" -DPkgDataDir="$ROOT/usr/share/icinga2" \
  -DIncludeConfDir="$ROOT/usr/share/icinga2/include" -DRunAsUser="$(id -un)" -DRunAsGroup="$(id -gn)" \
  -c "$IC/etc/icinga2.conf" &
APP_PID=$!
wait_until_up 600 0.1 "icinga2 did not come up on $PORT" -k -u capenv:capenv-icinga-not-a-secret \
  "https://127.0.0.1:$PORT/v1/status/IcingaApplication"
seed_or_stop python3 "$HERE/seed.py" "https://127.0.0.1:$PORT"
echo "icinga2 READY on $PORT"
wait "$APP_PID"
