"""Start the real applications of captures/ fresh on loopback, for the live tests.

Each starts from its capture's own ``start.sh`` (the seed is part of it), on a free loopback
port, and is stopped by killing its process group. What is installed where is
``.ci/live-apps.sh``'s business; when an application is missing the caller skips (or, under
``CI=true``, fails with the install command).
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
CAPTURES = REPO / "captures"
# Where .ci/live-apps.sh installs: CAPENV_CI_CACHE when set (.ci/run sets a machine-wide folder), else .ci/cache.
CACHE = Path(os.environ.get("CAPENV_CI_CACHE") or REPO / ".ci" / "cache")
INSTALL_COMMAND = "bash .ci/live-apps.sh install"
STOP_GRACE_SECONDS = 10.0


class NotInstalled(Exception):
    """The application is not where ``.ci/live-apps.sh install`` puts it."""


class NoCapture(Exception):
    """captures/<app>/ is not in this checkout (a capture still to land): nothing to start."""


class StartFailed(Exception):
    """The application did not become ready in time; the message ends with its log."""


class StartExited(StartFailed):
    """The application's start.sh exited before it was ready (started again once: ``START_ATTEMPTS``)."""


@dataclass
class LiveApp:
    name: str
    url: str
    port: int
    startup_seconds: float
    process: subprocess.Popen
    log: Path
    extra_pids: list[int] = field(default_factory=list)

    def stop(self) -> None:
        """SIGTERM the whole process group (start.sh and what it started), then SIGKILL."""
        _kill_group(self.process, signal.SIGTERM)
        for pid in self.extra_pids:  # a server start.sh put in the background and left
            _kill_pid(pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _kill_group(self.process, signal.SIGKILL)
            self.process.wait(timeout=STOP_GRACE_SECONDS)
        for pid in self.extra_pids:
            _wait_gone(pid)


@dataclass(frozen=True)
class AppSpec:
    name: str
    installed: Callable[[], dict[str, str]]
    """The environment start.sh needs; raises ``NotInstalled``."""
    start: Callable[[int, Path, dict[str, str]], tuple[list[str], Path | None]]
    """(argv, working script) for a port and a scratch directory."""
    ready_path: str
    timeout_seconds: float
    ready_line: str | None = None
    """A line start.sh prints once the seed is in (otherwise: start.sh exits 0 when ready)."""
    runs_in_background: bool = False
    capture: str | None = None
    """The captures/ directory whose start.sh starts it."""
    ready_authorization: str | None = None
    """The Authorization header ``ready_path`` needs, when nothing of the application answers anonymously."""
    scheme: str = "http"
    """``https`` for an application that serves only TLS (its own self-signed certificate, not checked)."""


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def free_port() -> int:
    """A loopback port nothing listens on now, below the system's ephemeral range: the ports a bind to
    port 0 or an outgoing connection takes come from that range, so with the suite running on several
    workers (capenv servers on port 0, clients) none of them takes it between now and the start."""
    low = _ephemeral_low()
    for port in random.sample(range(PRIVATE_PORTS_LOW, low), min(50, max(low - PRIVATE_PORTS_LOW, 0))):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


PRIVATE_PORTS_LOW = 20000
"""The lowest port ``free_port`` draws from (above the well-known and most registered services' ports)."""


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


# --- json-server ------------------------------------------------------------------------

def _json_server_env() -> dict[str, str]:
    binary = CACHE / "npm" / "node_modules" / ".bin" / "json-server"
    if not binary.exists():
        raise NotInstalled(f"json-server 0.17.4 is not installed at {_shown(binary)}")
    return {"JSON_SERVER": str(binary)}


def _json_server_start(port: int, scratch: Path, env: dict[str, str]) -> tuple[list[str], Path | None]:
    env["RUN_DIR"] = str(scratch / "run")
    return ["bash", str(CAPTURES / "json-server" / "start.sh"), str(port)], None


# --- Kinto ------------------------------------------------------------------------------

def _venv_env(name: str, executable: str, version: str) -> Callable[[], dict[str, str]]:
    def env() -> dict[str, str]:
        venv = CACHE / f"venv-{name}"
        if not (venv / "bin" / executable).exists():
            raise NotInstalled(f"{name} {version} is not installed in {_shown(venv)}")
        return {"VENV": str(venv)}
    return env


def _kinto_start(port: int, scratch: Path, env: dict[str, str]) -> tuple[list[str], Path | None]:
    return ["bash", str(CAPTURES / "kinto" / "start.sh"), str(port)], None


# --- Prefect ------------------------------------------------------------------------------

def _prefect_start(port: int, scratch: Path, env: dict[str, str]) -> tuple[list[str], Path | None]:
    """start.sh takes the port and its home directory, so two runs (or an application someone
    started by hand) never meet; it leaves the server running and its pid in the home."""
    home = scratch / "prefecthome"
    return ["bash", str(CAPTURES / "prefect" / "start.sh"), str(port), str(home)], home / "server.pid"


# --- the corpus: every start.sh takes PORT HOME_DIR and prints a READY line once seeded ---------

def _home_start(app: str, extra_env: Callable[[Path, dict[str, str]], None] | None = None):
    """``captures/<app>/start.sh PORT HOME`` with a new, empty HOME under the test's scratch."""
    def start(port: int, scratch: Path, env: dict[str, str]) -> tuple[list[str], Path | None]:
        if extra_env is not None:
            extra_env(scratch, env)
        return ["bash", str(CAPTURES / app / "start.sh"), str(port), str(scratch / "home")], None
    return start


def _strapi_env() -> dict[str, str]:
    strapi = CACHE / "strapi"
    if not (strapi / "node_modules" / ".bin" / "strapi").exists():
        raise NotInstalled(f"strapi 5.54.0 is not installed in {_shown(strapi)}")
    return {"STRAPI_DIR": str(strapi)}


def _jupyterhub_env() -> dict[str, str]:
    """The Hub's venv and the npm prefix of the configurable-http-proxy it starts."""
    env = _venv_env("jupyterhub", "jupyterhub", "5.4.3")()
    proxy = CACHE / "npm-chp"
    if not (proxy / "node_modules" / ".bin" / "configurable-http-proxy").exists():
        raise NotInstalled(f"configurable-http-proxy 4.6.3 is not installed in {_shown(proxy)}")
    return {**env, "CHP_DIR": str(proxy)}


def _alertmanager_env() -> dict[str, str]:
    """The unpacked Debian package (``dpkg -x``) whose binary start.sh runs."""
    root = CACHE / "alertmanager"
    if not (root / "usr" / "bin" / "prometheus-alertmanager").exists():
        raise NotInstalled(f"alertmanager 0.25.0 is not installed (unpacked) in {_shown(root)}")
    return {"ALERTMANAGER_ROOT": str(root)}


def _superset_env() -> dict[str, str]:
    """Superset's venv and the template metadata database `.ci/live-apps.sh install` prepares
    (start.sh makes and keeps it on a first start without it: ~1 min more)."""
    return {**_venv_env("superset", "superset", "6.1.0")(), "SUPERSET_TEMPLATE": str(CACHE / "superset-template")}


def _nocodb_env() -> dict[str, str]:
    nocodb = CACHE / "nocodb"
    if not (nocodb / "node_modules" / "sqlite3" / "build" / "Release" / "node_sqlite3.node").exists() \
            or not (nocodb / "node_modules" / "nocodb" / "package.json").exists():
        raise NotInstalled(f"nocodb 0.301.3 is not installed in {_shown(nocodb)}")
    return {"NOCODB_DIR": str(nocodb)}


def _label_studio_env(scratch: Path, env: dict[str, str]) -> None:
    """start.sh takes its data directory from RUN_DIR; LS_CACHE keeps the migrated, empty data
    directory of the first start, so later starts copy it instead of migrating for 60-90 s."""
    env["RUN_DIR"] = str(scratch / "home")
    env["LS_CACHE"] = str(CACHE / "label-studio-init")


def _pdns_env() -> dict[str, str]:
    """The Debian packages .ci/live-apps.sh unpacked (pdns_server and its sqlite3 backend)."""
    root = CACHE / "pdns"
    if not (root / "usr" / "sbin" / "pdns_server").exists():
        raise NotInstalled(f"pdns-server 4.7.3 is not installed (unpacked) in {_shown(root)}")
    return {"PDNS_ROOT": str(root)}


def _parse_server_env() -> dict[str, str]:
    """The npm prefix with parse-server (its PostgreSQL server binaries come from the system)."""
    prefix = CACHE / "parse-server"
    if not (prefix / "node_modules" / "parse-server" / "bin" / "parse-server").exists():
        raise NotInstalled(f"parse-server 9.10.0 is not installed in {_shown(prefix)}")
    return {"PARSE_SERVER_DIR": str(prefix)}


def _unleash_env() -> dict[str, str]:
    """The npm prefix with unleash-server (its PostgreSQL server binaries come from the system)."""
    prefix = CACHE / "unleash"
    if not (prefix / "node_modules" / "unleash-server" / "dist" / "server.js").exists():
        raise NotInstalled(f"unleash-server 7.5.1 is not installed in {_shown(prefix)}")
    return {"UNLEASH_DIR": str(prefix)}


def _flowise_env() -> dict[str, str]:
    """The npm prefix with Flowise and its sqlite3 binding (built from source by ``npm rebuild``)."""
    prefix = CACHE / "flowise"
    if not (prefix / "node_modules" / "flowise" / "bin" / "run").exists() \
            or not (prefix / "node_modules" / "sqlite3" / "build" / "Release" / "node_sqlite3.node").exists():
        raise NotInstalled(f"flowise 3.0.13 is not installed in {_shown(prefix)}")
    return {"FLOWISE_DIR": str(prefix)}


def _n8n_env() -> dict[str, str]:
    """The npm prefix with n8n and its sqlite3 binding (built from source by ``npm rebuild``)."""
    prefix = CACHE / "n8n"
    if not (prefix / "node_modules" / "n8n" / "bin" / "n8n").exists() \
            or not (prefix / "node_modules" / "sqlite3" / "build" / "Release" / "node_sqlite3.node").exists():
        raise NotInstalled(f"n8n 1.123.81 is not installed in {_shown(prefix)}")
    return {"N8N_DIR": str(prefix)}


def _nocobase_env() -> dict[str, str]:
    """The npm prefix with @nocobase/app and its sqlite3 binding (built from source by ``npm rebuild``)."""
    prefix = CACHE / "nocobase"
    if not (prefix / "node_modules" / "@nocobase" / "app" / "lib" / "index.js").exists() \
            or not (prefix / "node_modules" / "sqlite3" / "build" / "Release" / "node_sqlite3.node").exists():
        raise NotInstalled(f"nocobase 2.2.15 is not installed in {_shown(prefix)}")
    return {"NOCOBASE_DIR": str(prefix)}


def _pouchdb_server_env() -> dict[str, str]:
    """The npm prefix with pouchdb-server (LevelDB through leveldown's bundled prebuilt binary)."""
    prefix = CACHE / "pouchdb-server"
    if not (prefix / "node_modules" / "pouchdb-server" / "bin" / "pouchdb-server").exists():
        raise NotInstalled(f"pouchdb-server 4.2.0 is not installed in {_shown(prefix)}")
    return {"POUCHDB_SERVER_DIR": str(prefix)}
def _sails_env() -> dict[str, str]:
    """The npm prefix with sails, sails-hook-orm and sails-disk (start.sh copies the app beside it)."""
    prefix = CACHE / "sails"
    if not (prefix / "node_modules" / "sails" / "package.json").exists():
        raise NotInstalled(f"sails 1.5.18 is not installed in {_shown(prefix)}")
    return {"SAILS_DIR": str(prefix)}


def _loopback_todo_env() -> dict[str, str]:
    """The npm prefix with @loopback/example-todo (prebuilt JavaScript on LoopBack 4)."""
    prefix = CACHE / "loopback-todo"
    if not (prefix / "node_modules" / "@loopback" / "example-todo" / "dist" / "index.js").exists():
        raise NotInstalled(f"@loopback/example-todo 6.0.0 is not installed in {_shown(prefix)}")
    return {"LOOPBACK_TODO_DIR": str(prefix)}


def _feathers_env() -> dict[str, str]:
    """The npm prefix with @feathersjs/* 5.0.50 (start.sh copies the app of captures/feathers/app beside it)."""
    prefix = CACHE / "feathers"
    if not (prefix / "node_modules" / "@feathersjs" / "koa" / "package.json").exists():
        raise NotInstalled(f"@feathersjs/koa 5.0.50 is not installed in {_shown(prefix)}")
    return {"FEATHERS_DIR": str(prefix)}


def _express_gateway_env() -> dict[str, str]:
    """The npm prefix with express-gateway 1.16.11 (start.sh copies captures/express-gateway/app beside it)."""
    prefix = CACHE / "express-gateway"
    if not (prefix / "node_modules" / "express-gateway" / "package.json").exists():
        raise NotInstalled(f"express-gateway 1.16.11 is not installed in {_shown(prefix)}")
    return {"EXPRESS_GATEWAY_DIR": str(prefix)}


def _tiddlywiki_env() -> dict[str, str]:
    """The npm prefix with tiddlywiki (start.sh makes the wiki folder and copies its seed in)."""
    prefix = CACHE / "tiddlywiki"
    if not (prefix / "node_modules" / "tiddlywiki" / "tiddlywiki.js").exists():
        raise NotInstalled(f"tiddlywiki 5.4.1 is not installed in {_shown(prefix)}")
    return {"TIDDLYWIKI_DIR": str(prefix)}


def _json_server_v1_env() -> dict[str, str]:
    """The npm prefix with json-server's 1.0 line (start.sh copies its seed.json in as db.json)."""
    prefix = CACHE / "npm-json-server-v1"
    if not (prefix / "node_modules" / ".bin" / "json-server").exists():
        raise NotInstalled(f"json-server 1.0.0-beta.15 is not installed in {_shown(prefix)}")
    return {"JSON_SERVER_V1_DIR": str(prefix)}


def _node_red_env() -> dict[str, str]:
    """The npm prefix with node-red (start.sh makes the user directory and copies its seed in)."""
    prefix = CACHE / "node-red"
    if not (prefix / "node_modules" / "node-red" / "red.js").exists():
        raise NotInstalled(f"node-red 4.1.15 is not installed in {_shown(prefix)}")
    return {"NODE_RED_DIR": str(prefix)}


def _homebridge_env() -> dict[str, str]:
    """The npm prefix with homebridge-config-ui-x and homebridge (start.sh copies the seed files, runs the UI's
    API alone and seeds its users through it)."""
    prefix = CACHE / "homebridge"
    if not (prefix / "node_modules" / "homebridge-config-ui-x" / "dist" / "bin" / "standalone.js").exists():
        raise NotInstalled(f"homebridge-config-ui-x 5.10.0 is not installed in {_shown(prefix)}")
    return {"HOMEBRIDGE_DIR": str(prefix)}


def _verdaccio_env() -> dict[str, str]:
    """The npm prefix with verdaccio (start.sh writes its configuration and seeds it through its API)."""
    prefix = CACHE / "verdaccio"
    if not (prefix / "node_modules" / "verdaccio" / "bin" / "verdaccio").exists():
        raise NotInstalled(f"verdaccio 6.8.0 is not installed in {_shown(prefix)}")
    return {"VERDACCIO_DIR": str(prefix)}


def _signalk_env() -> dict[str, str]:
    """The npm prefix with signalk-server (start.sh makes its configuration directory and seeds it through its API)."""
    prefix = CACHE / "signalk-server"
    if not (prefix / "node_modules" / "signalk-server" / "bin" / "signalk-server").exists():
        raise NotInstalled(f"signalk-server 2.23.0 is not installed in {_shown(prefix)}")
    return {"SIGNALK_DIR": str(prefix)}


def _keystone_env() -> dict[str, str]:
    """Keystone's venv (with gunicorn) and the seeded template database `.ci/live-apps.sh install`
    prepares after it (start.sh makes and keeps it when missing, in a minute more)."""
    env = _venv_env("keystone", "keystone-manage", "30.0.0")()
    return {**env, "KEYSTONE_TEMPLATE": str(CACHE / "keystone-template")}


def _payload_env() -> dict[str, str]:
    """The npm prefix with payload 2.32.3 and its PostgreSQL adapter (start.sh runs
    captures/payload/project against it on a private PostgreSQL cluster)."""
    prefix = CACHE / "payload"
    if not (prefix / "node_modules" / "@payloadcms" / "db-postgres" / "package.json").exists():
        raise NotInstalled(f"payload 2.32.3 is not installed in {_shown(prefix)}")
    return {"PAYLOAD_DIR": str(prefix)}


PAYLOAD_API_KEY = "users API-Key 0b5c3a1e-6f2d-4c8a-9e71-capenv000001"


def _medusa_env() -> dict[str, str]:
    """The npm prefix with @medusajs/medusa 2.21.2 and the seeded template cluster `.ci/live-apps.sh
    install` prepares after it (start.sh makes and keeps it when missing, after minutes of migrations)."""
    prefix = CACHE / "medusa"
    if not (prefix / "node_modules" / "@medusajs" / "medusa" / "package.json").exists():
        raise NotInstalled(f"medusa 2.21.2 is not installed in {_shown(prefix)}")
    return {"MEDUSA_DIR": str(prefix), "MEDUSA_TEMPLATE": str(CACHE / "medusa-template")}


def _nautobot_env() -> dict[str, str]:
    """Nautobot's venv and the seeded template cluster `.ci/live-apps.sh install` prepares after it
    (start.sh makes and keeps it when missing, after minutes of migrations)."""
    env = _venv_env("nautobot", "nautobot-server", "3.2.7")()
    return {**env, "NAUTOBOT_TEMPLATE": str(CACHE / "nautobot-template")}


NAUTOBOT_TOKEN = "Token 0123456789abcdef0123456789abcdef01234567"
HOMEASSISTANT_TOKEN = "Bearer " + (CAPTURES / "homeassistant" / "token.txt").read_text().strip() \
    if (CAPTURES / "homeassistant" / "token.txt").exists() else ""


def _pretix_env() -> dict[str, str]:
    """pretix's venv (with gunicorn) and the seeded template database `.ci/live-apps.sh install`
    prepares after it (start.sh makes and keeps it when missing, after several minutes of
    migrations)."""
    env = _venv_env("pretix", "gunicorn", "2026.8.0")()
    return {**env, "PRETIX_TEMPLATE": str(CACHE / "pretix-template")}


def _pretalx_env() -> dict[str, str]:
    """pretalx's venv (Python 3.13, with gunicorn) and the seeded template database
    `.ci/live-apps.sh install` prepares after it (start.sh makes and keeps it when missing)."""
    env = _venv_env("pretalx", "gunicorn", "2026.2.1")()
    return {**env, "PRETALX_TEMPLATE": str(CACHE / "pretalx-template")}


def _redmine_env() -> dict[str, str]:
    """Debian's Redmine (the one system install: /usr/share/redmine) and the template database that
    `.ci/live-apps.sh install` prepares after it, which also tells that the install ran."""
    root, template = Path("/usr/share/redmine"), CACHE / "redmine-template"
    if not (root / "config" / "application.rb").exists():
        raise NotInstalled(f"redmine 5.0.4 (Debian) is not installed in {root}")
    if not (template / "redmine.sqlite3").exists():
        raise NotInstalled(f"redmine 5.0.4's template database is not installed in {_shown(template)}")
    return {"REDMINE_ROOT": str(root), "REDMINE_TEMPLATE": str(template)}


def _rt_env() -> dict[str, str]:
    """Debian's request-tracker5 (a system install: /usr/share/request-tracker5) and the template
    database that `.ci/live-apps.sh install` prepares after it, which also tells that the install ran."""
    root, template = Path("/usr/share/request-tracker5"), CACHE / "rt-template"
    if not (root / "libexec" / "rt-server").exists():
        raise NotInstalled(f"request-tracker5 5.0.3 (Debian) is not installed in {root}")
    if not (template / "rt.sqlite").exists():
        raise NotInstalled(f"rt 5.0.3's template database is not installed in {_shown(template)}")
    return {"RT_ROOT": str(root), "RT_TEMPLATE": str(template)}


def _syncthing_env() -> dict[str, str]:
    """The unpacked Debian package (``dpkg -x``): one static binary start.sh runs."""
    root = CACHE / "syncthing"
    if not (root / "usr" / "bin" / "syncthing").exists():
        raise NotInstalled(f"syncthing 1.19.2 is not installed (unpacked) in {_shown(root)}")
    return {"SYNCTHING_ROOT": str(root)}


def _etcd_env() -> dict[str, str]:
    """The unpacked Debian package (``dpkg -x``): one static binary start.sh runs."""
    root = CACHE / "etcd"
    if not (root / "usr" / "bin" / "etcd").exists():
        raise NotInstalled(f"etcd 3.4.23 is not installed (unpacked) in {_shown(root)}")
    return {"ETCD_ROOT": str(root)}


def _caddy_env() -> dict[str, str]:
    """The unpacked Debian package (``dpkg -x``): one static binary start.sh runs."""
    root = CACHE / "caddy"
    if not (root / "usr" / "bin" / "caddy").exists():
        raise NotInstalled(f"caddy 2.6.2 is not installed (unpacked) in {_shown(root)}")
    return {"CADDY_ROOT": str(root)}


def _icinga2_env() -> dict[str, str]:
    """The unpacked Debian packages (``dpkg -x``): the daemon, its ITL and three Boost libraries."""
    root = CACHE / "icinga2"
    if not (root / "usr" / "lib" / "x86_64-linux-gnu" / "icinga2" / "sbin" / "icinga2").exists():
        raise NotInstalled(f"icinga2 2.13.6 is not installed (unpacked) in {_shown(root)}")
    if shutil.which("openssl") is None:
        raise NotInstalled("openssl is not installed (captures/icinga2/start.sh makes the API's certificates)")
    return {"ICINGA2_ROOT": str(root)}


def _podman_env() -> dict[str, str]:
    """Debian's podman 4.3.1 (a system install) and the mark `.ci/live-apps.sh install` leaves in
    the cache once it installed it; run as root: start.sh gives the service a mount namespace of its
    own (``unshare --mount``) for its storage, networks and locks."""
    mark, podman = CACHE / "podman" / "installed-version", shutil.which("podman")
    if not mark.exists() or podman is None:
        raise NotInstalled(f"podman 4.3.1 (Debian) is not installed (no {_shown(mark)}, or no podman on PATH)")
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "podman"], capture_output=True, text=True).stdout
    if version != mark.read_text().strip() or not version.startswith("4.3.1+"):
        raise NotInstalled(f"podman 4.3.1 (Debian) is not installed: dpkg has {version or 'none'}")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        raise NotInstalled("podman 4.3.1 is not installed for this user: start.sh runs it rootful with unshare")
    return {"PODMAN": podman}


