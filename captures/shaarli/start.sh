#!/usr/bin/env bash
# Start Shaarli 0.12.1 (Debian bookworm's shaarli package and the PHP libraries it depends on,
# unpacked) FRESH with an empty datastore, served by PHP's built-in web server, seeded through its
# REST API v1.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port `php -S` listens on (127.0.0.1); refused when taken
#   HOME_DIR  the instance's home: data/ (config.json.php, datastore.php, history.php, log.txt) and
#             the template and page caches (default: mktemp -d); an old data/ is replaced
# Env:  SHAARLI_DIR  the unpacked packages (default .ci/cache/shaarli: `apt-get download shaarli`
#                    and its php-* libraries, `dpkg -x`, see .ci/live-apps.sh install_shaarli)
# Prints "shaarli READY on <port>" once seeded; stops on SIGINT/SIGTERM.
# The server runs in HOME_DIR: the unpacked ConfigManager reads data/config.json.php relative to its
# working directory (upstream's default; install_shaarli undoes Debian's /var/lib/shaarli path),
# and that configuration names every other file under HOME_DIR. Nothing is fetched from the
# network: no plugins, no thumbnails, no update check, no title retrieval.
# The API authenticates with `Authorization: Bearer <JWT>`: HS512 over the fixed throwaway
# api.secret below with an `iat` claim within the last 540 s (ApiMiddleware::$TOKEN_DURATION),
# so a client mints its tokens (seed.py, driver.py); api_token.py mints one.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
SHAARLI_DIR="${SHAARLI_DIR:-$HERE/../../.ci/cache/shaarli}"
[ -f "$SHAARLI_DIR/usr/share/shaarli/index.php" ] \
  || { echo "no Shaarli in $SHAARLI_DIR (bash .ci/live-apps.sh install)" >&2; exit 1; }
SHAARLI_DIR="$(cd "$SHAARLI_DIR" && pwd)"
command -v php >/dev/null || { echo "php not found (apt-get install php-cli)" >&2; exit 1; }
php -r 'foreach (["mbstring", "intl", "json", "zlib"] as $e) if (!extension_loaded($e)) { fwrite(STDERR, "$e "); $m = 1; } exit($m ?? 0);' \
  || { echo "PHP extensions missing (apt-get install php-mbstring php-intl)" >&2; exit 1; }
refuse_taken_port "$PORT"
API_SECRET="capenv-shaarli-throwaway-api-secret-0001"

HOME_DIR="$(mkdir -p "$HOME_DIR" && cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/data" "$HOME_DIR/tmp" "$HOME_DIR/cache" "$HOME_DIR/pagecache"
mkdir -p "$HOME_DIR/data" "$HOME_DIR/tmp" "$HOME_DIR/cache" "$HOME_DIR/pagecache"
# A datastore holding no bookmark: without one Shaarli adds its three welcome bookmarks.
php -d "include_path=.:$SHAARLI_DIR/usr/share/php" -r 'require $argv[1];
  echo "<?php /* ", base64_encode(gzdeflate(serialize(new Shaarli\Bookmark\BookmarkArray()))), " */ ?>";' \
  "$SHAARLI_DIR/usr/share/shaarli/autoload.php" > "$HOME_DIR/data/datastore.php"
python3 - "$HOME_DIR" "$API_SECRET" > "$HOME_DIR/data/config.json.php" <<'PY'
import hashlib, json, sys
home, secret = sys.argv[1], sys.argv[2]
login, password, salt = "capenv", "capenv-shaarli-throwaway", "capenv0shaarli0salt0throwaway000"
data = f"{home}/data"
config = {
    "credentials": {"login": login, "salt": salt,
                    "hash": hashlib.sha1((password + login + salt).encode()).hexdigest()},
    "general": {"title": "capenv bookmarks", "timezone": "UTC", "header_link": "/",
                "root_url": "http://shaarli.capenv.test/",
                "enabled_plugins": [], "retrieve_description": False, "enable_async_metadata": False,
                "links_per_page": 20, "tags_separator": " "},
    "resource": {"data_dir": data, "config": f"{data}/config.php", "datastore": f"{data}/datastore.php",
                 "ban_file": f"{data}/ipbans.php", "updates": f"{data}/updates.txt", "log": f"{data}/log.txt",
                 "update_check": f"{data}/lastupdatecheck.txt", "history": f"{data}/history.php",
                 "raintpl_tmp": f"{home}/tmp/", "thumbnails_cache": f"{home}/cache",
                 "page_cache": f"{home}/pagecache"},
    "security": {"session_protection_disabled": True, "open_shaarli": False},
    "updates": {"check_updates": False},
    "thumbnails": {"mode": "none"},
    "translation": {"language": "en", "mode": "php"},
    "plugins": {},
    "api": {"enabled": True, "secret": secret},
    "formatter": "markdown",
}
print("<?php /*" + json.dumps(config, indent=4) + "*/ ?>")
PY

stop_app_on_signal
# One worker: the recording is sequential. include_path names the unpacked libraries
# (Slim, Pimple, FastRoute, ...) that Debian installs under /usr/share/php.
(cd "$HOME_DIR" && exec php -d "include_path=.:$SHAARLI_DIR/usr/share/php" -d display_errors=0 -d log_errors=1 -d "error_log=$HOME_DIR/php-errors.log" \
   -S "127.0.0.1:$PORT" -t "$SHAARLI_DIR/usr/share/shaarli" "$SHAARLI_DIR/usr/share/shaarli/index.php") \
  >>"$HOME_DIR/server.log" 2>&1 &
APP_PID=$!
wait_until_up 300 0.2 "shaarli did not come up on $PORT, see $HOME_DIR/server.log" \
  -H "Authorization: Bearer $(python3 "$HERE/api_token.py" "$API_SECRET")" "http://127.0.0.1:$PORT/api/v1/info"
seed_or_stop python3 "$HERE/seed.py" "http://127.0.0.1:$PORT" "$API_SECRET"
echo "shaarli READY on $PORT"
wait "$APP_PID"
