"""A property-based fuzz over the served surfaces as a client reaches them (issue 11, Acceptance):
raw HTTP requests to the application's paths and the data plane, and raw MCP ``tools/call``
messages over streamable HTTP, across every served tool of every capture in captures/. The
generated JSON is written as text, so it holds what no client library would send: integers of any
length, exponents of any size, lone surrogates, huge strings, deep nesting; and idempotency keys
are reused across calls and across data/reset. What the served features take is generated too:
values of every query parameter a tool lists, a learned projection's (``fields=``) member names
(held, unknown, repeated, blank, a wildcard), a reference member naming a held entity, another
type's or none (dangling), and path ids of other shapes and spellings than the held ones (``01``,
``abc``, ``1.0``, a UUID, upper case, percent-escaped characters).

Whatever comes in: never a 500, never an MCP internal error, always an answer; every refusal
(a 4xx, a tool error, a JSON-RPC error) leaves data/get byte-identical. CI runs a few tool calls
per capture; ``pytest --slow`` at least 10,000 tool calls over HTTP and MCP in all, every tool of
every capture called (the outcomes, served and refused by surface, are printed per capture).
"""

from __future__ import annotations

import http.client
import json
import re
from collections import Counter
from typing import Any
from urllib.parse import quote

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
CI_CALLS_PER_CAPTURE = 24
SLOW_CALLS = 10_000
TIMEOUT_SECONDS = 60
TOP_UP_ROUNDS = 5

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
OTHER_SHAPES = st.sampled_from(["abc", "01", "1.0", "-1", "+1", " 1", "1 ", "0x1", "00000000-0000-0000-0000-000000000000",
                                "%31", "%2e%2e", "..", "1;2", "1,2", "NaN", "null", "true", "9" * 400])
PLAIN = st.recursive(st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=10),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=6).map(json.dumps)
ODD = st.one_of(NUMBERS, SURROGATES, HUGE, DEEP, PLAIN)


def obj(members: dict[str, str]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in members.items()) + "}"


REFERENCE = re.compile(r'the id of a "([^"]+)" entity the state holds')
"""How a write tool's schema describes a member serving refuses unless it names a held entity."""


def good(schema: dict[str, Any], draw, held: dict[str, list[Any]]) -> str:
    """JSON text of a value of the member's declared type (its const when it has one); a member
    naming an entity: a held one of its type, another type's, or none (dangling, blank)."""
    if "const" in schema:
        return json.dumps(schema["const"])
    named = REFERENCE.search(str(schema.get("description", "")))
    if named:
        own = held.get(named.group(1), [])
        others = [i for t, ids in held.items() if t != named.group(1) for i in ids]
        choices = [st.sampled_from(own)] * 3 if own else []
        choices += [st.sampled_from(others)] if others else []
        choices += [st.sampled_from([999_999_999, "999999999", "no-such-id", 0, -1, None, "", "00000000-0000-0000-"
                                     "0000-000000000000"]), st.sampled_from(own or [1]).map(flipped)]
        return json.dumps(draw(st.one_of(choices)))
    kind = schema.get("type")
    if isinstance(kind, list):  # a member declared of several types (["string", "null"]): one of them
        kind = draw(st.sampled_from(kind)) if kind else None
    if kind == "object" and schema.get("properties"):
        return body_text(schema, draw, held)
    return json.dumps(draw({"string": st.text(max_size=20), "integer": st.integers(-5, 5000), "number": st.integers(0, 9),
                            "boolean": st.booleans(), "array": st.lists(st.text(max_size=4), max_size=2),
                            "object": st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
                            "null": st.none()}.get(kind, st.none())))


def flipped(entity_id: Any) -> Any:
    """The id in the other JSON spelling: an integer as its text, a text of digits as an integer."""
    if isinstance(entity_id, int) and not isinstance(entity_id, bool):
        return str(entity_id)
    return int(entity_id) if isinstance(entity_id, str) and entity_id.isdigit() else entity_id


def body_text(schema: dict[str, Any], draw, held: dict[str, list[Any]]) -> str:
    """An object the schema takes, but for members drawn odd (any size, exponent, surrogate, depth)."""
    properties, required = schema.get("properties", {}), set(schema.get("required", ()))
    members = {}
    for name, member in properties.items():
        if name in required or draw(st.booleans()):
            members[name] = draw(ODD) if draw(st.integers(0, 3)) == 0 else good(member, draw, held)
    if draw(st.integers(0, 6)) == 0:
        members[draw(st.sampled_from(["unknown", "__proto__", "id"]))] = draw(ODD)
    return obj(members)


