"""An item action the application refused (409 "owns projects") on an entity it holds, where
serving, given the state the gate held just before the call, would have applied it and answered
success: the application acts only under a condition the spec does not model, and served, the
action would answer a success the application refuses (``verdict.refused-serving-accepts``, as
for updates, reason ``conditional-update``: an action is an update of the entity its path names).
An absence (404) is no condition, and the action stays served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

PEOPLE = [{"id": n, "name": f"p{n}", "archived": n == 4} for n in range(1, 5)]


def people_app(refusal: tuple[int, dict]) -> HarBuilder:
    har = HarBuilder().call("GET", "/people", response=PEOPLE)
    for person in PEOPLE:
        har.call("GET", f"/people/{person['id']}", response=person)
    return (har.call("POST", "/people/1/archive", response={**PEOPLE[0], "archived": True})
            .call("GET", "/people/1", response={**PEOPLE[0], "archived": True})
            .call("POST", "/people/4/archive", response=PEOPLE[3])
            .call("POST", "/people/2/archive", status=refusal[0], response=refusal[1])
            .call("GET", "/people/2", response=PEOPLE[1])
            .call("POST", "/people/3/archive", response={**PEOPLE[2], "archived": True})
            .call("GET", "/people/3", response={**PEOPLE[2], "archived": True}))


def test_an_action_refused_where_serving_would_act_is_not_served():
    bundle = build_from(people_app((409, {"detail": "p2 owns projects"})))
    action = plan(bundle, "POST", "/people/{people_id}/archive")
    assert (action.served, action.reason) == (False, "conditional-update")
    answer = EnvironmentRuntime(bundle).http(HttpRequest("POST", "/people/2/archive", (), (), b""))
    assert not 200 <= answer.status < 300


def test_an_absence_is_no_condition():
    action = plan(build_from(people_app((404, {"detail": "Not found."}))), "POST", "/people/{people_id}/archive")
    assert action.served, action.reason
