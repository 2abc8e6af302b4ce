#!/usr/bin/env bash
# Start WordPress 6.1.9 (Debian bookworm's wordpress package, unpacked) FRESH on a private MariaDB
# (Debian's mariadb-server), served by PHP's built-in web server (Debian's php-cli), seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#        ./start.sh --prepare-only HOME_DIR   (make the WORDPRESS_TEMPLATE database, start nothing)
#   PORT      the port `php -S` listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the per-run copy of WordPress, the MariaDB data directory and its socket are
#             made (default: mktemp -d); an old one is replaced
# Env:  WORDPRESS_ROOT      the unpacked WordPress (default .ci/cache/wordpress/usr/share/wordpress:
#                           `apt-get download wordpress`, `dpkg -x`, see .ci/live-apps.sh)
#       WORDPRESS_TEMPLATE  optional folder: the MariaDB data directory with WordPress installed and
#                           seeded (install.php: ~5 s) is kept there by the first start, later
#                           starts copy it (when install.php is still the one that made it)
# Prints "wordpress READY on <port>" once up; stops (WordPress and MariaDB) on SIGINT/SIGTERM.
# MariaDB listens on no port, only on HOME_DIR/mysqld.sock; its root user has no password and is
# what WordPress connects as. The site's address is the fixed http://wordpress.capenv.test (WP_HOME),
# so the links in every answer are the same whatever the port. The REST API is served at /wp-json/
# (pretty permalinks, router.php); the administrator authenticates with HTTP Basic auth and a
# fixed throwaway Application Password (application-password.txt), which WordPress accepts over
# plain http because WP_ENVIRONMENT_TYPE is "local".
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
WORDPRESS_ROOT="${WORDPRESS_ROOT:-$HERE/../../.ci/cache/wordpress/usr/share/wordpress}"
APPLICATION_PASSWORD="$(cat "$HERE/application-password.txt")"
[ -f "$WORDPRESS_ROOT/wp-settings.php" ] \
  || { echo "no WordPress in $WORDPRESS_ROOT (bash .ci/live-apps.sh install)" >&2; exit 1; }
command -v mariadbd >/dev/null || PATH="$PATH:/usr/sbin"
for tool in php mariadbd mariadb-install-db mariadb-admin; do
  command -v "$tool" >/dev/null || { echo "$tool not found (apt-get install php-cli php-mysql mariadb-server)" >&2; exit 1; }
done

if [ "$PORT" = --prepare-only ]; then
  : "${WORDPRESS_TEMPLATE:?--prepare-only needs WORDPRESS_TEMPLATE}"
  rm -rf "$WORDPRESS_TEMPLATE/db"
else
  refuse_taken_port "$PORT"
fi

rm -rf "$HOME_DIR/app" "$HOME_DIR/db"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
APP="$HOME_DIR/app"
DATA="$HOME_DIR/db"
SOCKET="$HOME_DIR/mysqld.sock"
cp -a "$WORDPRESS_ROOT" "$APP"
mkdir -p "$APP/wp-content/uploads"
# The copy's own configuration in place of Debian's (which reads /etc/wordpress/config-HOST.php).
rm -f "$APP/wp-config.php"
cat > "$APP/wp-config.php" <<CONFIG
<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:$SOCKET');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', 'http://wordpress.capenv.test');
define('WP_SITEURL', 'http://wordpress.capenv.test');
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_CONTENT_DIR', '$APP/wp-content');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);
foreach (array('AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT',
               'LOGGED_IN_SALT', 'NONCE_SALT') as \$name) {
    define(\$name, 'capenv-wordpress-throwaway-' . \$name);
}
\$table_prefix = 'wp_';
if (!defined('ABSPATH')) { define('ABSPATH', __DIR__ . '/'); }
require_once ABSPATH . 'wp-settings.php';
CONFIG

