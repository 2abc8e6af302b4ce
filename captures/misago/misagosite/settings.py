"""Settings of the throwaway Misago 0.39.6 site start.sh runs (after Misago's own dev project).

Env: MISAGO_HOME (media, user data; required), MISAGO_PG_PORT (the private PostgreSQL cluster's port).
No Redis, no mail server: Celery tasks run in the request (eager), mails are dropped.
DEBUG is off (no debug toolbar); the API answers JSON only.
"""
import os

from misago.settings import *  # noqa: F401,F403  (INSTALLED_APPS, TEMPLATE_CONTEXT_PROCESSORS)
from misago.settings import INSTALLED_APPS, TEMPLATE_CONTEXT_PROCESSORS

HOME = os.environ["MISAGO_HOME"]
SECRET_KEY = "capenv-misago-throwaway-secret-key-0000000000000000"
DEBUG = False
ALLOWED_HOSTS = ["*"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "misago",
        "USER": "postgres",
        "HOST": "127.0.0.1",
        "PORT": os.environ.get("MISAGO_PG_PORT", "5432"),
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 7}},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
MEDIA_URL = "/media/"
STATIC_ROOT = os.path.join(HOME, "static")
MEDIA_ROOT = os.path.join(HOME, "media")
EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
DEFAULT_FROM_EMAIL = "Misago <misago@example.com>"

AUTH_USER_MODEL = "misago_users.User"
AUTHENTICATION_BACKENDS = ["misago.users.authbackends.MisagoBackend"]
CSRF_FAILURE_VIEW = "misago.core.errorpages.csrf_failure"
INSTALLED_APPS = [app for app in INSTALLED_APPS if app != "debug_toolbar"]
INTERNAL_IPS = []
LOGIN_REDIRECT_URL = "misago:index"
LOGIN_URL = "misago:login"
LOGOUT_URL = "misago:logout"
MIDDLEWARE = [
    "misago.users.middleware.RealIPMiddleware",
    "misago.core.middleware.FrontendContextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "misago.cache.middleware.cache_versions_middleware",
    "misago.conf.middleware.dynamic_settings_middleware",
    "misago.socialauth.middleware.socialauth_providers_middleware",
    "misago.users.middleware.UserMiddleware",
    "misago.acl.middleware.user_acl_middleware",
    "misago.core.middleware.ExceptionHandlerMiddleware",
    "misago.users.middleware.OnlineTrackerMiddleware",
    "misago.admin.middleware.AdminAuthMiddleware",
    "misago.threads.middleware.UnreadThreadsCountMiddleware",
]
ROOT_URLCONF = "misagosite.urls"
SOCIAL_AUTH_STRATEGY = "misago.socialauth.strategy.MisagoStrategy"
SOCIAL_AUTH_JSONFIELD_ENABLED = True
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": TEMPLATE_CONTEXT_PROCESSORS},
}]
REST_FRAMEWORK = {
    "DEFAULT_PERMISSION_CLASSES": ["misago.core.rest_permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "misago.core.exceptionhandler.handle_api_exception",
    "UNAUTHENTICATED_USER": "misago.users.models.AnonymousUser",
    "URL_FORMAT_OVERRIDE": None,
}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
MISAGO_AVATARS_SIZES = [400, 200, 100]
MISAGO_SEARCH_CONFIG = "simple"
MISAGO_USER_DATA_DOWNLOADS_WORKING_DIR = os.path.join(HOME, "userdata")
MISAGO_AVATAR_GALLERY = os.path.join(HOME, "avatargallery")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}
