"""The Keystone public WSGI application for gunicorn.

keystone.wsgi.api parses sys.argv with oslo.config when imported; under gunicorn that is gunicorn's
own command line, which oslo.config refuses. The configuration comes from OS_KEYSTONE_CONFIG_FILES.
"""
import sys

sys.argv = sys.argv[:1]

from keystone.wsgi.api import application  # noqa: E402,F401
