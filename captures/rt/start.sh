#!/usr/bin/env bash
# Start Request Tracker 5.0.3 (Debian bookworm's request-tracker5 + rt5-db-sqlite) FRESH on a new
# SQLite database, then seed it through its REST 2.0 API.
# Usage: ./start.sh PORT [HOME_DIR]
#        ./start.sh --prepare-only HOME_DIR   (make the RT_TEMPLATE database, start nothing)
#   PORT      the port rt-server (Plack's standalone server) listens on (127.0.0.1); refused when taken
#   HOME_DIR  the instance's home: database, Mason caches, logs (default: mktemp -d)
# Env:  RT_ROOT      the installed application (default /usr/share/request-tracker5: `apt-get install
#                    --no-install-recommends request-tracker5 rt5-db-sqlite`, see .ci/live-apps.sh)
#       RT_TEMPLATE  optional folder: the database `rt-setup-database --action init` makes (~11 s)
#                    with the throwaway root password set, kept there by the first start; later
#                    starts copy it
# Prints "rt READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The instance reads only its own site configuration (RT_SiteConfig.pm here, through RT_SITE_CONFIG;
# RT_SITE_CONFIG_DIR names an empty folder in place of Debian's /etc/request-tracker5/RT_SiteConfig.d),
# so the system install is only read. The seed (seed.py) runs directly on the app port, never
# through the recording proxy, as root with HTTP Basic auth.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
RT_ROOT="${RT_ROOT:-/usr/share/request-tracker5}"
ROOT_PASSWORD="capenv-rt-throwaway"
[ -x "$RT_ROOT/libexec/rt-server" ] \
  || { echo "no RT in $RT_ROOT (apt-get install --no-install-recommends request-tracker5 rt5-db-sqlite)" >&2; exit 1; }

if [ "$PORT" = --prepare-only ]; then
  : "${RT_TEMPLATE:?--prepare-only needs RT_TEMPLATE}"
  rm -f "$RT_TEMPLATE/rt.sqlite"
else
  refuse_taken_port "$PORT"
fi

mkdir -p "$HOME_DIR/site-config.d" "$HOME_DIR/mason_data" "$HOME_DIR/session_data"
rm -f "$HOME_DIR/rt.sqlite"
export RT_CAPENV_HOME="$HOME_DIR" RT_SITE_CONFIG="$HERE/RT_SiteConfig.pm" RT_SITE_CONFIG_DIR="$HOME_DIR/site-config.d"
# Mail RT would send (MailCommand testfile) goes to files under TMPDIR.
export TMPDIR="$HOME_DIR"

if [ -n "${RT_TEMPLATE:-}" ] && [ -f "$RT_TEMPLATE/rt.sqlite" ]; then
  cp "$RT_TEMPLATE/rt.sqlite" "$HOME_DIR/rt.sqlite"
else
  /usr/sbin/rt-setup-database-5 --action init --skip-create >>"$HOME_DIR/init.log" 2>&1 \
    || { echo "rt-setup-database failed, see $HOME_DIR/init.log" >&2; exit 1; }
  # RT's initial data gives root the password "password": a throwaway of this script's instead.
  perl -I"$RT_ROOT/lib" -e 'use RT; RT::LoadConfig(); RT::Init();
    my $root = RT::User->new(RT->SystemUser); $root->Load("root");
    my ($ok, $msg) = $root->SetPassword($ARGV[0]); die "$msg\n" unless $ok;
    # Privileged users may own tickets and work on them in every queue, as a help desk would set up.
    my $privileged = RT::Group->new(RT->SystemUser); $privileged->LoadSystemInternalGroup("Privileged");
    for my $right (qw(OwnTicket ShowTicket SeeQueue ModifyTicket ReplyToTicket CommentOnTicket CreateTicket)) {
      my ($granted, $why) = $privileged->PrincipalObj->GrantRight(Right => $right, Object => RT->System);
      die "$why\n" unless $granted; }' "$ROOT_PASSWORD" \
    >>"$HOME_DIR/init.log" 2>&1 || { echo "setting root's password failed, see $HOME_DIR/init.log" >&2; exit 1; }
  [ -z "${RT_TEMPLATE:-}" ] || keep_in_template "$HOME_DIR/rt.sqlite" "$RT_TEMPLATE"
fi
[ "$PORT" = --prepare-only ] && exit 0

stop_app_on_signal
# Plack's standalone server, one process: the recording is sequential.
"$RT_ROOT/libexec/rt-server" --server Standalone --host 127.0.0.1 --port "$PORT" >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 600 0.2 "rt did not come up on $PORT, see $HOME_DIR/server.log" \
  -u "root:$ROOT_PASSWORD" "http://127.0.0.1:$PORT/REST/2.0/queues/all"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" root "$ROOT_PASSWORD"
echo "rt READY on $PORT"
wait "$APP_PID"
