"""pretalx's settings for capenv's captures (start.sh puts this folder on PYTHONPATH and names this
module DJANGO_SETTINGS_MODULE). Two deployment choices, nothing else changes:
- no Redis: pretalx 2026.2.1 always configures a Redis cache, so the cache here is per process
  memory (one gunicorn worker) and sessions live in the database;
- one public host: as behind a reverse proxy naming the site's host, every request is taken as
  sent to 127.0.0.1:8000 (the configured url), so the absolute links pretalx builds from the
  request (a page's next and previous) name that, whatever port the server listens on."""
from pretalx.settings import *  # noqa: F401,F403
from pretalx.settings import MIDDLEWARE

PUBLIC_HOST = "127.0.0.1:8000"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.db"


class PublicHost:
    """Answer every request as sent to PUBLIC_HOST (the site's url)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META["HTTP_HOST"] = PUBLIC_HOST
        return self.get_response(request)


MIDDLEWARE = ["capenv_settings.PublicHost", *MIDDLEWARE]
