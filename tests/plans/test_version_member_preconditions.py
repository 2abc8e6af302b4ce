"""A precondition carried in the body (Roundup takes the item's ``@etag`` as a body member in place of
an ``If-Match`` header, and answers 412 when it is stale): an update tool every successful call of
which sent the version, in the header or in the body, gets no plan (``precondition.version-member``),
since serving cannot check the version and would apply a stale call. Regression: such a tool was
planned as an ordinary update, the ``@etag`` member one its recorded calls sent."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

TAG = {"id": "4", "name": "perf"}


def capture(second_call_header: bool, second_call_member: bool) -> HarBuilder:
    renamed = {**TAG, "name": "performance"}
    again = {**TAG, "name": "speed"}
    body = {"name": "speed", **({"@etag": '"0a1b"'} if second_call_member else {})}
    return (HarBuilder().call("GET", "/tags", response=[TAG])
            .call("GET", "/tags/4", response=TAG)
            .call("PUT", "/tags/4", body={"name": "performance"}, headers=[("If-Match", '"9f8e"')], response=renamed)
            .call("GET", "/tags/4", response=renamed)
            .call("PUT", "/tags/4", body=body, headers=[("If-Match", '"0a1b"')] if second_call_header else None,
                  response=again)
            .call("GET", "/tags/4", response=again)
            .call("GET", "/tags", response=[again]))


def plan(bundle):
    return next(p for p in bundle.view.writes if p.tool.startswith("put_tags"))


def test_the_version_in_the_header_or_the_body_is_a_precondition():
    bundle = build_from(capture(second_call_header=False, second_call_member=True))
    put = plan(bundle)
    assert not put.served and put.reason == "precondition-header"
    assert any(e.rule_id == "precondition.version-member" and e.outcome == "match" for e in put.traces)


def test_a_call_with_neither_keeps_the_plan():
    """One recorded call wrote with no version at all: the application does not require one."""
    bundle = build_from(capture(second_call_header=False, second_call_member=False))
    assert plan(bundle).reason != "precondition-header"


def wrapped_capture(second_call_member: bool) -> HarBuilder:
    """``capture`` in the root-key convention: every tag answered, and every body sent, as the one
    element of an array under ``tags``."""
    renamed = {**TAG, "name": "performance"}
    again = {**TAG, "name": "speed"}
    body = {"name": "speed", **({"@etag": '"0a1b"'} if second_call_member else {})}
    return (HarBuilder().call("GET", "/tags", response={"tags": [TAG]})
            .call("GET", "/tags/4", response={"tags": [TAG]})
            .call("PUT", "/tags/4", body={"tags": [{"name": "performance"}]}, headers=[("If-Match", '"9f8e"')],
                  response={"tags": [renamed]})
            .call("GET", "/tags/4", response={"tags": [renamed]})
            .call("PUT", "/tags/4", body={"tags": [body]}, response={"tags": [again]})
            .call("GET", "/tags/4", response={"tags": [again]})
            .call("GET", "/tags", response={"tags": [again]}))


def test_the_version_member_is_read_inside_the_bodies_envelope():
    """The body member carrying the version is read as the plan's members read it, inside its
    envelope ({"tags": [{…, "@etag": …}]}): read whole, no call sent it and the update was served."""
    put = plan(build_from(wrapped_capture(second_call_member=True)))
    assert put.body_envelope == "tags"
    assert not put.served and put.reason == "precondition-header"
    assert any(e.rule_id == "precondition.version-member" and e.outcome == "match" for e in put.traces)
    assert plan(build_from(wrapped_capture(second_call_member=False))).reason != "precondition-header"
