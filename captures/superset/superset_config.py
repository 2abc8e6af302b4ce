"""Superset configuration for the capture (SUPERSET_CONFIG_PATH points here; start.sh sets SUPERSET_HOME).

Everything a fresh, offline, single-process Superset needs and nothing more: its metadata in SQLite
under SUPERSET_HOME, a throwaway secret key (it signs the driver's fixed JWT, so it must not change),
no CSRF check on the REST API (the driver sends a bearer token and no session cookie), access
tokens that never expire, no rate limit on the login endpoint, no Talisman headers, and none of the
features that reach the network (thumbnails, alerts and reports, async queries: all off by default).
"""
import os

SECRET_KEY = "capenv-superset-throwaway-secret-key-not-a-secret"
SQLALCHEMY_DATABASE_URI = "sqlite:///" + os.path.join(os.environ["SUPERSET_HOME"], "superset.db")
WTF_CSRF_ENABLED = False
JWT_ACCESS_TOKEN_EXPIRES = False
RATELIMIT_ENABLED = False
AUTH_RATE_LIMITED = False
TALISMAN_ENABLED = False
SUPERSET_WEBSERVER_TIMEOUT = 60
