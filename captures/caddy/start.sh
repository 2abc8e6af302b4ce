#!/usr/bin/env bash
# Start Caddy 2.6.2 (Debian bookworm's caddy) FRESH with this folder's configuration.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port of Caddy's admin API (127.0.0.1); refused when something listens
#   HOME_DIR  where it runs (default: mktemp -d); an old caddy-home below it is removed
# Env:  CADDY_ROOT  the unpacked package (`dpkg -x caddy_*.deb DIR`; default the repository's
#       .ci/cache/caddy, where .ci/live-apps.sh puts it)
# Prints "caddy READY on <port>" once the admin API answers; stops on SIGINT/SIGTERM.
# The seed is the configuration file itself (seed.json with the admin port filled in), loaded by
# `caddy run --config`, so nothing is recorded before the scenario and any day's start answers the
# same. The admin API is the only TCP listener: the two HTTP servers listen on unix sockets
# relative to HOME_DIR/caddy-home (unix/public.sock, unix/internal.sock), automatic HTTPS is off,
# the TLS automation policies name an ACME directory nothing ever contacts (no certificate is
# managed), storage is the relative folder caddy-data, and the configuration is not persisted
# (admin.config.persist false): Caddy reaches no network and writes only below HOME_DIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
ROOT="${CADDY_ROOT:-$HERE/../../.ci/cache/caddy}"
BINARY="$ROOT/usr/bin/caddy"
[ -x "$BINARY" ] || { echo "no $BINARY: run bash .ci/live-apps.sh install" >&2; exit 1; }

refuse_taken_port "$PORT"
CADDY_HOME="$(mkdir -p "$HOME_DIR" && cd "$HOME_DIR" && pwd)/caddy-home"
rm -rf "$CADDY_HOME"
mkdir -p "$CADDY_HOME"
sed "s/@PORT@/$PORT/" "$HERE/seed.json" > "$CADDY_HOME/caddy.json"

stop_app_on_signal
cd "$CADDY_HOME"
HOME="$CADDY_HOME" XDG_DATA_HOME="$CADDY_HOME/data" XDG_CONFIG_HOME="$CADDY_HOME/config" \
  "$BINARY" run --config caddy.json &
APP_PID=$!
wait_until_up 300 0.1 "caddy did not come up on $PORT" "http://127.0.0.1:$PORT/config/apps"
echo "caddy READY on $PORT"
wait "$APP_PID"
