#!/usr/bin/env bash
# The real applications behind captures/, for the live tests (tests/live/) and `capenv compare`.
#
#   bash .ci/live-apps.sh install   install what is missing (idempotent), then print where it is
#   bash .ci/live-apps.sh status    print what is installed, install nothing
#
# Versions are exactly those of captures/*/README.md. Everything goes under .ci/cache/
# (gitignored): json-server with npm into .ci/cache/npm, Kinto and Prefect from PyPI into
# their own virtual environments, so neither pulls its dependencies into the project's venv.
set -euo pipefail
cd "$(dirname "$0")/.."

JSON_SERVER_VERSION=0.17.4
KINTO_VERSION=26.5.0
PREFECT_VERSION=3.9.1
CACHE=.ci/cache
NPM_DIR="$CACHE/npm"
KINTO_VENV="$CACHE/venv-kinto"
PREFECT_VENV="$CACHE/venv-prefect"
PYTHON="${PYTHON:-python3}"

say() { echo "live-apps: $*"; }

installed_npm_version() {  # the version in node_modules, or nothing
    local manifest="$NPM_DIR/node_modules/$1/package.json"
    [ -f "$manifest" ] && node -e 'console.log(require(process.argv[1]).version)' "$PWD/$manifest" 2>/dev/null || true
}

installed_pip_version() {  # venv package -> its version, or nothing
    [ -x "$1/bin/python" ] && "$1/bin/python" -c \
        'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$2" 2>/dev/null || true
}

install_json_server() {
    if [ "$(installed_npm_version json-server)" = "$JSON_SERVER_VERSION" ]; then
        say "json-server $JSON_SERVER_VERSION already in $NPM_DIR"; return
    fi
    command -v npm >/dev/null || { say "npm not found: install Node.js 18+ first" >&2; return 1; }
    say "npm install json-server@$JSON_SERVER_VERSION into $NPM_DIR"
    mkdir -p "$NPM_DIR"
    # --prefix keeps node_modules and its lock file inside the cache, never in the repository root.
    npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error "json-server@$JSON_SERVER_VERSION"
}

install_venv_package() {  # venv package version
    local venv="$1" package="$2" version="$3"
    if [ "$(installed_pip_version "$venv" "$package")" = "$version" ]; then
        say "$package $version already in $venv"; return
    fi
    if [ ! -x "$venv/bin/python" ]; then
        say "$PYTHON -m venv $venv"
        "$PYTHON" -m venv "$venv"
    fi
    say "pip install $package==$version into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$package==$version" "${@:4}"
}

status() {
    say "json-server: $(installed_npm_version json-server || true) ($NPM_DIR/node_modules/.bin/json-server)"
    say "kinto:       $(installed_pip_version "$KINTO_VENV" kinto) ($KINTO_VENV)"
    say "prefect:     $(installed_pip_version "$PREFECT_VENV" prefect) ($PREFECT_VENV)"
}

case "${1:-install}" in
    install)
        mkdir -p "$CACHE"
        [ -f "$CACHE/.gitignore" ] || echo '*' > "$CACHE/.gitignore"
        started=$SECONDS
        install_json_server
        install_venv_package "$KINTO_VENV" kinto "$KINTO_VERSION"
        # httpx: captures/prefect/seed.py imports it (prefect depends on it anyway; named to be sure).
        install_venv_package "$PREFECT_VENV" prefect "$PREFECT_VERSION" httpx
        status
        say "done in $((SECONDS - started))s"
        ;;
    status) status ;;
    *) echo "usage: bash .ci/live-apps.sh install|status" >&2; exit 2 ;;
esac
