#!/usr/bin/env python3
"""Serve Mistral's v2 API (its pecan WSGI application) in one process, one request at a time.

Usage: serve.py CONFIG_FILE PORT  (run by start.sh with the venv's python)

mistral-server forks an oslo.service process tree (a master and its workers) that a SIGTERM does not
stop at once; this builds the same application (mistral.api.app.setup_app, as mistral-server's api
service and the WSGI entry point do) and serves it on 127.0.0.1:PORT with the standard library's
wsgiref server: one process that stops on SIGTERM, one request at a time.
With `--init` it makes the schema instead (mistral.db.v2.api.setup_db: the models' create_all, which
SQLite takes where `mistral-db-manage upgrade head` does not) and exits.
"""
import signal
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

from mistral import config
from oslo_config import cfg
from oslo_log import log as logging


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):  # the API's own log (oslo.log) says what it did
        pass


def main():
    init = sys.argv[1:2] == ["--init"]
    args = sys.argv[2:] if init else sys.argv[1:]
    config.parse_args(args=["--config-file", args[0]])
    logging.setup(cfg.CONF, "mistral")
    if init:
        from mistral.db.v2 import api as db_api
        db_api.setup_db()
        return
    from mistral.api import app as api_app
    application = api_app.setup_app()
    server = make_server("127.0.0.1", int(args[1]), application, handler_class=QuietHandler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.serve_forever()


if __name__ == "__main__":
    main()
