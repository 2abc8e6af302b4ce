"""Nautobot configuration for captures/nautobot/start.sh: loopback only, fixed throwaway secrets.

start.sh points NAUTOBOT_CONFIG here and sets CAPENV_PG_PORT (its private PostgreSQL cluster) and
NAUTOBOT_ROOT (the home directory: media, static files, job files).
"""
import os
import random
import sys
import uuid

from nautobot.core.settings import *  # noqa: F401,F403  (Nautobot's defaults, overridden below)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # capenv_cache, capenv_host beside it

ALLOWED_HOSTS = ["*"]
MIDDLEWARE = ["capenv_host.FixedHostMiddleware", *MIDDLEWARE]  # noqa: F405  (absolute URLs name no port)
DEBUG = False
SECRET_KEY = "capenv-nautobot-throwaway-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "nautobot",
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": os.environ["CAPENV_PG_PORT"],
        # A new connection per request: the first start restarts the cluster to pack its template.
        "CONN_MAX_AGE": 0,
    }
}
# No Redis: one process serves every request, so an in-process cache answers as Redis would
# (capenv_cache.py adds the django-redis methods Nautobot calls); nothing is queued (no jobs, no
# webhooks in the scenario), so Celery never reaches its broker.
CACHES = {"default": {"BACKEND": "capenv_cache.PatternLocMemCache"}}
CONSTANCE_DATABASE_CACHE_BACKEND = None  # constance refuses a per-process cache; it reads the database
CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = True
# Django's default PBKDF2 would cost seconds per login on a busy 2-core machine (the API uses a
# token, the superuser's password is checked only when made): a cheap hasher, for speed only.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Nothing reaches an external network: no version check, no installation metrics.
INSTALLATION_METRICS_ENABLED = False
RELEASE_CHECK_URL = None
METRICS_ENABLED = False

# A fresh install must hold the same objects under the same ids every time (the capture, the live
# tests and every probe name them): migrations (built-in statuses, the Global namespace) and the
# seed make their UUIDs from a fixed pseudo-random sequence when start.sh names one. The server
# that answers the recording and the probes runs without it: uuid4 as Nautobot has it.
if os.environ.get("CAPENV_UUID_SEED"):
    _fixed = random.Random(os.environ["CAPENV_UUID_SEED"])
    uuid.uuid4 = lambda: uuid.UUID(int=_fixed.getrandbits(128), version=4)
