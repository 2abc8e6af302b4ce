"""A create's constant field is no constant when another recorded call of the tool, sending only
members the plan accepts and not that field, made an entity the next read shows with another
value: the application fills it from something the capture does not model (Syncthing fills a
device's unsent members from a defaults document a PATCH had changed). Serving would refuse that
call for a required member it left out, so the gate never checks it; the plan says why."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

A = {"id": "alpha-one", "name": "A", "color": "red", "mode": "metadata"}
B = {"id": "beta-two", "name": "B", "color": "blue", "mode": "metadata"}


def things(later_mode: str, later_sends_mode: bool = False) -> HarBuilder:
    later = {"id": "gamma-three", "name": "G"} | ({"mode": later_mode} if later_sends_mode else {})
    return (HarBuilder()
            .call("GET", "/things", response=[A])
            .call("GET", "/things/alpha-one", response=A)
            .call("POST", "/things", body={"id": "beta-two", "name": "B", "color": "blue"}, response="",
                  response_type="")
            .call("GET", "/things/beta-two", response=B)
            .call("GET", "/things", response=[A, B])
            .call("POST", "/things", body=later, response="", response_type="")
            .call("GET", "/things/gamma-three", response={"id": "gamma-three", "name": "G", "color": "",
                                                           "mode": later_mode}))


def create(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST")


def test_a_constant_another_call_did_not_keep_leaves_the_create_unserved():
    plan = create(build_from(things("always")))
    assert plan.reason == "unexplained-change", plan.reason
    assert any("not the constant 'metadata'" in (e.reason or "") for e in plan.traces)


def test_a_constant_every_call_kept_is_served():
    plan = create(build_from(things("metadata")))
    assert plan.served, plan.reason