MYSQL_PID=""
stop_both() {
  [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null
  [ -n "$MYSQL_PID" ] && kill -TERM "$MYSQL_PID" 2>/dev/null
  wait 2>/dev/null
  exit 0
}
fail_both() {
  echo "$1" >&2
  [ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null
  [ -n "$MYSQL_PID" ] && kill -TERM "$MYSQL_PID" 2>/dev/null
  wait 2>/dev/null
  exit 1
}
trap stop_both INT TERM

start_mariadb() {  # in the background, on the socket only; waits until it answers
  local user=()
  [ "$(id -u)" = 0 ] && user=(--user=root)  # mariadbd refuses to run as root unless told
  mariadbd --no-defaults "${user[@]}" --datadir="$DATA" --socket="$SOCKET" --skip-networking \
    --pid-file="$HOME_DIR/mysqld.pid" --log-error="$HOME_DIR/mysqld.err" --skip-log-bin \
    --innodb-log-file-size=8M --innodb-buffer-pool-size=32M --character-set-server=utf8mb4 \
    --collation-server=utf8mb4_unicode_ci >/dev/null 2>&1 &
  MYSQL_PID=$!
  local i
  for i in $(seq 1 300); do
    mariadb-admin --no-defaults -S "$SOCKET" -uroot ping >/dev/null 2>&1 && return 0
    kill -0 "$MYSQL_PID" 2>/dev/null || break
    sleep 0.1
  done
  fail_both "mariadbd did not come up, see $HOME_DIR/mysqld.err"
}

# The template is what install.php made: one made by another install.php is made again.
STAMP="$(sha256sum "$HERE/install.php" | cut -c1-64)"
if [ -n "${WORDPRESS_TEMPLATE:-}" ] && [ -d "$WORDPRESS_TEMPLATE/db" ] \
    && [ "$(cat "$WORDPRESS_TEMPLATE/db/capenv-install.sha256" 2>/dev/null)" = "$STAMP" ]; then
  cp -a "$WORDPRESS_TEMPLATE/db" "$DATA"
  start_mariadb
else
  user=()
  [ "$(id -u)" = 0 ] && user=(--user=root)
  mariadb-install-db --no-defaults "${user[@]}" --datadir="$DATA" --auth-root-authentication-method=normal \
    --skip-test-db --innodb-log-file-size=8M >"$HOME_DIR/init.log" 2>&1 \
    || { echo "mariadb-install-db failed, see $HOME_DIR/init.log" >&2; exit 1; }
  start_mariadb
  mariadb --no-defaults -S "$SOCKET" -uroot -e \
    "CREATE DATABASE wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci" >>"$HOME_DIR/init.log" 2>&1 \
    || fail_both "CREATE DATABASE failed, see $HOME_DIR/init.log"
  php "$HERE/install.php" "$APP" "$APPLICATION_PASSWORD" >>"$HOME_DIR/init.log" 2>&1 \
    || fail_both "install.php failed, see $HOME_DIR/init.log"
  if [ -n "${WORDPRESS_TEMPLATE:-}" ]; then
    # A clean shutdown, so that the copied data directory needs no recovery, then a rename into
    # place, so that a start copying the template at the same time never reads half of it.
    mariadb-admin --no-defaults -S "$SOCKET" -uroot shutdown
    wait "$MYSQL_PID" 2>/dev/null || true
    MYSQL_PID=""
    mkdir -p "$WORDPRESS_TEMPLATE"
    rm -rf "$WORDPRESS_TEMPLATE/db.$$"
    cp -a "$DATA" "$WORDPRESS_TEMPLATE/db.$$"
    echo "$STAMP" > "$WORDPRESS_TEMPLATE/db.$$/capenv-install.sha256"
    rm -rf "$WORDPRESS_TEMPLATE/db"
    mv -T "$WORDPRESS_TEMPLATE/db.$$" "$WORDPRESS_TEMPLATE/db"
    [ "$PORT" = --prepare-only ] && exit 0
    start_mariadb
  fi
fi

(cd "$APP" && exec php -S "127.0.0.1:$PORT" -t "$APP" "$HERE/router.php") >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
AUTH="$(printf 'admin:%s' "$APPLICATION_PASSWORD" | base64)"
for i in $(seq 1 300); do
  curl -sf -o /dev/null -H "Authorization: Basic $AUTH" "http://127.0.0.1:$PORT/wp-json/wp/v2/users/me" && break
  kill -0 "$APP_PID" 2>/dev/null || fail_both "php -S exited, see $HOME_DIR/server.log"
  [ "$i" = 300 ] && fail_both "wordpress did not come up on $PORT, see $HOME_DIR/server.log"
  sleep 0.1
done
echo "wordpress READY on $PORT"
wait "$APP_PID"