def _wordpress_env() -> dict[str, str]:
    """The unpacked Debian wordpress package, Debian's php-cli and mariadb-server (system installs),
    and the folder where start.sh keeps its template database (made by the first start: ~5 s)."""
    root = CACHE / "wordpress" / "usr" / "share" / "wordpress"
    if not (root / "wp-settings.php").exists():
        raise NotInstalled(f"wordpress 6.1.9 is not installed (unpacked) in {_shown(root)}")
    for tool in ("php", "mariadbd"):
        if shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin") is None:
            raise NotInstalled(f"{tool} is not installed (Debian's php-cli, php-mysql and mariadb-server)")
    return {"WORDPRESS_ROOT": str(root), "WORDPRESS_TEMPLATE": str(CACHE / "wordpress-template")}


def _mediawiki_env() -> dict[str, str]:
    """The unpacked Debian mediawiki and mediawiki-classes packages, Debian's php-cli with its SQLite,
    intl, mbstring and xml extensions (system installs), and the folder where start.sh keeps its
    template databases (made by the first start: ~10 s)."""
    root = CACHE / "mediawiki" / "usr" / "share" / "mediawiki"
    if not (root / "includes" / "Setup.php").exists():
        raise NotInstalled(f"mediawiki 1.39 is not installed (unpacked) in {_shown(root)}")
    if shutil.which("php") is None:
        raise NotInstalled("php is not installed (Debian's php-cli, php-sqlite3, php-intl, php-mbstring, php-xml)")
    return {"MEDIAWIKI_ROOT": str(root), "MEDIAWIKI_TEMPLATE": str(CACHE / "mediawiki-template")}


