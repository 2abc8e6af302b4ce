#!/usr/bin/env bash
# Start Redmine 5.0.4 (Debian bookworm's redmine + redmine-sqlite) FRESH on a new SQLite database, then seed it.
# Usage: ./start.sh PORT [HOME_DIR]
#        ./start.sh --prepare-only HOME_DIR   (make the REDMINE_TEMPLATE database, start nothing)
#   PORT      the port Redmine (rails server, WEBrick) listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the per-run copy of the application and its database are made (default: mktemp -d);
#             an old one is replaced
# Env:  REDMINE_ROOT      the installed application (default /usr/share/redmine: `apt-get install
#                         --no-install-recommends redmine redmine-sqlite`, see .ci/live-apps.sh)
#       REDMINE_TEMPLATE  optional folder: the migrated database with Redmine's default data (trackers,
#                         statuses, priorities, roles), the REST API on and the admin's API key
#                         (`rails db:migrate`, `redmine:load_default_data`: ~1 min on 2 cores) is
#                         kept there by the first start, later starts copy it
# Prints "redmine READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The application runs from a copy of REDMINE_ROOT in HOME_DIR (Debian's Redmine keeps an instance's
# database.yml, tmp, log and files under instances/NAME; the copy has its own), so the system install
# is only read. The seed (seed.py) runs directly on the app port, never through the recording proxy,
# with the fixed throwaway API key of the admin (user 1) that this script writes into the database.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
REDMINE_ROOT="${REDMINE_ROOT:-/usr/share/redmine}"
API_KEY="$(cat "$HERE/api-key.txt")"
[ -f "$REDMINE_ROOT/config/application.rb" ] \
  || { echo "no Redmine in $REDMINE_ROOT (apt-get install --no-install-recommends redmine redmine-sqlite)" >&2; exit 1; }

if [ "$PORT" = --prepare-only ]; then
  : "${REDMINE_TEMPLATE:?--prepare-only needs REDMINE_TEMPLATE}"
  rm -f "$REDMINE_TEMPLATE/redmine.sqlite3"
else
  refuse_taken_port "$PORT"
fi

# The per-run application: a copy of the install whose instance "capenv" lives in HOME_DIR.
APP="$HOME_DIR/app"
INSTANCE="$APP/instances/capenv"
rm -rf "$APP"
mkdir -p "$HOME_DIR"
cp -a "$REDMINE_ROOT" "$APP"
rm -f "$APP/instances" "$APP/Gemfile.lock" "$APP/config/database.yml"
# Ruby 3.1 has no web server of its own and the Gemfile names none: WEBrick (Debian's ruby-webrick,
# installed with redmine) joins through Gemfile.local; bundler then writes the copy's own Gemfile.lock.
echo "gem 'webrick'" > "$APP/Gemfile.local"
mkdir -p "$INSTANCE/config" "$INSTANCE/tmp/cache" "$INSTANCE/tmp/pids" "$INSTANCE/log" "$INSTANCE/files"
DB="$INSTANCE/redmine.sqlite3"
printf 'production:\n  adapter: sqlite3\n  database: %s\n  timeout: 5000\n' "$DB" > "$INSTANCE/config/database.yml"
cp "$INSTANCE/config/database.yml" "$APP/config/database.yml"
echo "capenv-redmine-throwaway-secret-key-base" > "$INSTANCE/config/secret_key.txt"
# Attachments in the instance, not under the system's /var/lib/redmine.
printf 'production:\n  attachments_storage_path: %s\n' "$INSTANCE/files" > "$APP/config/configuration.yml"
export REDMINE_INSTANCE=capenv RAILS_ENV=production BUNDLE_GEMFILE="$APP/Gemfile"

if [ -n "${REDMINE_TEMPLATE:-}" ] && [ -f "$REDMINE_TEMPLATE/redmine.sqlite3" ]; then
  cp "$REDMINE_TEMPLATE/redmine.sqlite3" "$DB"
else
  step() {  # one step of the database's making, its output in HOME_DIR/init.log
    (cd "$APP" && "$@") >>"$HOME_DIR/init.log" 2>&1 || { echo "$* failed, see $HOME_DIR/init.log" >&2; exit 1; }
  }
  step ruby bin/rake db:migrate
  step ruby bin/rake redmine:load_default_data REDMINE_LANG=en
  # The REST API on, the admin's password change waived, and its API key fixed (a Token of action "api").
  sqlite3 "$DB" "
    DELETE FROM settings WHERE name = 'rest_api_enabled';
    INSERT INTO settings (name, value, updated_on) VALUES ('rest_api_enabled', '1', datetime('now'));
    UPDATE users SET must_change_passwd = 0 WHERE id = 1;
    DELETE FROM tokens WHERE user_id = 1 AND action = 'api';
    INSERT INTO tokens (user_id, action, value, created_on, updated_on)
      VALUES (1, 'api', '$API_KEY', datetime('now'), datetime('now'));"
  [ -z "${REDMINE_TEMPLATE:-}" ] || keep_in_template "$DB" "$REDMINE_TEMPLATE"
fi
[ "$PORT" = --prepare-only ] && exit 0

stop_app_on_signal
(cd "$APP" && exec ruby bin/rails server -u webrick -b 127.0.0.1 -p "$PORT" -P "$INSTANCE/tmp/pids/server.pid") \
  >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 900 0.2 "redmine did not come up on $PORT, see $HOME_DIR/server.log" \
  -H "X-Redmine-API-Key: $API_KEY" "http://127.0.0.1:$PORT/users/current.json"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_KEY"
# A user's API key is made the first time an admin's read (or the create's answer) shows it, a
# random one: the seeded users get fixed ones here, so that their reads answer the same on every
# fresh start.
sqlite3 "$DB" "
  DELETE FROM tokens WHERE action = 'api' AND user_id <> 1;
  INSERT INTO tokens (user_id, action, value, created_on, updated_on)
    SELECT id, 'api', printf('capenv0redmine0seeded0user0api0key%06d', id), datetime('now'), datetime('now')
    FROM users WHERE type = 'User' AND id <> 1;"
echo "redmine READY on $PORT"
wait "$APP_PID"
