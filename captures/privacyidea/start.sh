#!/usr/bin/env bash
# Start privacyIDEA 3.14 (multi-factor authentication server, Flask) FRESH on a new SQLite database,
# then seed it through its API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port `pi-manage run` (Flask's development server, threaded) listens on (127.0.0.1);
#             refused when taken
#   HOME_DIR  its working directory (default: mktemp -d): pi.cfg, the encryption and audit signing
#             keys, privacyidea.sqlite and the user files of the seed's passwd resolvers (old ones removed)
# Env:  VENV  virtualenv with privacyidea==3.14 installed (.ci/live-apps.sh; required)
# Prints "privacyidea READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# pi.cfg holds a fixed throwaway SECRET_KEY (the HS256 key of the admin JWTs: token.txt, valid until
# 2031, is accepted by every start) and PI_PEPPER; the encryption key (encKey) and the RSA key that
# signs every answer (`signature`) are made anew at each start. `pi-manage setup create_tables` and
# `admin add` take ~7 s. The seed (seed.py, directly on the app port, never through the recording
# proxy) makes two passwd resolvers over user files written here, two realms, three policies and
# four tokens with fixed serials.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with privacyidea==3.14 installed}"

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -f "$HOME_DIR/privacyidea.sqlite" "$HOME_DIR/encKey" "$HOME_DIR/private.pem" "$HOME_DIR/public.pem"
cat >"$HOME_DIR/pi.cfg" <<CFG
import logging
PI_ENCFILE = '$HOME_DIR/encKey'
PI_AUDIT_KEY_PRIVATE = '$HOME_DIR/private.pem'
PI_AUDIT_KEY_PUBLIC = '$HOME_DIR/public.pem'
PI_LOGFILE = '$HOME_DIR/privacyidea.log'
PI_LOGLEVEL = logging.INFO
SQLALCHEMY_DATABASE_URI = 'sqlite:///$HOME_DIR/privacyidea.sqlite'
SECRET_KEY = b'capenv-throwaway-secret-key-0123456789'
PI_PEPPER = 'capenvThrowawayPepper'
CFG
# The passwd resolvers' user files, named relative to HOME_DIR (the server's working directory), so
# that no machine path reaches an answer.
printf '%s\n' 'alice:x:1001:1001:Alice Smith,,,,:/home/alice:/bin/bash' \
  'bob:x:1002:1002:Bob Jones,,,,:/home/bob:/bin/bash' \
  'carol:x:1003:1003:Carol White,,,,:/home/carol:/bin/bash' >"$HOME_DIR/staff.passwd"
printf '%s\n' 'dave:x:2001:2001:Dave Brown,,,,:/home/dave:/bin/sh' \
  'erin:x:2002:2002:Erin Green,,,,:/home/erin:/bin/sh' >"$HOME_DIR/contractors.passwd"
export PRIVACYIDEA_CONFIGFILE="$HOME_DIR/pi.cfg"
cd "$HOME_DIR"
{ "$VENV/bin/pi-manage" setup create_enckey && "$VENV/bin/pi-manage" setup create_audit_keys \
    && "$VENV/bin/pi-manage" setup create_tables \
    && "$VENV/bin/pi-manage" admin add admin -p capenv-throwaway; } >"$HOME_DIR/setup.log" 2>&1 \
  || { cat "$HOME_DIR/setup.log" >&2; exit 1; }

stop_app_on_signal
"$VENV/bin/pi-manage" run -h 127.0.0.1 -p "$PORT" >"$HOME_DIR/api.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "privacyidea did not come up on $PORT" "http://127.0.0.1:$PORT/healthz/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" "$(cat "$HERE/token.txt")"
echo "privacyidea READY on $PORT"
wait "$APP_PID"
