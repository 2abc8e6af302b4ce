"""A read that names one entity by a query value (`/status?thing=alpha-1`) answers about that
entity even when its body never shows the entity's id: its recordings are the state as the
capture began, so replay must not answer them once a served write changed the entity's type
(Syncthing's `/rest/db/status?folder=` answered the recorded counters of a deleted folder)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ALPHA = {"id": "alpha-1", "label": "Alpha"}
BETA = {"id": "beta-2", "label": "Beta"}
STATUS = {"state": "idle", "files": 3}


def status_app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/things", response=[ALPHA, BETA])
            .call("GET", "/things/alpha-1", response=ALPHA)
            .call("GET", "/things/beta-2", response=BETA)
            .call("GET", "/status", query=[("thing", "alpha-1")], response=STATUS)
            .call("GET", "/status", query=[("thing", "beta-2")], response=STATUS)
            .call("DELETE", "/things/beta-2", status=204)
            .call("GET", "/things/beta-2", status=404, response={"error": "not found"})
            .call("GET", "/things", response=[ALPHA]))


def get(runtime: EnvironmentRuntime, path: str, query: tuple = ()):
    return runtime.http(HttpRequest("GET", path, query, (), b""))


def test_a_read_naming_an_entity_by_a_query_value_reads_its_type():
    bundle = build_from(status_app())
    status_tool = next(t.name for t in bundle.manifest.tools if t.template == "/status")
    assert "things" in bundle.replay.reads_types.get(status_tool, ())


def test_its_replay_answers_until_a_served_write_changes_that_type_then_refuses():
    runtime = EnvironmentRuntime(build_from(status_app()))
    before = get(runtime, "/status", (("thing", "alpha-1"),))
    assert before.status == 200 and b"idle" in before.body
    deleted = runtime.http(HttpRequest("DELETE", "/things/alpha-1", (), (), b""))
    assert deleted.status == 204
    after = get(runtime, "/status", (("thing", "alpha-1"),))
    assert after.status != 200 and b"not modelled over the current state" in after.body