def _shaarli_env() -> dict[str, str]:
    """The unpacked Debian shaarli package and its php-* libraries (relocated by install_shaarli),
    and a php-cli with mbstring and intl (a system install, as for MediaWiki)."""
    root = CACHE / "shaarli"
    if not (root / "usr" / "share" / "shaarli" / "index.php").exists():
        raise NotInstalled(f"shaarli 0.12.1 is not installed (unpacked) in {_shown(root)}")
    if shutil.which("php") is None:
        raise NotInstalled("php is not installed (Debian's php-cli, php-intl, php-mbstring)")
    return {"SHAARLI_DIR": str(root)}


def _rabbitmq_env() -> dict[str, str]:
    """The unpacked Debian packages (``dpkg -x``): rabbitmq-server and the Erlang it runs on."""
    root = CACHE / "rabbitmq"
    if not (root / "usr" / "lib" / "rabbitmq" / "lib" / "rabbitmq_server-3.10.8" / "sbin" / "rabbitmq-server").exists():
        raise NotInstalled(f"rabbitmq-server 3.10.8 is not installed (unpacked) in {_shown(root)}")
    return {"RABBITMQ_ROOT": str(root)}


ICINGA2_USER = "Basic Y2FwZW52OmNhcGVudi1pY2luZ2Etbm90LWEtc2VjcmV0"
"""The throwaway ApiUser captures/icinga2/icinga2.conf configures (capenv): every route asks for it."""
UNLEASH_ADMIN = "*:*.capenv-unleash-admin-token-not-a-secret"
RABBITMQ_ADMIN = "Basic YWRtaW46Y2FwZW52LXJhYmJpdG1xLXRocm93YXdheQ=="
"""The seed's throwaway administrator (captures/rabbitmq/definitions.json): the management API asks for it."""


