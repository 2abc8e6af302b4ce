"""A property-based fuzz over the served surfaces as a client reaches them (issue 11, Acceptance):
raw HTTP requests to the application's paths and the data plane, and raw MCP ``tools/call``
messages over streamable HTTP, across every served tool of every capture in captures/. The
generated JSON is written as text, so it holds what no client library would send: integers of any
length, exponents of any size, lone surrogates, huge strings, deep nesting; and idempotency keys
are reused across calls and across data/reset.

Whatever comes in: never a 500, never an MCP internal error, always an answer; every refusal
(a 4xx, a tool error, a JSON-RPC error) leaves data/get byte-identical. CI runs a few examples
per capture; ``pytest --slow`` runs at least 10,000 calls in all.
"""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.http_thread import http_in_thread
from support.served import capture_names

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.http_app import Access
from capenv.serving.transport.mcp_server import INTERNAL_ERROR_MESSAGE

TOKEN = "fuzz-grader"
CI_CALLS_PER_CAPTURE = 40
SLOW_CALLS = 10_000
TIMEOUT_SECONDS = 60

# --- raw JSON text -------------------------------------------------------------------------------

DIGITS = st.integers(1, 6000).map(lambda n: "9" * n)
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    DIGITS, DIGITS.map(lambda d: "-" + d),
    st.tuples(st.integers(-99, 99), st.integers(-(10**25), 10**25)).map(lambda p: f"{p[0]}e{p[1]}"),
    st.tuples(DIGITS, st.integers(0, 400)).map(lambda p: f"0.{p[0][:p[1] + 1]}"),
    st.sampled_from(["1e99999999999999999999", "-0.0", "1E400", "1e-400", "0.1", "1.0", "18446744073709551616"]),
)
SURROGATES = st.sampled_from(['"\\ud800"', '"a\\udfffb"', '"\\udc00\\ud800"', '"ok\\ud83d"'])
HUGE = st.integers(10_000, 400_000).map(lambda n: '"' + "x" * n + '"')
DEEP = st.sampled_from([60, 1_000, 100_000]).map(lambda n: "[" * n + "1" + "]" * n)
PLAIN = st.recursive(st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=10),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=6).map(json.dumps)
ODD = st.one_of(NUMBERS, SURROGATES, HUGE, DEEP, PLAIN)


def obj(members: dict[str, str]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in members.items()) + "}"


def good(schema: dict[str, Any], draw) -> str:
    """JSON text of a value of the member's declared type (its const when it has one)."""
    if "const" in schema:
        return json.dumps(schema["const"])
    kind = schema.get("type")
    if kind == "object" and schema.get("properties"):
        return body_text(schema, draw)
    return json.dumps(draw({"string": st.text(max_size=20), "integer": st.integers(-5, 5000), "number": st.integers(0, 9),
                            "boolean": st.booleans(), "array": st.lists(st.text(max_size=4), max_size=2),
                            "object": st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
                            "null": st.none()}.get(kind, st.none())))


def body_text(schema: dict[str, Any], draw) -> str:
    """An object the schema takes, but for members drawn odd (any size, exponent, surrogate, depth)."""
    properties, required = schema.get("properties", {}), set(schema.get("required", ()))
    members = {}
    for name, member in properties.items():
        if name in required or draw(st.booleans()):
            members[name] = draw(ODD) if draw(st.integers(0, 3)) == 0 else good(member, draw)
    if draw(st.integers(0, 6)) == 0:
        members[draw(st.sampled_from(["unknown", "__proto__", "id"]))] = draw(ODD)
    return obj(members)


# --- the served environment ------------------------------------------------------------------------


class Served:
    def __init__(self, runtime: EnvironmentRuntime, port: int) -> None:
        self.runtime, self.port = runtime, port
        self.session: str | None = None
        self.calls = 0
        self.held: list[str] = []
        """Ids the initial state holds (read once: what a draw chooses from must not follow the state)."""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
                ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_SECONDS)
        try:
            conn.request(method, path, body=body, headers={"content-type": "application/json", **(headers or {})})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()

    def state(self) -> bytes:
        status, _, body = self.request("GET", "/_capenv/data/get", headers={"authorization": f"Bearer {TOKEN}"})
        assert status == 200
        return body

    def grader(self, what: str, body: bytes = b"{}") -> tuple[int, bytes]:
        status, _, answer = self.request("POST", f"/_capenv/data/{what}", body,
                                         {"authorization": f"Bearer {TOKEN}"})
        return status, answer

    def mcp(self, message: str) -> dict[str, Any] | None:
        headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
        if self.session:
            headers["mcp-session-id"] = self.session
        status, answer_headers, body = self.request("POST", self.runtime.reserved_mcp_path(), message.encode(
            "utf-8", "surrogatepass"), headers)
        assert status != 500 and status < 500, (status, body[:300])
        self.session = answer_headers.get("mcp-session-id", self.session)
        if status in (202, 204) or not body:
            return None
        text = body.decode("utf-8", "replace")
        if "text/event-stream" in answer_headers.get("content-type", ""):
            data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
            return json.loads(data[-1]) if data else None
        return json.loads(text)


