"""A read the application refused for its credentials (a wrong password's 401) answers no call the
environment serves: the environment answers as the principal, whose credentials it checks first,
so replaying that 401 would tell an agent sending the right password that it is wrong."""

from __future__ import annotations

import base64
import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

RIGHT = "Basic " + base64.b64encode(b"admin:right").decode()
WRONG = "Basic " + base64.b64encode(b"admin:wrong").decode()
HOST = {"name": "web01", "address": "10.0.1.21", "groups": ["linux"]}
OTHER = {"name": "db01", "address": "10.0.2.5", "groups": ["linux"]}
UNAUTHORIZED = {"error": 401, "status": "Unauthorized. Please check your user credentials."}


def capture() -> HarBuilder:
    har = HarBuilder()
    for _ in range(2):
        har.call("GET", "/hosts", response=[HOST, OTHER], headers={"authorization": RIGHT})
        for host in (HOST, OTHER):
            har.call("GET", f"/hosts/{host['name']}", response=host, headers={"authorization": RIGHT})
    har.call("GET", "/hosts/web01", query="attrs=address", status=401, response=UNAUTHORIZED,
             headers={"authorization": WRONG})
    return har


def test_a_recording_refused_for_its_credentials_is_not_replayed_to_the_principal(tmp_path):
    runtime = EnvironmentRuntime(build_from(capture(), tmp_path / "capture.har"))
    answer = runtime.http(HttpRequest("GET", "/hosts/web01", (("attrs", "address"),),
                                      (("authorization", RIGHT),), b""))
    assert answer.status == 404, answer.body  # once: 401 "Unauthorized. Please check your user credentials."
    assert json.loads(answer.body)["message"].startswith("nothing was recorded for GET /hosts/web01")
    tool = runtime.call_tool("get_hosts_by_host_id", {"host_id": "web01", "query": {"attrs": "address"}})
    assert tool.is_error and "nothing was recorded" in tool.structured["message"], tool.structured
    plain = runtime.http(HttpRequest("GET", "/hosts/web01", (), (("authorization", RIGHT),), b""))
    assert plain.status == 200 and json.loads(plain.body) == HOST
