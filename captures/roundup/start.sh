#!/usr/bin/env bash
# Start the Roundup issue tracker 2.6.0 FRESH: a new tracker (classic template, sqlite backend)
# made by `roundup-admin install` and `roundup-admin initialise`, seeded by `roundup-admin create`,
# then served by roundup-server (one process, `-t none`) at http://127.0.0.1:PORT/demo/.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port roundup-server listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the tracker home is made (default: mktemp -d); an old tracker there is replaced
# Env:  VENV  virtualenv with roundup==2.6.0 installed (required)
# Prints "roundup READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The REST API is /demo/rest/data/{class}[/{id}[/{property}]], HTTP Basic as admin (the throwaway
# password below). Its links name the configured tracker web, http://localhost:8917/demo/,
# whatever PORT is, so recorded and live answers name the same URLs. Writes need an
# X-Requested-With header and an Origin (or Referer) naming that web (http://localhost:8917); the
# Host header check is off (web_csrf_enforce_header_host=no) because a proxy or another port
# changes Host. The secret key (it keys the @etag HMACs) is a fixed throwaway value, mail is
# written to HOME_DIR/mail.log (mail_debug), never sent.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with roundup==2.6.0 installed}"
ADMIN_PASS=capenv-roundup-throwaway
TRACKER="$HOME_DIR/tracker"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$TRACKER"
OPTS="tracker_web=http://localhost:8917/demo/,tracker_email=issue_tracker@example.com"
OPTS="$OPTS,mail_domain=example.com,mail_host=localhost,mail_debug=$HOME_DIR/mail.log"
OPTS="$OPTS,admin_email=roundup-admin@example.com,dispatcher_email=roundup-admin@example.com"
OPTS="$OPTS,web_csrf_enforce_header_host=no,web_secret_key=capenv-roundup-throwaway-secret-key-0001"
OPTS="$OPTS,web_jwt_secret=disabled,logging_level=ERROR"
"$VENV/bin/roundup-admin" -i "$TRACKER" install classic sqlite "$OPTS" </dev/null >/dev/null
"$VENV/bin/roundup-admin" -i "$TRACKER" initialise "$ADMIN_PASS" </dev/null >/dev/null
# The seed: users, keywords, issues and messages (the classic schema's own priorities and statuses
# come from initialise). Every create is the admin's; creation times are the seed's clock.
"$HERE/seed.sh" "$VENV/bin/roundup-admin" "$TRACKER" || { echo "seeding failed" >&2; exit 1; }

stop_app_on_signal
# -u: roundup-server refuses to run as root without one; as root it setuid()s to the same user,
# otherwise it only warns that it ignores it.
"$VENV/bin/roundup-server" -n 127.0.0.1 -p "$PORT" -u "$(id -u)" -t none "demo=$TRACKER" &
APP_PID=$!
wait_until_up 300 0.2 "roundup did not come up on $PORT" \
  -u "admin:$ADMIN_PASS" "http://127.0.0.1:$PORT/demo/rest/data/status"
echo "roundup READY on $PORT"
wait "$APP_PID"
