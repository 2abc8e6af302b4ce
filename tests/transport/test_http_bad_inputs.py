"""Inputs that once broke the HTTP surface and the data plane (each answered 500, or answered a
truth the state does not hold), now refused with a status and a message, the state unchanged:
numbers past what the codec reads, a lone surrogate under a reused idempotency key, sequences
at 2^64, and an idempotency key retried after data/reset or data/add."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from support.capture_runs import build_from, items_app
from support.http_thread import http_in_thread

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.http_app import Access

TOKEN = "grader"
C = {"id": 3, "title": "c"}


@pytest.fixture(scope="module")
def bundle():
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response=C)
    builder.call("GET", "/items/3", response=C)
    built = build_from(builder)
    assert any(p.served and p.tool == "post_items" for p in built.view.writes), built.report
    return built


@pytest.fixture
def server(bundle):
    with http_in_thread(EnvironmentRuntime(bundle), access=Access(data_token=TOKEN)) as serving:
        yield serving


def call(server, method: str, path: str, body: bytes | None = None, **headers: str) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    sent = {"content-type": "application/json", "authorization": f"Bearer {TOKEN}",
            **{k.replace("_", "-"): v for k, v in headers.items()}}
    conn.request(method, path, body=body, headers=sent)
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, json.loads(data) if data else None


def state(server) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/_capenv/data/get", headers={"authorization": f"Bearer {TOKEN}"})
    return conn.getresponse().read()


BIG_INTEGER = b"1" + b"0" * 5000
HUGE_EXPONENT = b"1e99999999999999999999"


@pytest.mark.parametrize("number", [BIG_INTEGER, b"-" + BIG_INTEGER, HUGE_EXPONENT, b"1.5e-99999999999999999999"])
def test_numbers_past_what_the_codec_reads_are_refused_on_every_path(server, number: bytes) -> None:
    before = state(server)
    status, body = call(server, "POST", "/items", b'{"title": ' + number + b"}")
    assert status == 400 and ("past" in body["message"] or "out of range" in body["message"]), body
    status, body = call(server, "POST", "/_capenv/data/add", b'{"collections": [], "documents": [], "x": '
                        + number + b"}")
    assert status == 400 and body["error"] == "invalid", body
    assert state(server) == before


def test_a_lone_surrogate_under_a_used_idempotency_key_is_refused(server) -> None:
    status, created = call(server, "POST", "/items", b'{"title": "a"}', idempotency_key="k1")
    assert status == 201
    before = state(server)
    status, body = call(server, "POST", "/items", b'{"title": "\\ud800"}', idempotency_key="k1")
    assert status == 400 and "surrogate" in body["message"], body
    assert state(server) == before
    assert call(server, "POST", "/items", b'{"title": "a"}', idempotency_key="k1") == (201, created)


def test_a_key_belongs_to_the_state_it_was_used_on(server) -> None:
    """After data/reset or data/add the key is forgotten: its retry is a new request, answered from
    the state now held, never the replay of an entity the state no longer holds."""
    status, created = call(server, "POST", "/items", b'{"title": "a"}', idempotency_key="k2")
    assert status == 201 and call(server, "POST", "/items", b'{"title": "a"}', idempotency_key="k2") == (201, created)
    assert call(server, "POST", "/_capenv/data/reset", b"{}")[0] == 200
    status, again = call(server, "POST", "/items", b'{"title": "a"}', idempotency_key="k2")
    assert status == 201 and call(server, "GET", f"/items/{again['id']}") == (200, again)
    held = state(server)
    assert call(server, "POST", "/items", b'{"title": "b"}', idempotency_key="k3")[0] == 201
    assert call(server, "POST", "/_capenv/data/add", held)[0] == 200
    status, third = call(server, "POST", "/items", b'{"title": "b"}', idempotency_key="k3")
    assert status == 201 and call(server, "GET", f"/items/{third['id']}") == (200, third)
    assert json.loads(state(server))["collections"][0]["entities"][-1]["value"] == third


def with_item(document: bytes, item_id: int) -> bytes:
    value = json.loads(document)
    value["collections"][0]["entities"].append({"id": item_id, "value": {"id": item_id, "title": "big"}})
    return json.dumps(value).encode()


def test_sequences_at_two_to_the_64_are_refused_with_a_message(server) -> None:
    initial = state(server)
    assert call(server, "POST", "/_capenv/data/add", with_item(initial, 2**64 - 2))[0] == 200
    status, created = call(server, "POST", "/items", b'{"title": "last"}')
    assert status == 201 and created["id"] == 2**64 - 1
    before = state(server)
    status, body = call(server, "POST", "/items", b'{"title": "past"}')
    assert status == 400 and "18446744073709551615" in body["message"], body
    assert state(server) == before
    assert call(server, "POST", "/_capenv/data/add", with_item(initial, 2**64))[0] == 200
    status, body = call(server, "POST", "/items", b'{"title": "past"}')
    assert status == 400 and "sequence" in body["message"], body
    assert call(server, "POST", "/_capenv/data/reset", b"{}")[0] == 200
    assert call(server, "POST", "/items", b'{"title": "again"}')[0] == 201
