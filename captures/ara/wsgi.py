"""ARA's WSGI application for gunicorn, with every request's Host fixed.

Django REST Framework writes the absolute `next` and `previous` URLs of a page from the request's
Host; start.sh's gunicorn serves this module so that they name ``http://127.0.0.1/`` whatever port
the server or a proxy in front of it listens on, so a recording and a later start agree.
ARA_SETTINGS (start.sh) names the settings file of the fresh instance.
"""
from ara.server.wsgi import application as ara_application

HOST = "127.0.0.1"


def application(environ, start_response):
    environ["HTTP_HOST"] = HOST
    environ["SERVER_PORT"] = "80"
    environ.pop("HTTP_X_FORWARDED_HOST", None)
    return ara_application(environ, start_response)
