#!/usr/bin/env bash
# Start MediaWiki 1.39 (Debian bookworm's mediawiki package, unpacked) FRESH on SQLite, served by
# PHP's built-in web server (Debian's php-cli with php-sqlite3, php-intl, php-mbstring, php-xml),
# seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#        ./start.sh --prepare-only HOME_DIR   (make the MEDIAWIKI_TEMPLATE databases, start nothing)
#   PORT      the port `php -S` listens on (127.0.0.1); refused when taken
#   HOME_DIR  where the per-run LocalSettings.php and SQLite databases are made (default:
#             mktemp -d); an old one is replaced
# Env:  MEDIAWIKI_ROOT      the unpacked MediaWiki (default .ci/cache/mediawiki/usr/share/mediawiki:
#                           `apt-get download mediawiki mediawiki-classes`, `dpkg -x`, see .ci/live-apps.sh)
#       MEDIAWIKI_TEMPLATE  optional folder: the data directory with the wiki installed and seeded
#                           (install.php and seed.php: ~10 s) is kept there by the first start,
#                           later starts copy it (when settings.php and seed.php are still the ones
#                           that made it)
# Prints "mediawiki READY on <port>" once up; stops on SIGINT/SIGTERM.
# The wiki's address is the fixed http://mediawiki.capenv.test ($wgServer), whatever the port. The
# REST API is /rest.php/v1, the action API /api.php. The administrator (Admin, made by install.php)
# authenticates with `Authorization: Bearer <access-token.txt>` (BearerSessionProvider.php, as an
# OAuth 2 owner-only token would); requests without it are anonymous.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
MEDIAWIKI_ROOT="${MEDIAWIKI_ROOT:-$HERE/../../.ci/cache/mediawiki/usr/share/mediawiki}"
[ -f "$MEDIAWIKI_ROOT/includes/Setup.php" ] \
  || { echo "no MediaWiki in $MEDIAWIKI_ROOT (bash .ci/live-apps.sh install)" >&2; exit 1; }
MEDIAWIKI_ROOT="$(cd "$MEDIAWIKI_ROOT" && pwd)"
command -v php >/dev/null || { echo "php not found (apt-get install php-cli)" >&2; exit 1; }
php -r 'foreach (["pdo_sqlite", "intl", "mbstring", "xml"] as $e) if (!extension_loaded($e)) { fwrite(STDERR, "$e "); $m = 1; } exit($m ?? 0);' \
  || { echo "PHP extensions missing (apt-get install php-sqlite3 php-intl php-mbstring php-xml)" >&2; exit 1; }

if [ "$PORT" = --prepare-only ]; then
  : "${MEDIAWIKI_TEMPLATE:?--prepare-only needs MEDIAWIKI_TEMPLATE}"
  rm -rf "$MEDIAWIKI_TEMPLATE/data"
else
  refuse_taken_port "$PORT"
fi

mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/data" "$HOME_DIR/cache" "$HOME_DIR/images" "$HOME_DIR/install"
mkdir -p "$HOME_DIR/cache" "$HOME_DIR/images"
cat > "$HOME_DIR/LocalSettings.php" <<SETTINGS
<?php
\$capenvHome = '$HOME_DIR';
\$capenvHere = '$HERE';
require_once '$HERE/settings.php';
SETTINGS
export MW_CONFIG_FILE="$HOME_DIR/LocalSettings.php" MW_INSTALL_PATH="$MEDIAWIKI_ROOT"

# The template is what install.php, settings.php and seed.php made: another one is made again.
STAMP="$(cat "$HERE/settings.php" "$HERE/seed.php" | sha256sum | cut -c1-64)"
if [ -n "${MEDIAWIKI_TEMPLATE:-}" ] && [ -d "$MEDIAWIKI_TEMPLATE/data" ] \
    && [ "$(cat "$MEDIAWIKI_TEMPLATE/data/capenv-install.sha256" 2>/dev/null)" = "$STAMP" ]; then
  cp -a "$MEDIAWIKI_TEMPLATE/data" "$HOME_DIR/data"
else
  mkdir -p "$HOME_DIR/data" "$HOME_DIR/install"
  # install.php writes its own LocalSettings.php (into install/, unused): the databases are what it leaves.
  (cd "$MEDIAWIKI_ROOT" && MW_CONFIG_FILE="$HOME_DIR/install/LocalSettings.php" php maintenance/install.php \
      --dbtype sqlite --dbpath "$HOME_DIR/data" --dbname wiki --confpath "$HOME_DIR/install" \
      --server http://mediawiki.capenv.test --scriptpath "" --skins Vector \
      --pass capenv-mediawiki-throwaway-admin-password CapenvWiki Admin) >"$HOME_DIR/init.log" 2>&1 \
    || { echo "install.php failed, see $HOME_DIR/init.log" >&2; exit 1; }
  php "$HERE/seed.php" >>"$HOME_DIR/init.log" 2>&1 || { echo "seed.php failed, see $HOME_DIR/init.log" >&2; exit 1; }
  rm -rf "$HOME_DIR/install"
  if [ -n "${MEDIAWIKI_TEMPLATE:-}" ]; then
    # a rename into place, so that a start copying the template at the same time never reads half of it
    mkdir -p "$MEDIAWIKI_TEMPLATE"
    rm -rf "$MEDIAWIKI_TEMPLATE/data.$$"
    cp -a "$HOME_DIR/data" "$MEDIAWIKI_TEMPLATE/data.$$"
    echo "$STAMP" > "$MEDIAWIKI_TEMPLATE/data.$$/capenv-install.sha256"
    rm -rf "$MEDIAWIKI_TEMPLATE/data"
    mv -T "$MEDIAWIKI_TEMPLATE/data.$$" "$MEDIAWIKI_TEMPLATE/data"
  fi
  [ "$PORT" = --prepare-only ] && exit 0
fi

stop_app_on_signal
(cd "$MEDIAWIKI_ROOT" && exec php -S "127.0.0.1:$PORT" -t "$MEDIAWIKI_ROOT") >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 300 0.1 "mediawiki did not come up on $PORT, see $HOME_DIR/server.log" \
  "http://127.0.0.1:$PORT/rest.php/v1/page/Main_Page/bare"
echo "mediawiki READY on $PORT"
wait "$APP_PID"
