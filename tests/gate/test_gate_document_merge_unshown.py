"""A document POST or PATCH whose one call sent every member its object held (a configuration
API's header set, {"X-A": [...]} posted as {"X-A": [...], "X-B": [...]}) cannot tell a merge from
a replace: the reads after it show the same either way, so the plan stays unconfirmed
(``document-write.merge-unshown``) rather than serving a merge a replacing application would
answer otherwise (a later call leaving X-A out would keep it in the model and drop it there). A
call that left out a member the object held, which a later read shows kept, is a merge the gate
can confirm, and is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def test_a_post_sending_every_held_member_is_unconfirmed():
    har = (HarBuilder()
           .call("GET", "/config/headers", response={"X-A": ["one"]})
           .call("POST", "/config/headers", body={"X-A": ["two"], "X-B": ["three"]}, status=200, response=None)
           .call("GET", "/config/headers", response={"X-A": ["two"], "X-B": ["three"]}))
    post = plan(build_from(har), "POST", "/config/headers")
    assert not post.served
    assert post.reason == "unconfirmed"
    assert "document-write.merge-unshown" in {e.rule_id for e in post.traces if e.outcome == "match"}


def test_a_patch_leaving_a_held_member_out_is_a_merge_the_gate_confirms():
    har = (HarBuilder()
           .call("GET", "/config/options", response={"theme": "light", "pages": 10})
           .call("PATCH", "/config/options", body={"theme": "dark"}, status=200, response=None)
           .call("GET", "/config/options", response={"theme": "dark", "pages": 10}))
    patch = plan(build_from(har), "PATCH", "/config/options")
    assert patch.served, patch.reason
    assert "document-write.merge-unshown" not in {e.rule_id for e in patch.traces if e.outcome == "match"}
