"""The request deadline times the client, never a request's wait for its turn: a body past
uvicorn's 64 KiB read buffer is not read while its instance's app waits for the runtime worker,
and that wait once counted against the client (the connection was closed under it, the client
read a reset)."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from support.fleets import serving_fleet

from capenv.serving.transport import http_app

DEADLINE = 1.0
WAIT = 3 * DEADLINE
"""How long the worker keeps the request waiting before its app reads the body."""
PADDING = 256 * 1024
"""Whitespace after the document: the body outgrows uvicorn's read buffer (64 KiB)."""


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_a_large_body_waiting_for_the_runtime_is_read_not_cut_by_the_request_deadline(
        template, store_url, monkeypatch) -> None:
    budgets = template.budgets().model_copy(update={"request_deadline_seconds": DEADLINE})
    monkeypatch.setattr(template, "budgets", lambda: budgets)  # the listener's: the template's bundle's
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        instance = grader.post("/_capenv/instances").json()["id"]
        data = f"/_capenv/instances/{instance}/data"
        document = grader.get(f"{data}/get").content
        runtime_of = fleet.runtime

        def busy_worker(instance_id: str):  # the worker runs other calls first
            time.sleep(WAIT)
            return runtime_of(instance_id)

        monkeypatch.setattr(fleet, "runtime", busy_worker)
        added = grader.post(f"{data}/add", content=document + b" " * PADDING,
                            headers={"content-type": "application/json"})
        assert added.status_code == 200, added.text
        monkeypatch.undo()
        assert grader.get(f"{data}/get").content == document


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_a_client_gone_before_its_mcp_request_was_read_is_one_quiet_line_not_a_traceback(
        template, store_url, monkeypatch) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        instance = grader.post("/_capenv/instances").json()
        records = _Records()
        watched = [logging.getLogger("uvicorn.error"), logging.getLogger(http_app.__name__)]
        for log in watched:  # after the server's start: uvicorn configures its loggers then
            monkeypatch.setattr(log, "level", logging.DEBUG)
            log.addHandler(records)
        try:
            runtime_of = fleet.runtime
            monkeypatch.setattr(fleet, "runtime", lambda instance_id: time.sleep(WAIT) or runtime_of(instance_id))
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).encode()
            with socket.create_connection(("127.0.0.1", serving.port)) as sock:
                sock.sendall(b"POST " + instance["mcp_path"].encode() + b" HTTP/1.1\r\n"
                             b"Host: 127.0.0.1:" + str(serving.port).encode() + b"\r\n"
                             b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                             b"MCP-Protocol-Version: " + MODERN_PROTOCOL_VERSIONS[-1].encode() + b"\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            # gone while the request waits its turn: the app reads a disconnect, not the body
            give_up = time.monotonic() + WAIT + 30
            while not records.records and time.monotonic() < give_up:
                time.sleep(0.1)
        finally:
            for log in watched:
                log.removeHandler(records)
        said = [(r.levelno, r.getMessage()) for r in records.records]
        assert said == [(logging.DEBUG, f"POST {instance['mcp_path'][len('/i/') + len(instance['id']):]}: "
                                         "the client closed the connection before its request was read")], said
