#!/usr/bin/env bash
# Start Plone 6.2.2 (Zope 6.3, plone.restapi 10.0.4) FRESH in a new Zope instance, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the site's port (waitress, 127.0.0.1); refused when taken.
#   HOME_DIR  the Zope instance's home (default: mktemp -d): its Data.fs, logs
# Env:  VENV  virtualenv with Plone==6.2.2 installed (.ci/live-apps.sh; required)
# Prints "plone READY on <port>" once seeded; stops the site on SIGINT/SIGTERM.
# The seed (seed.py, ~20 s) makes the site /Plone with the Zope administrator admin:admin, two members, a
# group and a content tree, with fixed UIDs and clocks (README "Seed data").
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with Plone==6.2.2 installed}"

refuse_taken_port "$PORT"
export TZ=UTC PYTHONHASHSEED=0
rm -rf "$HOME_DIR/instance"
mkdir -p "$HOME_DIR"
"$VENV/bin/mkwsgiinstance" -d "$HOME_DIR/instance" -u admin:admin >"$HOME_DIR/setup.log" 2>&1
# the instance's own server section, on loopback at PORT, one worker thread: calls come one at a time
sed -i -e "s/^port = .*/port = $PORT/" -e "s/^host = .*/host = 127.0.0.1/" "$HOME_DIR/instance/etc/zope.ini"
"$VENV/bin/zconsole" run "$HOME_DIR/instance/etc/zope.conf" "$HERE/seed.py" >>"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/runwsgi" "$HOME_DIR/instance/etc/zope.ini" >"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "plone did not come up on $PORT" -u admin:admin -H "Accept: application/json" \
  "http://127.0.0.1:$PORT/Plone"
echo "plone READY on $PORT"
wait "$APP_PID"
