"""The recorded wger site: wger's settings.tpl filled in for a private SQLite file under WGER_HOME.

Nothing leaves loopback: no exercise sync, no image or video download (none runs unless a command
asks), mails to the console, registration and guest users off, no reCAPTCHA.
"""
import os

from wger.settings_global import *  # noqa: F401,F403  (wger's own defaults, as settings.tpl does)

HOME = os.environ["WGER_HOME"]
DEBUG = False
ADMINS = ()
MANAGERS = ADMINS
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(HOME, "database.sqlite")},
}
TIME_ZONE = "UTC"
SECRET_KEY = "capenv-wger-throwaway-secret-key-not-for-production-0001"
RECAPTCHA_PUBLIC_KEY = ""
RECAPTCHA_PRIVATE_KEY = ""
NOCAPTCHA = True
SITE_URL = "http://localhost:8000"
MEDIA_ROOT = os.path.join(HOME, "media")
MEDIA_URL = "/media/"
ALLOWED_HOSTS = "*"
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
WGER_SETTINGS["EMAIL_FROM"] = "wger Workout Manager <wger@example.com>"  # noqa: F405
WGER_SETTINGS["ALLOW_REGISTRATION"] = False  # noqa: F405
WGER_SETTINGS["ALLOW_GUEST_USERS"] = False  # noqa: F405
DEFAULT_FROM_EMAIL = WGER_SETTINGS["EMAIL_FROM"]  # noqa: F405
EMAIL_PAGE_DOMAIN = SITE_URL
