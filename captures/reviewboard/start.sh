#!/usr/bin/env bash
# Start Review Board 7.0.6 FRESH on a new site directory (SQLite), then seed it through its Web API.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port gunicorn (one sync worker, wsgi.py) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the site directory and the file cache are made (default: mktemp -d); an old site
#             there is replaced
# Env:  VENV  virtualenv with ReviewBoard==7.0.6 and gunicorn installed (required)
# Prints "reviewboard READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# `rb-site install --noinput` makes the site (SQLite database, file cache under HOME_DIR, a fixed
# throwaway SECRET_KEY and admin password, domain 127.0.0.1) in a few seconds; the `venv` link it
# leaves in the site is removed (reviewboard.wsgi would look for virtualenv's activate_this.py
# there; VIRTUAL_ENV says the environment is already the right one). gunicorn serves wsgi.py, which
# fixes every request's Host to 127.0.0.1 so the absolute URLs the API writes (`links`) name no port.
# settings_local.py gets a cheap password hasher (below): a speed change only.
# The seed (seed.py) runs directly on the app port, never through the recording proxy.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
VENV="${VENV:?set VENV to a virtualenv with ReviewBoard==7.0.6 and gunicorn installed}"
ADMIN_PASS=capenv-reviewboard-throwaway
SECRET_KEY=capenv-reviewboard-throwaway-secret-key-0123456789

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/site" "$HOME_DIR/cache"
"$VENV/bin/rb-site" install --noinput --opt-out-support-data --domain-name=127.0.0.1 --site-root=/ \
  --db-type=sqlite3 --db-name="$HOME_DIR/site/data/reviewboard.db" --cache-type=file \
  --cache-info="$HOME_DIR/cache" --admin-user=admin --admin-password="$ADMIN_PASS" \
  --admin-email=admin@example.com --secret-key="$SECRET_KEY" "$HOME_DIR/site" \
  >"$HOME_DIR/install.log" 2>&1 || { cat "$HOME_DIR/install.log" >&2; exit 1; }
rm -f "$HOME_DIR/site/venv"
# Django's default PBKDF2 (600,000 iterations) costs 0.3-2 s per HTTP Basic call on a busy 2-core
# machine, and every call authenticates: a fast hasher first (new passwords, and the administrator's
# on its first login, are hashed with it), PBKDF2 still there to check the install's own hash.
cat >>"$HOME_DIR/site/conf/settings_local.py" <<'SETTINGS'

# capenv (captures/reviewboard/start.sh): a cheap password hasher, for speed only.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
SETTINGS

stop_app_on_signal
VIRTUAL_ENV="$VENV" REVIEWBOARD_SITEDIR="$HOME_DIR/site" "$VENV/bin/gunicorn" --chdir "$HERE" \
  --bind "127.0.0.1:$PORT" --workers 1 --timeout 120 --control-socket "$HOME_DIR/gunicorn.ctl" \
  wsgi:application >"$HOME_DIR/gunicorn.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "Review Board did not come up on $PORT" "http://127.0.0.1:$PORT/api/info/"
seed_or_stop "$VENV/bin/python" "$HERE/seed.py" "http://127.0.0.1:$PORT" admin "$ADMIN_PASS"
echo "reviewboard READY on $PORT"
wait "$APP_PID"
