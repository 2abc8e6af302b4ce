"""An id that differs from a held one only by a final dot or letter case may be read by the
application as that entity (PowerDNS answers /tsigkeys/seed-key with the key "seed-key."): an
item read or a write naming it is refused, naming the held spelling, never answered with the
learned absence (regression: the read answered "Not Found" for a key the application holds)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ALPHA = {"id": "alpha-key.", "name": "alpha-key", "algorithm": "hmac-sha256"}
BETA = {"id": "beta-key.", "name": "beta-key", "algorithm": "hmac-sha512"}
GAMMA = {"id": "gamma-key.", "name": "gamma-key", "algorithm": "hmac-sha256"}


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/keys", response=[ALPHA, BETA, GAMMA])
            .call("GET", "/keys/alpha-key.", response=ALPHA)
            .call("GET", "/keys/beta-key.", response=BETA)
            .call("GET", "/keys/no-such-key.", status=404, response={"error": "Not Found"})
            .call("DELETE", "/keys/beta-key.", status=204)
            .call("GET", "/keys/beta-key.", status=404, response={"error": "Not Found"})
            .call("GET", "/keys", response=[ALPHA, GAMMA]))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_an_item_read_of_another_spelling_of_a_held_id_is_refused_naming_it():
    runtime = EnvironmentRuntime(build_from(capture()))
    assert get(runtime, "/keys/alpha-key.").status == 200
    for spelling in ("/keys/alpha-key", "/keys/ALPHA-KEY.", "/keys/Alpha-Key"):
        answer = get(runtime, spelling)
        assert answer.status == 409, (spelling, answer)
        assert json.loads(answer.body)["message"].endswith('call it by "alpha-key."')
    assert get(runtime, "/keys/delta-key").status == 404  # no held spelling: the learned absence


def test_a_delete_naming_another_spelling_is_refused_and_leaves_the_entity():
    bundle = build_from(capture())
    delete = next(t.name for t in bundle.manifest.tools if t.method == "DELETE")
    runtime = EnvironmentRuntime(bundle)
    refused = runtime.call_tool(delete, {"key_id": "gamma-key"})
    assert refused.is_error and '"gamma-key."' in refused.structured["message"]
    assert get(runtime, "/keys/gamma-key.").status == 200
    assert not runtime.call_tool(delete, {"key_id": "gamma-key."}).is_error
    assert get(runtime, "/keys/gamma-key.").status == 404
