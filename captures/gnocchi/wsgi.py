"""The Gnocchi API as a WSGI application for gunicorn.

gnocchi.rest.wsgi parses sys.argv with oslo.config when imported; under gunicorn that is gunicorn's
own command line, which oslo.config refuses. The configuration file comes from GNOCCHI_CONFIG_FILE
(start.sh writes it), passed as gnocchi's own `--config-file` argument.
"""
import os
import sys

sys.argv = [sys.argv[0], "--config-file", os.environ["GNOCCHI_CONFIG_FILE"]]

from gnocchi.rest.wsgi import application  # noqa: E402,F401
