"""Weblate 5.14.3's settings for captures/weblate: Weblate's own settings_example with what a
private, loopback-only instance needs instead of its production services.

PostgreSQL is start.sh's private cluster (WEBLATE_PG_PORT); the cache is in-process (no Redis: one
runserver process), Celery tasks run eagerly in the request (no broker, no worker), mails are
dropped, nothing is fetched from the network (components are local repositories made from uploaded
files). DATA_DIR is the start's HOME_DIR (WEBLATE_HOME). Throttling is lifted: the recording and the
probes call far more than an anonymous 100/day.
"""
import os

from weblate.api.spectacular import get_drf_settings
from weblate.settings_example import *  # noqa: F403

DEBUG = False
SITE_DOMAIN = "127.0.0.1"
SITE_URL = "http://127.0.0.1"
SECRET_KEY = "capenv-weblate-throwaway-secret-key-not-for-production-0123456789"
ADMINS = ()
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "weblate",
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": os.environ.get("WEBLATE_PG_PORT", "5432"),
        "CONN_MAX_AGE": None,
    }
}
DATA_DIR = os.environ.get("WEBLATE_HOME", "/tmp/weblate-data")
CACHE_DIR = f"{DATA_DIR}/cache"
MEDIA_ROOT = os.path.join(DATA_DIR, "media")
STATIC_ROOT = os.path.join(CACHE_DIR, "static")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "weblate"},
    "avatar": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "avatar"},
}
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_EAGER_PROPAGATES = True
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
ENABLE_AVATARS = False
ENABLE_HOOKS = False
ENABLE_SHARING = False
AUTO_UPDATE = False
REGISTRATION_OPEN = False
REST_FRAMEWORK = get_drf_settings(
    require_login=False, anon_throttle="1000000/day", user_throttle="1000000/hour"
)
LOGGING["loggers"]["weblate"]["level"] = "WARNING"  # noqa: F405
# Passkeys need a domain and HTTPS: not offered here (the API is used with tokens).
OTP_WEBAUTHN_RP_ID = "localhost"
OTP_WEBAUTHN_ALLOWED_ORIGINS = ["https://localhost"]
# Git only (a component's local repository); the machine translation services that need no network.
VCS_BACKENDS = ("weblate.vcs.git.GitRepository", "weblate.vcs.git.LocalRepository")
WEBLATE_MACHINERY = ("weblate.memory.machine.WeblateMemory", "weblate.machinery.weblatetm.WeblateTranslation")