MAILMAN_ADMIN = "Basic cmVzdGFkbWluOmNhcGVudi1tYWlsbWFuLXRocm93YXdheQ=="
"""The throwaway REST admin captures/mailman/start.sh configures (restadmin): every route asks for it."""
ROUNDUP_ADMIN = "Basic YWRtaW46Y2FwZW52LXJvdW5kdXAtdGhyb3dhd2F5"
RT_ROOT_USER = "Basic cm9vdDpjYXBlbnYtcnQtdGhyb3dhd2F5"  # root:capenv-rt-throwaway (captures/rt/start.sh)
"""The throwaway tracker admin captures/roundup/start.sh initialises (admin)."""

FLEXGET_TOKEN = "Token capenv-flexget-throwaway-token-0001"
"""The throwaway API token captures/flexget/seed.py gives the daemon's user: every route but /api/ asks for it."""

OCTOPRINT_KEY = "Bearer capenv-octoprint-throwaway-api-key-0001"
DOCCANO_ADMIN = "Token capenv0doccano0throwaway0admin0token0001"
"""The throwaway global API key captures/octoprint/start.sh configures (OctoPrint takes it as a bearer too)."""


APPS = {name: spec if spec.capture else dataclasses.replace(spec, capture=name) for name, spec in {
    "json-server": AppSpec("json-server", _json_server_env, _json_server_start, "/profile", 30.0),
    "kinto": AppSpec("kinto", _venv_env("kinto", "kinto", "26.5.0"), _kinto_start, "/v1/", 60.0,
                     ready_line="KINTO READY"),
    "prefect": AppSpec("prefect", _venv_env("prefect", "prefect", "3.9.1"), _prefect_start, "/api/health", 180.0,
                       runs_in_background=True),
    "datasette": AppSpec("datasette", _venv_env("datasette", "datasette", "1.0a41"), _home_start("datasette"),
                         "/-/versions.json", 60.0, ready_line="datasette READY"),
    "jupyter-server": AppSpec("jupyter-server", _venv_env("jupyter-server", "jupyter-server", "2.21.1"),
                              _home_start("jupyter-server"), "/api", 120.0, ready_line="jupyter-server READY"),
    "mlflow": AppSpec("mlflow", _venv_env("mlflow", "mlflow", "3.17.2"), _home_start("mlflow"), "/health", 300.0,
                      ready_line="MLFLOW READY"),
    "strapi": AppSpec("strapi", _strapi_env, _home_start("strapi"), "/_health", 180.0, ready_line="STRAPI READY"),
    # /health/ as start.sh polls it: /health renders an HTML page, which rewrites Label Studio's cached
    # /api/version/ document (captures/label-studio/README.md, Problems met)
    "label-studio": AppSpec("label-studio", _venv_env("label-studio", "label-studio", "1.23.2"),
                            _home_start("label-studio", _label_studio_env), "/health/", 400.0,
                            ready_line="LABEL STUDIO READY"),
    "jupyterhub": AppSpec("jupyterhub", _jupyterhub_env, _home_start("jupyterhub"), "/hub/api/", 120.0,
                          ready_line="jupyterhub READY"),
    "pocketbase": AppSpec("pocketbase", _venv_env("pocketbase", "pocketbase", "0.40.6"), _home_start("pocketbase"),
                          "/api/health", 60.0, ready_line="pocketbase READY"),
    "pdns": AppSpec("pdns", _pdns_env, _home_start("pdns"), "/", 60.0, ready_line="pdns READY"),
    "alertmanager": AppSpec("alertmanager", _alertmanager_env, _home_start("alertmanager"), "/-/ready", 60.0,
                            ready_line="alertmanager READY"),
    "syncthing": AppSpec("syncthing", _syncthing_env, _home_start("syncthing"), "/", 60.0,
                         ready_line="syncthing READY"),
    "caddy": AppSpec("caddy", _caddy_env, _home_start("caddy"), "/config/apps", 60.0,
                     ready_line="caddy READY"),
    "etcd": AppSpec("etcd", _etcd_env, _home_start("etcd"), "/health", 60.0, ready_line="etcd READY"),
    "superset": AppSpec("superset", _superset_env, _home_start("superset"), "/health", 300.0,
                        ready_line="superset READY"),
    "nocodb": AppSpec("nocodb", _nocodb_env, _home_start("nocodb"), "/api/v1/health", 240.0,
                      ready_line="nocodb READY"),
    "synapse": AppSpec("synapse", _venv_env("synapse", "synapse_homeserver", "1.163.2"), _home_start("synapse"), "/health", 120.0,
                       ready_line="synapse READY"),
    "mailman": AppSpec("mailman", _venv_env("mailman", "master", "3.3.10"), _home_start("mailman"),
                       "/3.1/system/versions", 120.0, ready_line="mailman READY",
                       ready_authorization=MAILMAN_ADMIN),
    "keystone": AppSpec("keystone", _keystone_env, _home_start("keystone"), "/v3", 240.0,
                        ready_line="keystone READY"),
    "pretix": AppSpec("pretix", _pretix_env, _home_start("pretix"), "/robots.txt", 240.0,
                      ready_line="pretix READY"),
    "pretalx": AppSpec("pretalx", _pretalx_env, _home_start("pretalx"), "/api/events/", 240.0,
                       ready_line="pretalx READY"),
    "redmine": AppSpec("redmine", _redmine_env, _home_start("redmine"), "/issue_statuses.json", 180.0,
                       ready_line="redmine READY"),
    "parse-server": AppSpec("parse-server", _parse_server_env, _home_start("parse-server"), "/parse/health", 120.0,
                            ready_line="parse-server READY"),
    "wordpress": AppSpec("wordpress", _wordpress_env, _home_start("wordpress"), "/wp-json/", 120.0,
                         ready_line="wordpress READY"),
    "mediawiki": AppSpec("mediawiki", _mediawiki_env, _home_start("mediawiki"), "/rest.php/v1/page/Main_Page/bare",
                         120.0, ready_line="mediawiki READY"),
    # every API route asks for a freshly minted token: the ready check reads the front page
    "shaarli": AppSpec("shaarli", _shaarli_env, _home_start("shaarli"), "/login", 120.0, ready_line="shaarli READY"),
    "rabbitmq": AppSpec("rabbitmq", _rabbitmq_env, _home_start("rabbitmq"), "/api/whoami", 120.0,
                        ready_line="rabbitmq READY", ready_authorization=RABBITMQ_ADMIN),
    "roundup": AppSpec("roundup", _venv_env("roundup", "roundup-server", "2.6.0"), _home_start("roundup"),
                       "/demo/rest/data/status", 60.0, ready_line="roundup READY",
                       ready_authorization=ROUNDUP_ADMIN),
    "unleash": AppSpec("unleash", _unleash_env, _home_start("unleash"), "/api/admin/projects", 120.0,
                       ready_line="unleash READY", ready_authorization=UNLEASH_ADMIN),
    "pouchdb-server": AppSpec("pouchdb-server", _pouchdb_server_env, _home_start("pouchdb-server"), "/_all_dbs",
                              60.0, ready_line="pouchdb-server READY"),
    "sails": AppSpec("sails", _sails_env, _home_start("sails"), "/tag/5", 60.0, ready_line="sails READY"),
    "octoprint": AppSpec("octoprint", _venv_env("octoprint", "octoprint", "1.11.8"), _home_start("octoprint"),
                         "/api/version", 120.0, ready_line="octoprint READY", ready_authorization=OCTOPRINT_KEY),
    "zenml": AppSpec("zenml", _venv_env("zenml", "zenml", "0.98.0"), _home_start("zenml"), "/health", 240.0,
                     ready_line="zenml READY"),
    "placement": AppSpec("placement", _venv_env("placement", "placement-manage", "16.0.0"), _home_start("placement"),
                         "/", 120.0, ready_line="placement READY"),
    "loopback-todo": AppSpec("loopback-todo", _loopback_todo_env, _home_start("loopback-todo"), "/todos/count",
                             120.0, ready_line="LOOPBACK-TODO READY"),
    "feathers": AppSpec("feathers", _feathers_env, _home_start("feathers"), "/notes/5", 60.0,
                        ready_line="feathers READY"),
    "express-gateway": AppSpec("express-gateway", _express_gateway_env, _home_start("express-gateway"),
                               "/users/alice", 60.0, ready_line="express-gateway READY"),
    "flexget": AppSpec("flexget", _venv_env("flexget", "flexget", "3.22.8"), _home_start("flexget"),
                       "/api/server/version/", 180.0, ready_line="flexget READY", ready_authorization=FLEXGET_TOKEN),
    "ironic": AppSpec("ironic", _venv_env("ironic", "ironic", "39.0.0"), _home_start("ironic"), "/v1/drivers",
                      180.0, ready_line="ironic READY"),
    "barbican": AppSpec("barbican", _venv_env("barbican", "barbican-manage", "23.0.0"), _home_start("barbican"),
                        "/healthcheck", 180.0, ready_line="barbican READY"),
    "glance": AppSpec("glance", _venv_env("glance", "glance-manage", "33.0.0"), _home_start("glance"),
                      "/healthcheck", 180.0, ready_line="glance READY"),
    "changedetection": AppSpec("changedetection", _venv_env("changedetection", "changedetection.py", "0.60.10"),
                               _home_start("changedetection"), "/api/v1/full-spec", 120.0,
                               ready_line="changedetection READY"),
    "devpi": AppSpec("devpi", _venv_env("devpi", "devpi-server", "6.20.3"), _home_start("devpi"), "/+api", 180.0,
                     ready_line="devpi READY"),
    "tiddlywiki": AppSpec("tiddlywiki", _tiddlywiki_env, _home_start("tiddlywiki"), "/status", 60.0,
                          ready_line="tiddlywiki READY"),
    "node-red": AppSpec("node-red", _node_red_env, _home_start("node-red"), "/settings", 60.0,
                        ready_line="node-red READY"),
    "json-server-v1": AppSpec("json-server-v1", _json_server_v1_env, _home_start("json-server-v1"), "/profile",
                              60.0, ready_line="json-server-v1 READY"),
    "icinga2": AppSpec("icinga2", _icinga2_env, _home_start("icinga2"), "/v1/status/IcingaApplication", 60.0,
                       ready_line="icinga2 READY", ready_authorization=ICINGA2_USER, scheme="https"),
    "n8n": AppSpec("n8n", _n8n_env, _home_start("n8n"), "/healthz", 240.0, ready_line="n8n READY"),
    "flowise": AppSpec("flowise", _flowise_env, _home_start("flowise"), "/api/v1/ping", 300.0,
                       ready_line="flowise READY"),
    "podman": AppSpec("podman", _podman_env, _home_start("podman"), "/v4.3.1/libpod/_ping", 120.0,
                      ready_line="podman READY"),
    "nocobase": AppSpec("nocobase", _nocobase_env, _home_start("nocobase"), "/api/app:getInfo", 300.0,
                        ready_line="nocobase READY"),
    "gnocchi": AppSpec("gnocchi", _venv_env("gnocchi", "gnocchi-upgrade", "4.7.1"), _home_start("gnocchi"), "/",
                       120.0, ready_line="gnocchi READY"),
    "alerta": AppSpec("alerta", _venv_env("alerta", "alertad", "9.1.0"), _home_start("alerta"), "/", 120.0,
                      ready_line="alerta READY"),
    "rt": AppSpec("rt", _rt_env, _home_start("rt"), "/REST/2.0/queues/all", 180.0, ready_line="rt READY",
                  ready_authorization=RT_ROOT_USER),
    "reviewboard": AppSpec("reviewboard", _venv_env("reviewboard", "rb-site", "7.0.6"), _home_start("reviewboard"),
                           "/api/info/", 180.0, ready_line="reviewboard READY"),
    "aodh": AppSpec("aodh", _venv_env("aodh", "aodh-api", "23.0.0"), _home_start("aodh"), "/", 120.0,
                    ready_line="aodh READY"),
    "ara": AppSpec("ara", _venv_env("ara", "ara-manage", "1.8.0"), _home_start("ara"), "/api/v1/", 120.0,
                   ready_line="ara READY"),
    "gns3": AppSpec("gns3", _venv_env("gns3", "gns3server", "2.2.61"), _home_start("gns3"), "/v2/version", 120.0,
                    ready_line="gns3 READY"),
    "doccano": AppSpec("doccano", _venv_env("doccano", "doccano", "1.8.5"), _home_start("doccano"), "/v1/me", 180.0,
                       ready_line="doccano READY", ready_authorization=DOCCANO_ADMIN),
    "phoenix": AppSpec("phoenix", _venv_env("phoenix", "phoenix", "20.26.1"), _home_start("phoenix"), "/healthz", 240.0,
                       ready_line="phoenix READY"),
    "nautobot": AppSpec("nautobot", _nautobot_env, _home_start("nautobot"), "/api/status/", 240.0,
                        ready_line="nautobot READY", ready_authorization=NAUTOBOT_TOKEN),
    "payload": AppSpec("payload", _payload_env, _home_start("payload"), "/api/users/me", 120.0,
                       ready_line="payload READY", ready_authorization=PAYLOAD_API_KEY),
    "medusa": AppSpec("medusa", _medusa_env, _home_start("medusa"), "/health", 600.0,
                      ready_line="medusa READY"),
    "kolibri": AppSpec("kolibri", _venv_env("kolibri", "kolibri", "0.19.5"), _home_start("kolibri"),
                       "/api/public/info/", 240.0, ready_line="kolibri READY"),
    "zou": AppSpec("zou", _venv_env("zou", "zou", "1.0.97"), _home_start("zou"), "/", 300.0,
                   ready_line="zou READY"),
    "privacyidea": AppSpec("privacyidea", _venv_env("privacyidea", "pi-manage", "3.14"), _home_start("privacyidea"),
                           "/healthz/", 120.0, ready_line="privacyidea READY"),
    "homeassistant": AppSpec("homeassistant", _venv_env("homeassistant", "hass", "2024.3.3"),
                             _home_start("homeassistant"), "/api/", 120.0, ready_line="homeassistant READY",
                             ready_authorization=HOMEASSISTANT_TOKEN),
    "mistral": AppSpec("mistral", _venv_env("mistral", "mistral-db-manage", "23.0.0"), _home_start("mistral"),
                       "/v2/workflows", 120.0, ready_line="mistral READY"),
    "pulp": AppSpec("pulp", _venv_env("pulp", "pulpcore-api", "3.123.1"), _home_start("pulp"),
                    "/pulp/api/v3/status/", 240.0, ready_line="pulp READY"),
    "chroma": AppSpec("chroma", _venv_env("chroma", "chroma", "1.5.9"), _home_start("chroma"),
                      "/api/v2/heartbeat", 120.0, ready_line="chroma READY"),
    "misago": AppSpec("misago", _venv_env("misago", "django-admin", "0.39.6"), _home_start("misago"),
                      "/api/auth/", 180.0, ready_line="misago READY"),
    "weblate": AppSpec("weblate", _venv_env("weblate", "django-admin", "5.14.3"), _home_start("weblate"),
                       "/api/", 300.0, ready_line="weblate READY"),
    "plone": AppSpec("plone", _venv_env("plone", "runwsgi", "6.2.2"), _home_start("plone"),
                     "/Plone", 180.0, ready_line="plone READY"),
    "ihatemoney": AppSpec("ihatemoney", _venv_env("ihatemoney", "gunicorn", "7.2.1"), _home_start("ihatemoney"),
                          "/api/currencies", 120.0, ready_line="ihatemoney READY"),
    "wger": AppSpec("wger", _venv_env("wger", "django-admin", "2.1"), _home_start("wger"),
                    "/api/v2/version/", 180.0, ready_line="wger READY"),
    "optuna-dashboard": AppSpec("optuna-dashboard", _venv_env("optuna-dashboard", "optuna-dashboard", "0.21.0"),
                                _home_start("optuna-dashboard"), "/api/meta", 120.0,
                                ready_line="optuna-dashboard READY"),
    "isso": AppSpec("isso", _venv_env("isso", "isso", "0.14.0"), _home_start("isso"), "/config", 60.0,
                    ready_line="isso READY"),
    "aim": AppSpec("aim", _venv_env("aim", "aim", "3.29.1"), _home_start("aim"),
                   "/api/projects/", 240.0, ready_line="aim READY"),
    "pygeoapi": AppSpec("pygeoapi", _venv_env("pygeoapi", "pygeoapi", "0.21.0"), _home_start("pygeoapi"),
                        "/collections", 120.0, ready_line="pygeoapi READY"),
    "verdaccio": AppSpec("verdaccio", _verdaccio_env, _home_start("verdaccio"), "/-/ping", 90.0,
                         ready_line="verdaccio READY"),
    "homebridge": AppSpec("homebridge", _homebridge_env, _home_start("homebridge"), "/api/auth/settings", 90.0,
                          ready_line="homebridge READY"),
    "signalk-server": AppSpec("signalk-server", _signalk_env, _home_start("signalk-server"),
                              "/signalk/v2/api/resources/waypoints", 90.0, ready_line="signalk-server READY"),
}.items()}
"""Start-up timeouts are generous for a 2-core machine busy with the suite: MLflow imports for
20-45 s, Label Studio migrates a new database for 60-90 s on its first start; NocoDB migrates its
SQLite meta store for 20-60 s on every start; Redmine boots Rails for ~10 s and seeds for ~5 s; RabbitMQ boots Erlang and imports its seed in ~10 s; OctoPrint loads its plugins for ~5 s and seeds for ~5 s; FlexGet loads its plugins for 15-25 s; devpi-server starts in 10-45 s and seeds in ~5 s (each write checks root's argon2 password hash); n8n migrates its new SQLite database for 20-80 s on every start; podman loads its image and seeds through its CLI in 3-10 s; NocoBase loads its plugins for 45-65 s on every start (and makes its template database for ~2.5 min on the first start of an install, which `.ci/live-apps.sh` does); Gnocchi makes a PostgreSQL cluster, its schema and its seed in ~15 s; Alerta makes a PostgreSQL cluster, its admin user, API key and seed in ~10 s; Review Board installs its site in ~6 s and seeds in ~10-30 s; Home Assistant loads its integrations in ~2-5 s and seeds in ~1 s; Mistral makes its SQLite schema and standard actions in ~5-15 s and seeds in ~1 s; ARA migrates its new SQLite database in ~10-20 s and seeds in ~5 s; the GNS3 server starts in ~3 s and its local compute connects ~5 s later, before the seed; doccano migrates its new SQLite database in ~15-30 s and seeds in ~5 s; Arize Phoenix imports for ~30 s, migrates its new SQLite database in ~2 s and seeds in ~5 s (spans wait for its insertion queue); Nautobot unpacks its template PostgreSQL cluster and starts Django's server in 30-40 s (its first start of an install migrates for ~14 min, which `.ci/live-apps.sh` does); Payload makes a PostgreSQL cluster, pushes its schema and seeds in ~15 s; Kolibri provisions a new home (migrations) in ~20-40 s and seeds in ~10 s; Zou makes a PostgreSQL cluster, migrates, fills and seeds it in one process in 40-60 s (up to 2 min under load); Pulp makes a PostgreSQL cluster, migrates it in ~20 s, seeds in ~5 s and waits for its task worker, 35-45 s in all; Chroma seeds through its API, is stopped, has its seeded collections' ids fixed in its store and starts again in ~4-10 s; Misago makes a PostgreSQL cluster, migrates it in ~5-10 s and seeds in ~3 s; Weblate makes a PostgreSQL cluster, migrates it in ~40-60 s (up to 2 min under load) and seeds through its API in ~10 s; Plone makes its Zope instance and site and seeds it in one process in ~20-40 s; I Hate Money makes its SQLite schema by its own migrations in ~2-5 s and seeds through its API in ~1 s; wger migrates a new SQLite file, loads its catalogues and seeds in one process in ~35 s; optuna-dashboard is seeded through Optuna's API in ~3-5 s and starts in ~5-10 s; Flowise loads its component nodes for ~30-90 s and seeds in ~5 s; Aim seeds runs by its SDK, starts, seeds notes, apps and dashboards through its API, stops, has their ids fixed and starts again in ~20-45 s (up to 90 s under load); pygeoapi writes its OpenAPI document in ~5 s, starts and seeds through its API in ~2 s; Verdaccio starts in ~3-5 s and seeds through its API in ~2-4 s (each login checks a bcrypt hash); Isso starts in ~1-2 s and seeds through its API in ~1 s; Homebridge Config UI X starts in ~3-5 s and seeds its users through its API in ~1 s; Signal K server loads its plugins in ~3-8 s and seeds through its API in ~1 s."""


