"""doccano's WSGI application for gunicorn, with every request's Host fixed.

Django REST Framework writes the absolute `next` and `previous` URLs of a page from the request's
Host; start.sh's gunicorn serves this module so that they name ``http://127.0.0.1/`` whatever port
the server or a proxy in front of it listens on, so a recording and a later start agree.
start.sh sets DATABASE_URL, MEDIA_ROOT and SECRET_KEY for the fresh instance and puts doccano's
``backend`` package directory on the path (its modules import each other as top-level packages).
"""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

from config.wsgi import application as doccano_application  # noqa: E402

HOST = "127.0.0.1"


def application(environ, start_response):
    environ["HTTP_HOST"] = HOST
    environ["SERVER_PORT"] = "80"
    environ.pop("HTTP_X_FORWARDED_HOST", None)
    return doccano_application(environ, start_response)
