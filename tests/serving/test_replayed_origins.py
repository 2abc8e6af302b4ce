"""A read answered over HTTP names the origin the call reached (``serving/reads/origins``):
the application names the one it is reached at (Mistral's ``next`` page link, a root's ``href``), so
a recording's links to the origin it was made at, answered as recorded over HTTP, would send the
caller to the recording's host. Strings naming another origin (a configured base URL, a port that
merely begins alike) are kept, and a call with no origin (over MCP) gets the recorded ones."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ORIGIN = "http://127.0.0.1:3000"
REACHED = "http://env.test:8080/i/abc"
FLOWS = [{"id": "a1b2c3d4", "name": "backup"}, {"id": "e5f6a7b8", "name": "notify"}]


def page(flows: list, marker: str | None) -> dict:
    answer = {"flows": flows, "docs": "https://docs.example.org/flows", "mirror": f"{ORIGIN}0/flows",
              "message": f"Listed at {ORIGIN}/flows (mirror {ORIGIN}0/flows, proxy x{ORIGIN}/flows)",
              "links": [{"rel": "self", "href": f"{ORIGIN}/flows"}, {"rel": "root", "href": ORIGIN}]}
    if marker:
        answer["next"] = f"{ORIGIN}/flows?limit=1&marker={marker}"
    return answer


@pytest.fixture(scope="module")
def runtime():
    har = (HarBuilder(origin=ORIGIN)
           .call("GET", "/flows", response=page(FLOWS, None))
           .call("GET", "/flows", query="limit=1", response=page(FLOWS[:1], FLOWS[0]["id"])))
    return EnvironmentRuntime(build_from(har), replay_only=True)


def http_body(runtime, query, origin):
    answer = runtime.http(HttpRequest("GET", "/flows", query, (), b"", origin=origin))
    return json.loads(answer.body)


def test_over_http_a_replayed_link_names_the_origin_the_call_reached(runtime):
    body = http_body(runtime, (("limit", "1"),), REACHED)
    assert body["next"] == f"{REACHED}/flows?limit=1&marker=a1b2c3d4"
    assert body["links"] == [{"rel": "self", "href": f"{REACHED}/flows"}, {"rel": "root", "href": REACHED}]


def test_a_text_quoting_the_address_names_the_origin_the_call_reached(runtime):
    """A message quoting the address asked for ("Resource not found: <url>") names the origin the
    call reached, as the application's own would; another origin in the same text is kept."""
    body = http_body(runtime, (("limit", "1"),), REACHED)
    assert body["message"] == f"Listed at {REACHED}/flows (mirror {ORIGIN}0/flows, proxy x{ORIGIN}/flows)"


def test_strings_naming_another_origin_are_kept(runtime):
    body = http_body(runtime, (("limit", "1"),), REACHED)
    assert (body["docs"], body["mirror"]) == ("https://docs.example.org/flows", f"{ORIGIN}0/flows")
    assert body["flows"] == FLOWS[:1]


def test_at_the_recorded_origin_and_over_mcp_the_recording_is_answered_as_it_was(runtime):
    assert http_body(runtime, (("limit", "1"),), ORIGIN) == page(FLOWS[:1], FLOWS[0]["id"])
    assert runtime.read("get_flows", {"query": {"limit": "1"}})["body"] == page(FLOWS[:1], FLOWS[0]["id"])


def test_a_read_answered_from_the_state_names_it_too():
    root = {"versions": [{"id": "v2.0", "links": [{"href": f"{ORIGIN}/v2", "rel": "self"}]}]}
    runtime = EnvironmentRuntime(build_from(HarBuilder(origin=ORIGIN).call("GET", "/", response=root)
                                            .call("GET", "/flows", response=page(FLOWS, None))))
    answer = runtime.http(HttpRequest("GET", "/", (), (), b"", origin=REACHED))
    assert json.loads(answer.body)["versions"][0]["links"] == [{"href": f"{REACHED}/v2", "rel": "self"}]
    assert runtime.read("get_root", {})["body"] == root


def test_a_replayed_text_page_quoting_the_address_names_the_origin_the_call_reached():
    """An HTML error page quoting the URL asked for (a framework's 404 page: "the requested URL
    'http://host:port/x' caused an error") names the origin the call reached; over MCP, as recorded.
    Before the fix it named the capture's host and port to a caller that reached another."""
    error_page = (f"<html><body><p>Sorry, the requested URL <tt>&#039;{ORIGIN}/flows/abc&#039;</tt> caused an error:"
                  f"</p><pre>Not found: &#039;/flows/abc&#039;</pre><a href=\"{ORIGIN}0/\">mirror</a></body></html>")
    har = (HarBuilder(origin=ORIGIN).call("GET", "/flows", response=page_of_flows())
           .call("GET", "/flows/abc", status=404, response=error_page, response_type="text/html; charset=UTF-8"))
    runtime = EnvironmentRuntime(build_from(har), replay_only=True)
    answer = runtime.http(HttpRequest("GET", "/flows/abc", (), (), b"", origin=REACHED))
    assert answer.status == 404
    assert answer.body.decode() == error_page.replace(f"{ORIGIN}/flows", f"{REACHED}/flows")
    assert f"{ORIGIN}0/" in answer.body.decode()  # another origin is kept
    assert runtime.http(HttpRequest("GET", "/flows/abc", (), (), b"", origin=ORIGIN)).body.decode() == error_page


def page_of_flows() -> dict:
    return page(FLOWS, None)


def test_the_websocket_spelling_of_the_origin_names_the_origin_the_call_reached():
    """A discovery document names the application's stream endpoint at its own host and port with the
    WebSocket scheme (``ws://host:port/stream`` beside ``http://host:port/api``): the ws spelling of the
    recorded origin names the reached one in ws (wss for an https one). Before the fix the http link was
    rewritten and the ws one kept naming the capture's host and port (Signal K's ``/signalk``)."""
    stream = ORIGIN.replace("http://", "ws://")
    root = {"endpoints": {"v1": {"http": f"{ORIGIN}/api/v1/", "ws": f"{stream}/api/v1/stream",
                                 "other": f"{stream}0/stream", "tls": ORIGIN.replace("http://", "wss://")}}}
    runtime = EnvironmentRuntime(build_from(HarBuilder(origin=ORIGIN).call("GET", "/", response=root)
                                            .call("GET", "/flows", response=page(FLOWS, None))))
    endpoints = json.loads(runtime.http(HttpRequest("GET", "/", (), (), b"", origin=REACHED)).body)["endpoints"]["v1"]
    assert endpoints == {"http": f"{REACHED}/api/v1/", "ws": "ws://env.test:8080/i/abc/api/v1/stream",
                         "other": f"{stream}0/stream", "tls": root["endpoints"]["v1"]["tls"]}
    secure = json.loads(runtime.http(HttpRequest("GET", "/", (), (), b"", origin="https://env.test")).body)
    assert secure["endpoints"]["v1"]["ws"] == "wss://env.test/api/v1/stream"
    assert runtime.read("get_root", {})["body"] == root
