"""A list read whose very call (its query) the application answered with a 4xx is not evaluated over
the state by a learned query: the application refused the value (its shape) before listing anything,
where the learned filter would list what matches (an empty page). Replay answers it as recorded."""

from __future__ import annotations

import json

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import Outgoing, RuntimeSide
from capenv.serving.runtime import EnvironmentRuntime

from support.har_builder import HarBuilder

THINGS = [{"id": 1, "uuid": "7f1c2a90-0000-4000-8000-000000000001", "name": "alpha"},
          {"id": 2, "uuid": "7f1c2a90-0000-4000-8000-000000000002", "name": "beta"}]
REFUSED = {"errors": [{"status": 400, "detail": "'not-a-uuid' is not a 'uuid'"}]}


def bundle(tmp_path):
    har = (HarBuilder()
           .call("GET", "/things", response={"things": THINGS})
           .call("GET", "/things?uuid=7f1c2a90-0000-4000-8000-000000000001", response={"things": THINGS[:1]})
           .call("GET", "/things?uuid=7f1c2a90-0000-4000-8000-000000000002", response={"things": THINGS[1:]})
           .call("GET", "/things?uuid=not-a-uuid", status=400, response=REFUSED)
           # a value selecting nothing answered an empty page: how this list answers one is shown
           .call("GET", "/things?uuid=7f1c2a90-0000-4000-8000-0000000000fe", response={"things": []})
           .call("POST", "/things", body={"name": "gamma"}, status=201,
                 response={"id": 3, "uuid": "7f1c2a90-0000-4000-8000-000000000003", "name": "gamma"}))
    return build_bundle(har.write(tmp_path / "things.har"))


def get(runtime, query):
    answer = RuntimeSide(runtime).send(Outgoing("GET", "/things", query, (), None))
    return answer.status, json.loads(answer.body)


def test_the_refused_query_is_answered_as_recorded_and_other_values_evaluate(tmp_path):
    built = bundle(tmp_path)
    assert any(q.param == "uuid" for v in built.view.views for q in v.learned_queries)
    runtime = EnvironmentRuntime(built)
    try:
        assert get(runtime, (("uuid", "not-a-uuid"),)) == (400, REFUSED)
        status, body = get(runtime, (("uuid", THINGS[1]["uuid"]),))
        assert (status, body["things"]) == (200, THINGS[1:])
        status, body = get(runtime, (("uuid", "7f1c2a90-0000-4000-8000-0000000000ff"),))
        assert (status, body["things"]) == (200, [])  # a value of the accepted shape the state does not hold
    finally:
        runtime.close()
