#!/usr/bin/env bash
# Start GNU Mailman 3 core 3.3.10 FRESH on a new var directory (SQLite), then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the REST API (gunicorn, one worker) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where mailman.cfg and the var directory are made (default: mktemp -d); an old one is replaced
# Env:  VENV  virtualenv with mailman==3.3.10 installed (required)
# Prints "mailman READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The resources' links name http://localhost:8001 (the configured webservice) whatever PORT is.
# Only the REST runner starts (`master` in the foreground, every other runner `start: no`): no
# LMTP port is opened and nothing is delivered (the null MTA; the out runner never runs, so the
# welcome messages subscriptions queue stay on disk). The seed (seed.py) runs directly on the app
# port, never through the recording proxy, as the throwaway REST admin restadmin.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with mailman==3.3.10 installed}"
ADMIN_USER=restadmin
ADMIN_PASS=capenv-mailman-throwaway

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
rm -rf "$HOME_DIR/var"
CFG="$HOME_DIR/mailman.cfg"
{
  cat <<CFG
[mailman]
layout: capenv
site_owner: postmaster@example.com

[paths.capenv]
var_dir: $HOME_DIR/var

[database]
class: mailman.database.sqlite.SQLiteDatabase
url: sqlite:///\$DATA_DIR/mailman.db

[mta]
incoming: mailman.mta.null.NullMTA
smtp_host: 127.0.0.1
smtp_port: 9

[webservice]
hostname: localhost
port: 8001
configuration: $HOME_DIR/gunicorn.cfg
admin_user: $ADMIN_USER
admin_pass: $ADMIN_PASS
workers: 1

[passwords]
configuration: $HOME_DIR/passlib.cfg
password_length: 0

[runner.rest]
start: yes
CFG
  for runner in archive bounces command in lmtp out pipeline retry task virgin digest; do
    printf '\n[runner.%s]\nstart: no\n' "$runner"
  done
} >"$CFG"
# Users made without a password get an empty plaintext one, which the REST API leaves out of the
# user resource: no password hash (a random salt on every run) reaches the capture.
# The REST API's links (self_link, user, address) name the configured webservice, localhost:8001,
# whatever port gunicorn is bound to: the same links on every start, recorded or live.
printf '[gunicorn]\nbind = 127.0.0.1:%s\n' "$PORT" >"$HOME_DIR/gunicorn.cfg"
printf '[passlib]\nschemes = plaintext\ndefault = plaintext\n' >"$HOME_DIR/passlib.cfg"

stop_app_on_signal
"$VENV/bin/master" -C "$CFG" --force &
APP_PID=$!
wait_until_up 600 0.2 "mailman did not come up on $PORT" \
  -u "$ADMIN_USER:$ADMIN_PASS" "http://127.0.0.1:$PORT/3.1/system/versions"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$ADMIN_USER" "$ADMIN_PASS" \
  "$HOME_DIR/var/data/mailman.db"
echo "mailman READY on $PORT"
wait "$APP_PID"