# --- the served environment ------------------------------------------------------------------------


class Served:
    def __init__(self, runtime: EnvironmentRuntime, port: int) -> None:
        self.runtime, self.port = runtime, port
        self.session: str | None = None
        self.calls = 0
        self.capture = ""
        self.held: list[str] = []
        """Ids the initial state holds (read once: what a draw chooses from must not follow the state)."""
        self.held_by_type: dict[str, list[Any]] = {}
        self.empty_statuses = {c.response.status for calls in runtime.bundle.replay.tools.values() for c in calls
                               if c.response.status >= 400 and c.response.body is None and not c.response.text}
        """Statuses the application answered with an empty body in the capture (its own, not a refusal)."""
        self.outcomes: Counter[tuple[str, str]] = Counter()
        """(surface, served or refused): what the calls came to."""
        self.tools: Counter[str] = Counter()
        """Calls over HTTP or MCP, by tool."""

    def tool_calls(self) -> int:
        return sum(self.tools.values())

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
        target.capture = request.param
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}
        assert "result" in target.mcp(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}))
        target.mcp(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        target.held = held_ids(target)
        target.held_by_type = held_by_type(target)
        yield target


def path_of(template: str, draw, held: list[str]) -> str:
    parts = []
    for piece in template.split("/"):
        if piece.startswith("{") and piece.endswith("}"):
            parts.append(quote(draw(path_id(held)), safe="%+;,:@") or "x")
        else:
            parts.append(piece)
    return "/".join(parts)


def path_id(held: list[str]) -> st.SearchStrategy:
    """A held id (most often), an odd one, one of another shape, or a held id spelled otherwise."""
    ids = st.sampled_from(held or ["1"])
    return st.one_of(ids, ids, ids, st.sampled_from(["0", "%ud800", "9" * 30, "1e999", "%00"]), OTHER_SHAPES,
                     ids.flatmap(other_spellings))


def other_spellings(entity_id: str) -> st.SearchStrategy:
    """The held id spelled as no state holds it: zero-padded, upper or lower case, a character
    percent-escaped, with a suffix, a trailing slash."""
    escaped = "".join(f"%{ord(c):02X}" if c.isascii() else c for c in entity_id[:1]) + entity_id[1:]
    return st.sampled_from(["0" + entity_id, entity_id.upper(), entity_id.lower(), escaped, entity_id + ".0",
                            entity_id + "%20", entity_id + "/", entity_id + "x", entity_id[:-1] or "x"])


def held_ids(served: Served) -> list[str]:
    state = json.loads(served.state())
    return [str(e["id"]) for c in state.get("collections", []) for e in c["entities"]][:30]


def held_by_type(served: Served) -> dict[str, list[Any]]:
    held: dict[str, list[Any]] = {}
    for collection in json.loads(served.state()).get("collections", []):
        held.setdefault(collection["type"], []).extend(e["id"] for e in collection["entities"][:20])
    return held


def query_values(entry, draw) -> list[tuple[str, str]]:
    """Query pairs for a call: the tool's listed parameters with recorded, odd or blank values, and
    a learned projection's member lists (held members, unknown ones, repeated, blank, wildcards)."""
    listed = entry.spec().input_schema.get("properties", {}).get("query", {}).get("properties", {})
    pairs: list[tuple[str, str]] = []
    for name in draw(st.lists(st.sampled_from(sorted(listed) or ["q"]), max_size=3)):
        member = listed.get(name, {})
        recorded = [v for v in member.get("enum", []) + member.get("examples", []) if isinstance(v, str)]
        pairs.append((name, draw(st.one_of(st.sampled_from(recorded or [""]), st.sampled_from(["", "1", "-1", "x"]),
                                           st.text(max_size=12), NUMBERS.map(lambda n: n[:200])))))
    for projection in (entry.view.projections if entry.view is not None else ()):
        names = list(projection.members) + list(projection.kept) + list(projection.wildcards)
        chosen = draw(st.lists(st.one_of(st.sampled_from(names or ["id"]), st.sampled_from(names or ["id"]),
                                         st.sampled_from(["nosuch", "", "ID", " id", "id ", "*", "a.b", "__proto__"]),
                                         st.text(max_size=6)), min_size=0, max_size=4))
        if projection.form == "indexed":
            pairs += [(f"{projection.root}[{draw(st.sampled_from([index, index, 99, -1]))}]", member)
                      for index, member in enumerate(chosen)]
        elif projection.separator and draw(st.booleans()):
            pairs.append((projection.param, projection.separator.join(chosen)))
        else:
            pairs += [(projection.param, member) for member in chosen] or [(projection.param, "")]
    return pairs


def query_string(pairs: list[tuple[str, str]]) -> str:
    return "?" + "&".join(f"{quote(n, safe='[]')}={quote(v, safe=',*')}" for n, v in pairs) if pairs else ""


def query_argument(pairs: list[tuple[str, str]]) -> str:
    """The pairs as MCP's ``query`` object: a name sent once as a string, more often as a list."""
    grouped: dict[str, list[str]] = {}
    for name, value in pairs:
        grouped.setdefault(name, []).append(value)
    return json.dumps({n: v[0] if len(v) == 1 else v for n, v in grouped.items()})


def one_call(served: Served, draw, names: list[str]) -> None:
    entry = served.runtime.catalog.entries[draw(st.sampled_from(names))]
    schema = entry.spec().input_schema
    surface = draw(st.sampled_from(["http", "mcp", "mcp", "data/add", "reset"]))
    key = draw(st.sampled_from([None, None, "k-1", "k-2", "\u00e9"]))
    before = served.state()
    refused: bool
    if surface == "reset":
        assert served.grader("reset")[0] == 200
        served.outcomes[(surface, "served")] += 1
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
        if draw(st.integers(0, 2)) == 0:
            path += query_string(query_values(entry, draw))
        body = body_text(schema.get("properties", {}).get("body", {}), draw, served.held_by_type) \
            if entry.tool.method != "GET" else None
        headers = {"idempotency-key": key} if key and key.isascii() else {}
        status, _, answer = served.request(entry.tool.method, path, None if body is None else
                                           body.encode("utf-8", "surrogatepass"), headers)
        assert status < 500 or status in (501, 503), (entry.name, path[:200], status, answer[:300])
        # a refusal says why, unless it is the application's own empty answer the capture recorded
        # or a HEAD's (no body, RFC 9110 9.3.2: the tool's MCP call says why)
        assert status < 400 or answer.strip() or status in served.empty_statuses or entry.tool.method == "HEAD", \
            (entry.name, path[:200], status)
        refused = status >= 400
    else:
        held = served.held
        arguments = {}
        for name, member in schema.get("properties", {}).items():
            if name == "body":
                arguments[name] = body_text(member, draw, served.held_by_type)
            elif name == "query":
                choice = draw(st.integers(0, 3))
                arguments[name] = (query_argument(query_values(entry, draw)) if choice < 2 else
                                   obj({"q": draw(ODD)}) if choice == 2 else "{}")
            else:
                if draw(st.integers(0, 2)):  # an id as text, or as the JSON number its digits spell
                    value = draw(path_id(held))
                    as_number = value.isdigit() and len(value) < 400 and draw(st.booleans())
                    arguments[name] = value if as_number else json.dumps(value)
                else:
                    arguments[name] = draw(ODD)
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
    served.outcomes[(surface, "refused" if refused else "served")] += 1
    if surface in ("http", "mcp"):
        served.tools[entry.name] += 1
    if refused:
        assert served.state() == before, f"a refused call changed data/get ({surface} {entry.name})"


def test_no_input_breaks_the_served_surfaces(served, slow_run: bool) -> None:
    """CI: a few tool calls per capture; --slow: SLOW_CALLS tool calls (HTTP and MCP) in all, and
    every tool of every capture called at least once."""
    wanted = -(-SLOW_CALLS // len(capture_names())) if slow_run else CI_CALLS_PER_CAPTURE
    names = sorted(served.runtime.catalog.entries)

    def run(examples: int, among: list[str]) -> None:
        @settings(max_examples=examples, deadline=None, database=None, derandomize=not slow_run,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def example(data) -> None:
            one_call(served, data.draw, among)

        example()

    for _ in range(TOP_UP_ROUNDS):  # more examples until enough tool calls (a draw may be data/add or reset)
        short = wanted - served.tool_calls()
        unreached = [name for name in names if not served.tools[name]] if slow_run else []
        if short <= 0 and not unreached:
            break
        run(max(short * 5 // 3, 3 * len(unreached), 1), names if short > 0 else unreached)
    print(f"\nfuzz {served.capture}: {served.tool_calls()} tool calls of {len(names)} tools "
          f"({sum(1 for n in names if served.tools[n])} reached); "
          + ", ".join(f"{s} {o} {n}" for (s, o), n in sorted(served.outcomes.items())))
    assert served.tool_calls() >= wanted
    assert not slow_run or all(served.tools[name] for name in names)
