"""A fleet's one listener bounds its open connections by the template's budget
``listener_connections`` (serving/transport/http_deadline), and a connection upgraded to OpenEnv's
WebSocket keeps its place until it closes: not given back at the upgrade (the WebSocket would then
be unbounded), nor kept once it closed (its place would be lost for good). The request deadline
times the upgrade request only: before, it went on timing the WebSocket, which was cut
``request_deadline_seconds`` (10 s) after it opened, mid-episode."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from support.fleets import TOKEN, serving_fleet
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from capenv.serving.runtime import EnvironmentRuntime

pytestmark = pytest.mark.parametrize("store_url", ["memory"], indirect=True)
PLACES = 2
DEADLINE = 0.5


def template_with(json_server, **budgets) -> EnvironmentRuntime:
    view = json_server.view.model_copy(update={"budgets": json_server.view.budgets.model_copy(update=budgets)})
    return EnvironmentRuntime(json_server.model_copy(update={"view": view}))


def request(sock: socket.socket, port: int) -> int:
    """The status of a GET of the fleet's instance list on ``sock`` (kept alive)."""
    sock.sendall(f"GET /_capenv/instances HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Authorization: Bearer {TOKEN}\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1])


def test_a_websocket_holds_its_place_until_it_closes(json_server, store_url) -> None:
    with serving_fleet(template_with(json_server, listener_connections=PLACES), store_url) as (_, serving, grader):
        grader.close()  # its pooled connection would take a place
        port = serving.port
        url = serving.base_url.replace("http://", "ws://") + "/_capenv/openenv/ws"

        async def scenario() -> None:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as plain:
                assert request(plain, port) == 200
                async with connect(url, additional_headers={"authorization": f"Bearer {TOKEN}"}) as ws:
                    await ws.send(json.dumps({"type": "state"}))
                    await ws.recv()  # the upgrade is done: the WebSocket holds the second place
                    with socket.create_connection(("127.0.0.1", port), timeout=10) as third:
                        assert await asyncio.to_thread(request, third, port) == 503
                    with pytest.raises(InvalidStatus) as refused:  # a WebSocket past the budget too
                        async with connect(url, additional_headers={"authorization": f"Bearer {TOKEN}"}):
                            pass
                    assert refused.value.response.status_code == 503
                    assert b"listener_connections" in refused.value.response.body
                for _ in range(200):  # until the server has seen the WebSocket close (bounded, no timing)
                    with socket.create_connection(("127.0.0.1", port), timeout=10) as again:
                        status = await asyncio.to_thread(request, again, port)
                    if status == 200:
                        break
                    assert status == 503
                assert status == 200

        asyncio.run(scenario())


def test_a_websocket_outlives_the_request_deadline(json_server, store_url) -> None:
    with serving_fleet(template_with(json_server, request_deadline_seconds=DEADLINE), store_url) as (_, serving, _g):
        url = serving.base_url.replace("http://", "ws://") + "/_capenv/openenv/ws"

        async def scenario() -> None:
            async with connect(url, additional_headers={"authorization": f"Bearer {TOKEN}"}) as ws:
                await ws.send(json.dumps({"type": "state"}))
                await ws.recv()
                await asyncio.sleep(3 * DEADLINE)  # a pause in an episode, past the deadline
                await ws.send(json.dumps({"type": "state"}))
                assert json.loads(await ws.recv())["type"] == "error"  # answered (no episode yet), not cut

        asyncio.run(scenario())
