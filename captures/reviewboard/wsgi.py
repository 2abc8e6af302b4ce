"""Review Board's WSGI application for gunicorn, with every request's Host fixed.

Review Board writes absolute URLs (every ``links`` href, ``absolute_url``) from the request's Host;
start.sh's gunicorn serves this module so that they name ``http://127.0.0.1/`` (the site's
domain, no port) whatever port the server or a proxy in front of it listens on, so a recording and a
later start agree. REVIEWBOARD_SITEDIR names the site start.sh installed.
"""
from reviewboard.wsgi import application as reviewboard_application

HOST = "127.0.0.1"


def application(environ, start_response):
    environ["HTTP_HOST"] = HOST
    environ["SERVER_PORT"] = "80"
    environ.pop("HTTP_X_FORWARDED_HOST", None)
    return reviewboard_application(environ, start_response)
