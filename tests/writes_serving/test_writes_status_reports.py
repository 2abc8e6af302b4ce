"""Writes answered with a report on the call rather than the entity (``write-answer-reports``):
an application that shows each item as a one-element array under an envelope member, and reads
it naming the members to show with a repeated query parameter (``?show=spec&show=kind``),
answers a delete with ``{"results": [{"code": 200, "name": "r1", "status": "gone", "kind":
"Rack"}]}``. Located by its identity that object reads as the entity; it is a report (members
no read of the type shows, fields every item read carries left out), served as recorded with
the entity's own fields (``name``, ``kind``) rendered from the entity the call deleted, never
the exemplar's. An update answered alike is observed by its later read. A delete the
application answered 500 while the entity stayed held is conditional and stays unserved."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.serving.reads.call_match import same_query
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SHOW = (("show", "spec"), ("show", "kind"))
RACKS = [{"name": n, "spec": {"rows": r, "note": ""}, "kind": "Rack"} for n, r in (("r1", 2), ("r2", 4), ("r3", 6))]
MISSING = {"error": 404, "status": "No objects found."}


def report(name: str, status: str = "gone") -> dict:
    return {"results": [{"code": 200, "name": name, "status": status, "kind": "Rack"}]}


def racks_app(*, refused_delete: bool = False) -> HarBuilder:
    har = HarBuilder().call("GET", "/v1/racks", query=SHOW, response={"results": RACKS})
    for rack in RACKS:
        har.call("GET", f"/v1/racks/{rack['name']}", query=SHOW, response={"results": [rack]})
    har.call("GET", "/v1/racks/nope", query=SHOW, status=404, response=MISSING)
    har.call("POST", "/v1/racks/r2", body={"note": "moved"}, response=report("r2", "updated"))
    har.call("GET", "/v1/racks/r2", query=SHOW,
             response={"results": [{**RACKS[1], "spec": {"rows": 4, "note": ""}, "note": "moved"}]})
    if refused_delete:
        har.call("DELETE", "/v1/racks/r3", status=500,
                 response={"results": [{"code": 500, "status": "r3 cannot be deleted: other objects depend on it"}]})
        har.call("GET", "/v1/racks/r3", query=SHOW, response={"results": [RACKS[2]]})
    har.call("DELETE", "/v1/racks/r1", response=report("r1"))
    har.call("GET", "/v1/racks/r1", query=SHOW, status=404, response=MISSING)
    har.call("GET", "/v1/racks", query=SHOW, response={"results": RACKS[1:]})
    return har


def _plan(bundle, method: str):
    return next(p for p in bundle.view.writes if p.method == method)


def _get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, SHOW, (), b""))


def test_a_delete_answered_with_a_report_is_served_naming_the_entity_it_deleted():
    bundle = build_from(racks_app())
    plan = _plan(bundle, "DELETE")
    assert plan.served, (plan.reason, plan.contradicted_by)
    assert plan.response.report is not None and not plan.response.carries_entity
    assert plan.response.report.fields == ("name", "kind")
    runtime = EnvironmentRuntime(bundle)
    answer = accepted(runtime, plan.tool, {"rack_id": "r3"})
    assert answer["body"] == report("r3"), answer["body"]  # never the exemplar's r1
    gone = _get(runtime, "/v1/racks/r3")
    assert gone.status == 404 and json.loads(gone.body) == MISSING


def test_an_item_read_repeating_a_query_name_answers_from_the_state():
    bundle = build_from(racks_app())
    runtime = EnvironmentRuntime(bundle)
    shown = _get(runtime, "/v1/racks/r3")
    assert shown.status == 200 and json.loads(shown.body) == {"results": [RACKS[2]]}
    accepted(runtime, _plan(bundle, "DELETE").tool, {"rack_id": "r2"})
    assert _get(runtime, "/v1/racks/r2").status == 404


def test_an_update_answered_with_a_report_is_observed_by_its_later_read():
    plan = _plan(build_from(racks_app()), "POST")
    assert plan.response.report is not None and not plan.response.carries_entity
    assert plan.observation is not None and plan.observation != plan.exemplar


def test_a_delete_answered_500_while_its_entity_stays_held_is_not_served():
    plan = _plan(build_from(racks_app(refused_delete=True)), "DELETE")
    assert (plan.served, plan.reason) == (False, "conditional-delete"), (plan.served, plan.reason)


def test_a_repeated_query_name_matches_the_same_values_in_the_same_order():
    assert same_query(SHOW, (("show", "kind"), ("show", "spec"))) is False
    assert same_query(SHOW, (("show", "spec"), ("show", "kind")))
    assert same_query((("a", "1"), *SHOW), (*SHOW, ("a", "1")))
    assert not same_query(SHOW, (("show", "spec"),))
