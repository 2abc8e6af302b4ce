"""A create refused for an id it sent (``validated.new-ids``): sessions name their routine and
weekdays by short integer ids, which no rule links to a type safely (a 4 may be any type's id). One
create was refused 400 for a weekday no entity has, one 403 for another caller's routine; each
refused body differs from a successful one only in ids and in free text (the note every call
sends its own). A model storing any id answers 201 where the application refuses: serving accepts
in each such member only the ids a recorded call succeeded with, and refuses any other with the
state unchanged, saying which it accepts."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

HELD = {"id": 1, "routine": 1, "note": "Upper", "weekdays": [1, 4]}


def session(id_: int, note: str, weekdays: list[int]) -> dict:
    return {"id": id_, "routine": 1, "note": note, "weekdays": weekdays}


def capture(refusals: bool = True) -> HarBuilder:
    har = HarBuilder().call("GET", "/sessions", response=[HELD]).call("GET", "/sessions/1", response=HELD)
    made = []
    for id_, note, weekdays in ((2, "Heavy", [3]), (3, "Light", [7]), (4, "Long", [3, 7])):
        entity = session(id_, note, weekdays)
        made.append(entity)
        har.call("POST", "/sessions", body={"routine": 1, "note": note, "weekdays": weekdays}, status=201,
                 response=entity)
        har.call("GET", f"/sessions/{id_}", response=entity)
    if refusals:
        har.call("POST", "/sessions", body={"routine": 1, "note": "Bad", "weekdays": [9]}, status=400,
                 response={"weekdays": ['Invalid pk "9" - object does not exist.']})
        har.call("POST", "/sessions", body={"routine": 2, "note": "Theirs", "weekdays": [3]}, status=403,
                 response={"detail": "You are not allowed to do this"})
    return har.call("GET", "/sessions", response=[HELD, *made])


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("validated-ids") / "capture.har")


def post(runtime: EnvironmentRuntime, body: dict):
    answer = runtime.http(HttpRequest("POST", "/sessions", (), (("content-type", "application/json"),), dumps(body)))
    return answer.status, loads(answer.body)


def test_the_refused_ids_validate_their_members(bundle) -> None:
    create = plan(bundle, "POST", "/sessions")
    assert create.served, create.reason
    validated = {v.member: v for v in create.validated_values}
    assert set(validated) == {"routine", "weekdays"}
    assert validated["routine"].rule_id == "validated.new-ids" and list(validated["routine"].accepted) == [1]
    assert validated["weekdays"].by_element and set(validated["weekdays"].accepted) == {3, 7}


def test_an_id_no_call_succeeded_with_is_refused(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        for body in ({"routine": 2, "note": "Theirs", "weekdays": [3]}, {"routine": 999, "note": "x", "weekdays": [3]},
                     {"routine": 1, "note": "x", "weekdays": [9]}, {"routine": 1, "note": "x", "weekdays": [3, 5]}):
            status, answer = post(runtime, body)
            assert status == 400, (body, answer)
            assert "accepts only" in answer["message"], answer
        read = runtime.http(HttpRequest("GET", "/sessions", (), (), b""))
        assert [e["id"] for e in loads(read.body)] == [1]  # nothing written
        status, answer = post(runtime, {"routine": 1, "note": "Short", "weekdays": [7, 3]})
        assert status == 201 and answer == {"id": 2, "routine": 1, "note": "Short", "weekdays": [7, 3]}
    finally:
        runtime.close()


def test_without_a_refusal_the_ids_are_stored_as_sent(tmp_path) -> None:
    create = plan(build_from(capture(refusals=False), tmp_path / "capture.har"), "POST", "/sessions")
    assert create.served, create.reason
    assert not create.validated_values


def made_routine_capture() -> HarBuilder:
    """Sessions naming, by a member no type's path agrees with, the routine the capture made just
    before them (reference.one-type-made)."""
    held = [{"id": 1, "name": "Upper"}, {"id": 2, "name": "Lower"}]
    har = HarBuilder().call("GET", "/routines", response=held).call("GET", "/sessions", response=[])
    har.call("POST", "/routines", body={"name": "Legs"}, status=201, response={"id": 3, "name": "Legs"})
    har.call("GET", "/routines/3", response={"id": 3, "name": "Legs"})
    made = []
    for id_, note in ((1, "Heavy"), (2, "Light")):
        entity = {"id": id_, "program": 3, "note": note}
        made.append(entity)
        har.call("POST", "/sessions", body={"program": 3, "note": note}, status=201, response=entity)
        har.call("GET", f"/sessions/{id_}", response=entity)
    return har.call("GET", "/sessions", response=made)


def test_a_short_id_naming_the_entity_made_just_before_is_a_reference(tmp_path) -> None:
    bundle = build_from(made_routine_capture(), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/sessions")
    assert create.served, create.reason
    [reference] = create.references
    assert (reference.member, reference.rule_id) == ("program", "reference.one-type-made")
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.http(HttpRequest("POST", "/sessions", (), (("content-type", "application/json"),),
                                          dumps({"program": 9, "note": "x"})))
        assert answer.status == 400 and "holds no" in loads(answer.body)["message"]
        answer = runtime.http(HttpRequest("POST", "/sessions", (), (("content-type", "application/json"),),
                                          dumps({"program": 2, "note": "x"})))
        assert answer.status == 201, answer.body
    finally:
        runtime.close()