def start_app(name: str, scratch: Path) -> LiveApp:
    """Start ``name`` fresh and seeded; returns once it answers. ``NotInstalled`` or ``StartFailed``."""
    spec = APPS[name]
    env = {**os.environ, **spec.installed()}
    if spec.capture and not (CAPTURES / spec.capture / "start.sh").exists():
        raise NoCapture(f"captures/{spec.capture}/start.sh is not in this checkout")
    env.pop("CI", None)  # never let our own CI flag change how an application behaves
    for attempt in range(START_ATTEMPTS):
        try:
            return _start_on_a_free_port(spec, scratch / f"attempt-{attempt + 1}" if attempt else scratch, env)
        except StartExited:
            if attempt == START_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


START_ATTEMPTS = 2
"""How many times an application whose start.sh exits before it is ready is started, each time on a
newly drawn port: a port another process took between the draw and the start fails it at once."""


def _start_on_a_free_port(spec: AppSpec, scratch: Path, env: dict[str, str]) -> LiveApp:
    name = spec.name
    port = free_port()
    scratch.mkdir(parents=True, exist_ok=True)
    argv, pid_file = spec.start(port, scratch, env)
    log = scratch / f"{name}.log"
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=env, cwd=scratch, start_new_session=True)
    app = LiveApp(name, f"{spec.scheme}://127.0.0.1:{port}", port, 0.0, process, log)
    try:
        _wait_ready(spec, app, pid_file, started)
    except BaseException:
        app.stop()
        raise
    app.startup_seconds = time.monotonic() - started
    return app


