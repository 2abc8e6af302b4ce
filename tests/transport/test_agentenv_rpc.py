"""The AgentEnv framework's card and JSON-RPC data plane over a runtime (serving/transport/agentenv_rpc),
in-process, on a small synthetic ``/items`` capture: what each method answers, every error code the
protocol's SDK gives, and a refused data/add leaving the state as it was."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest
from capenv.serving.transport import agentenv
from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

NAME = "items-env"


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app())


@pytest.fixture
def served(bundle) -> AgentEnvRuntime:
    return AgentEnvRuntime(EnvironmentRuntime(bundle), NAME)


def post(served: AgentEnvRuntime, body: bytes | dict[str, Any], path: str = "/agentenv") -> dict[str, Any]:
    raw = body if isinstance(body, bytes) else dumps(body)
    answer = served.http(HttpRequest("POST", path, (), (("content-type", "application/json"),), raw))
    assert answer.status == 200, answer.body
    return json.loads(answer.body)


def rpc(served: AgentEnvRuntime, method: str, params: dict[str, Any] | None = None, rid: Any = 7) -> dict[str, Any]:
    return post(served, {"jsonrpc": "2.0", "id": rid, "method": method, **({"params": params} if params else {})})


def add(served: AgentEnvRuntime, *parts: dict[str, Any]) -> dict[str, Any]:
    return rpc(served, "data/add", {"parts": list(parts)})


def test_the_card_names_the_environment_its_data_plane_its_mcp_endpoint_and_every_tool(served) -> None:
    answer = served.http(HttpRequest("GET", "/.well-known/agent-env.json", (), (), b""))
    card = json.loads(answer.body)
    assert answer.status == 200 and card["name"] == NAME and card["url"] == "/agentenv"
    assert card["protocolVersion"] == "1.0" and card["preferredTransport"] == "JSONRPC"
    assert card["additionalInterfaces"] == [{"url": served.reserved_mcp_path(), "transport": "mcp"}]
    assert card["capabilities"]["operations"] == ["data/reset", "data/add", "data/get"]
    assert [(t["name"], t["inputSchema"]) for t in card["capabilities"]["tools"]] == \
        [(spec.name, json.loads(dumps(spec.input_schema))) for spec in served.tools()]
    refused = served.http(HttpRequest("POST", "/.well-known/agent-env.json", (), (), b"{}"))
    assert refused.status == 405 and ("allow", "GET") in refused.headers


def test_data_get_carries_the_document_data_get_writes_byte_for_byte(served) -> None:
    answer = served.http(HttpRequest("POST", "/agentenv", (), (), b'{"jsonrpc":"2.0","id":"g","method":"data/get"}'))
    prefix = b'{"jsonrpc":"2.0","id":"g","result":{"parts":[{"kind":"data","data":'
    assert answer.body == prefix + served.data_get() + b"}]}}"


def test_every_part_form_installs_the_document_and_reset_gives_the_initial_state_back(bundle, tmp_path: Path) -> None:
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), NAME, data_root=tmp_path)
    initial = served.data_get()
    document = loads(initial)
    document["collections"][0]["entities"].pop()
    changed = dumps(document)
    staged = tmp_path / "state.json"
    staged.write_bytes(changed)
    forms = [{"kind": "data", "data": json.loads(changed)},
             {"kind": "file", "file": {"bytes": base64.b64encode(changed).decode(), "mimeType": "application/json"}},
             {"kind": "file", "file": {"uri": staged.as_uri()}}]
    for part in forms:
        assert add(served, part) == {"jsonrpc": "2.0", "id": 7, "result": {}}, part
        assert served.data_get() == changed, part
        assert rpc(served, "data/reset")["result"] == {}
        assert served.data_get() == initial


def test_a_data_part_keeps_exact_numbers(served) -> None:
    document = loads(served.data_get())
    document["collections"][0]["entities"][0]["value"]["price"] = loads(b"1.10")
    text = dumps(document)
    answer = post(served, b'{"jsonrpc":"2.0","id":1,"method":"data/add","params":{"parts":[{"kind":"data","data":'
                  + text + b"}]}}")
    assert answer["result"] == {} and served.data_get() == text and b'"price":1.10' in text


@pytest.mark.parametrize(("raw", "code"), [
    (b"{not json", -32700),
    (b"[]", -32600),
    (b'{"id": 1, "method": "data/get"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', -32601),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "data/add", "params": {"parts": []}}', -32602),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "data/add", "params": {"parts": [{"kind": "data", "data": 3}]}}', -32602),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "data/add", "params": {"parts": [{"kind": "image"}]}}', -32602),
])
def test_malformed_requests_get_the_sdks_error_codes(served, raw: bytes, code: int) -> None:
    before = served.data_get()
    error = post(served, raw)["error"]
    assert error["code"] == code, error
    assert served.data_get() == before
    if code == -32601:
        assert "data/reset, data/add, data/get" in error["message"]
    if code == -32602:
        assert '"kind": "data"' in error["data"]["detail"]  # names the parts it accepts


@pytest.mark.parametrize(("parts", "reason", "said"), [
    ([{"kind": "text", "text": "{}"}], "invalid", "text part holds no state document"),
    ([{"kind": "data", "data": {}}, {"kind": "data", "data": {}}], "invalid", "not 2 parts"),
    ([{"kind": "file", "file": {"bytes": "!!not base64"}}], "invalid", "not base64"),
    ([{"kind": "file", "file": {"uri": "https://127.0.0.1/state.json"}}], "invalid", "not a file:// URI"),
    ([{"kind": "file", "file": {"uri": "file:///nonexistent/state.json"}}], "invalid", "without --data-root"),
    ([{"kind": "data", "data": {"collections": "no"}}], "invalid", "data/add refused"),
    ([{"kind": "data", "data": {"__proto__": {}, "collections": []}}], "invalid", "__proto__"),
])
def test_a_refused_data_add_names_what_it_accepts_and_changes_nothing(served, parts, reason: str, said: str) -> None:
    add(served, {"kind": "data", "data": json.loads(served.data_get())})  # an installed, non-initial holder
    before = served.data_get()
    error = add(served, *parts)["error"]
    assert error["code"] == -32000 and error["data"] == {"code": "add_failed", "reason": reason}, error
    assert said in error["message"], error
    assert served.data_get() == before


def test_the_rpc_path_takes_post_and_every_other_path_is_the_applications(served) -> None:
    refused = served.http(HttpRequest("GET", "/agentenv", (), (), b""))
    assert refused.status == 405 and ("allow", "POST") in refused.headers
    item = served.http(HttpRequest("GET", "/items/2", (), (), b""))
    assert item.status == 200 and json.loads(item.body) == {"id": 2, "title": "t2"}


def test_an_application_answering_the_protocols_paths_is_refused_before_serving(tmp_path: Path) -> None:
    from capenv.interpreter.bundle.io import write_bundle

    bundle = build_from(items_app(builder=HarBuilder().call("GET", "/agentenv", response={"ok": True})))
    assert agentenv.claimed_paths_in_use(bundle) and not agentenv.claimed_paths_in_use(build_from(items_app()))
    write_bundle(tmp_path / "bundle", bundle)
    assert agentenv.main([str(tmp_path / "bundle"), "--http", "127.0.0.1:0"]) == 2


def test_the_entry_point_refuses_bad_input_in_one_line(tmp_path: Path, capsys) -> None:
    assert agentenv.main([str(tmp_path / "missing"), "--http", "127.0.0.1:0"]) == 2
    assert agentenv.main([str(tmp_path), "--http", "127.0.0.1:99999"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("capenv agentenv: ") for line in lines), lines
    assert "99999" in lines[1]


def test_the_name_and_address_follow_the_frameworks_deploy_contract(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ENVIRONMENT_NAME", raising=False)
    monkeypatch.delenv("MCP_HOST", raising=False)
    monkeypatch.delenv("MCP_PORT", raising=False)
    assert agentenv.environment_name(tmp_path / "shop", None) == "shop"
    assert agentenv.environment_name(tmp_path / "shop", "given") == "given"
    assert agentenv.listen_address(None) == ("127.0.0.1", 18765)
    monkeypatch.setenv("ENVIRONMENT_NAME", "registered")
    monkeypatch.setenv("MCP_HOST", "0.0.0.0")
    monkeypatch.setenv("MCP_PORT", "9001")
    assert agentenv.environment_name(tmp_path / "shop", "given") == "registered"
    assert agentenv.listen_address(None) == ("0.0.0.0", 9001)
    assert agentenv.listen_address("[::1]:8000") == ("::1", 8000)