@pytest.fixture(scope="module", params=capture_names())
def served(request, bundle_dir):
    runtime = EnvironmentRuntime(read_bundle(bundle_dir(request.param)))
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        target = Served(runtime, serving.port)
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}
        assert "result" in target.mcp(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}))
        target.mcp(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        target.held = held_ids(target)
        yield target


def path_of(template: str, draw, held: list[str]) -> str:
    parts = []
    for piece in template.split("/"):
        if piece.startswith("{") and piece.endswith("}"):
            parts.append(draw(st.one_of(st.sampled_from(held or ["1"]), st.sampled_from(["0", "%ud800", "9" * 30,
                                                                                          "1e999", "%00"]))))
        else:
            parts.append(piece)
    return "/".join(parts)


def held_ids(served: Served) -> list[str]:
    state = json.loads(served.state())
    return [str(e["id"]) for c in state.get("collections", []) for e in c["entities"]][:30]


def one_call(served: Served, draw) -> None:
    entry = served.runtime.catalog.entries[draw(st.sampled_from(sorted(served.runtime.catalog.entries)))]
    schema = entry.spec().input_schema
    surface = draw(st.sampled_from(["http", "mcp", "mcp", "data/add", "reset"]))
    key = draw(st.sampled_from([None, None, "k-1", "k-2", "\u00e9"]))
    before = served.state()
    refused: bool
    if surface == "reset":
        assert served.grader("reset")[0] == 200
        return
    if surface == "data/add":
        marker = '"value":{'
        text = before.decode("utf-8")
        odd = draw(ODD)
        document = text.replace(marker, marker + '"fuzz":' + odd + ",", 1) if marker in text else \
            text[:-1] + ',"fuzz":' + odd + "}"
        status, answer = served.grader("add", document.encode("utf-8", "surrogatepass"))
        assert status in (200, 400, 413), (status, answer[:300])
        refused = status != 200
    elif surface == "http":
        path = path_of(entry.tool.template, draw, served.held)
        body = body_text(schema.get("properties", {}).get("body", {}), draw) if entry.tool.method != "GET" else None
        headers = {"idempotency-key": key} if key and key.isascii() else {}
        status, _, answer = served.request(entry.tool.method, path, None if body is None else
                                           body.encode("utf-8", "surrogatepass"), headers)
        assert status < 500 or status in (501, 503), (entry.name, status, answer[:300])
        assert status < 400 or answer.strip(), (entry.name, status)  # a refusal says why
        refused = status >= 400
    else:
        held = served.held
        arguments = {}
        for name, member in schema.get("properties", {}).items():
            if name == "body":
                arguments[name] = body_text(member, draw)
            elif name == "query":
                arguments[name] = obj({"q": draw(ODD)}) if draw(st.booleans()) else "{}"
            else:
                arguments[name] = json.dumps(draw(st.sampled_from(held or ["1"]))) if draw(st.booleans()) else draw(ODD)
        meta = f',"_meta":{{"idempotencyKey":{json.dumps(key)}}}' if key else ""
        message = (f'{{"jsonrpc":"2.0","id":{served.calls + 1},"method":"tools/call","params":{{"name":'
                   f'{json.dumps(entry.name)},"arguments":{obj(arguments)}{meta}}}}}')
        reply = served.mcp(message)
        assert reply is not None, entry.name
        if "error" in reply:
            assert reply["error"]["code"] in (-32700, -32600, -32602), (entry.name, reply)
            refused = True
        else:
            result = reply["result"]
            texts = " ".join(c.get("text", "") for c in result.get("content", []))
            assert INTERNAL_ERROR_MESSAGE not in json.loads(texts).get("message", "") if result.get("isError") \
                else True, (entry.name, texts[:300])
            refused = bool(result.get("isError"))
    served.calls += 1
    if refused:
        assert served.state() == before, f"a refused call changed data/get ({surface} {entry.name})"


def test_no_input_breaks_the_served_surfaces(served, slow_run: bool) -> None:
    calls = max(SLOW_CALLS // len(capture_names()) + 1, CI_CALLS_PER_CAPTURE) if slow_run else CI_CALLS_PER_CAPTURE

    @settings(max_examples=calls, deadline=None, database=None, derandomize=not slow_run,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data) -> None:
        one_call(served, data.draw)

    run()