def _wait_ready(spec: AppSpec, app: LiveApp, pid_file: Path | None, started: float) -> None:
    deadline = started + spec.timeout_seconds
    while time.monotonic() < deadline:
        exited = app.process.poll()
        if spec.runs_in_background and exited is not None:
            if pid_file is not None and pid_file.exists():
                app.extra_pids.append(int(pid_file.read_text().strip()))
            if exited == 0 and _answers(app.url + spec.ready_path, spec.ready_authorization):
                return
            raise StartExited(f"{spec.name}: start.sh exited with {exited}\n{_tail(app.log)}")
        if exited is not None:
            raise StartExited(f"{spec.name}: start.sh exited with {exited}\n{_tail(app.log)}")
        if not spec.runs_in_background and _seeded(spec, app) \
                and _answers(app.url + spec.ready_path, spec.ready_authorization):
            return
        time.sleep(0.05)
    raise StartFailed(f"{spec.name}: not ready after {spec.timeout_seconds:.0f}s\n{_tail(app.log)}")


def _seeded(spec: AppSpec, app: LiveApp) -> bool:
    return spec.ready_line is None or spec.ready_line in app.log.read_text(errors="replace")


def _answers(url: str, authorization: str | None = None) -> bool:
    # loopback: never via a proxy; an https application's certificate is its own, not checked
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                         urllib.request.HTTPSHandler(context=_unverified_tls()))
    request = urllib.request.Request(url, headers={"Authorization": authorization} if authorization else {})
    try:
        with opener.open(request, timeout=2) as response:
            return 200 <= response.status < 300
    except (urllib.error.URLError, OSError):
        return False


def _unverified_tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _tail(log: Path, lines: int = 30) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _kill_group(process: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)  # start_new_session: the group id is start.sh's pid
    except ProcessLookupError:
        pass


def _kill_pid(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    _kill_pid(pid, signal.SIGKILL)
