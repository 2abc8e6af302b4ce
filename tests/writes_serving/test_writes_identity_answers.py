"""Creates answered with their new entity's identity alone (``write-answer-envelopes``
``answer-envelope.identity-only``: changedetection.io's 201 ``{"uuid": …}``). Rendered as the
recorded body, the answer named the entity the recording made, whatever entity the call made (a
wrong answer the live probes found); read as an acknowledgement of the identity, the entity is
observed by the later read and the answer names the one serving made. A create answered 201 with
an id the state already held, and no delete of it between, made nothing: a get-or-create, never
served as a plain create."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.serving.runtime import EnvironmentRuntime

SEED = [{"uuid": "6f1c2a9e-0b7d-4c53-9a1e-3d2f4b5c6a71", "title": "alpha", "paused": False},
        {"uuid": "0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f62", "title": "beta", "paused": True}]
MADE = [{"uuid": "a3b2c1d0-e9f8-4a7b-8c6d-5e4f3a2b1c0d", "title": "gamma", "paused": False},
        {"uuid": "9f8e7d6c-5b4a-4392-8e1f-0a9b8c7d6e5f", "title": "delta", "paused": False}]


def capture(repeat_answers: str | None = None) -> HarBuilder:
    har = HarBuilder().call("GET", "/monitors", response=SEED)
    for monitor in SEED:
        har.call("GET", f"/monitors/{monitor['uuid']}", response=monitor)
    listed = list(SEED)
    for made in MADE:
        listed.append(made)
        har = (har.call("POST", "/monitors", body={"title": made["title"]}, status=201, response={"uuid": made["uuid"]})
               .call("GET", f"/monitors/{made['uuid']}", response=made)
               .call("GET", "/monitors", response=listed))
    if repeat_answers is not None:  # a title already held, answered 201 with the held entity's uuid
        har = (har.call("POST", "/monitors", body={"title": "gamma"}, status=201, response={"uuid": repeat_answers})
               .call("GET", "/monitors", response=listed))
    return har


def test_a_create_answered_with_its_identity_alone_answers_the_entity_it_made():
    bundle = build_from(capture())
    plan = next(w for w in bundle.view.writes if w.tool == "post_monitors")
    assert plan.served, (plan.reason, plan.build_reason)
    assert plan.response.split is not None and plan.response.split.rule_id == "answer-envelope.identity-only"
    runtime = EnvironmentRuntime(bundle)
    body = accepted(runtime, "post_monitors", {"body": {"title": "epsilon"}})["body"]
    assert list(body) == ["uuid"]
    assert body["uuid"] not in {m["uuid"] for m in SEED + MADE}  # never the recorded one
    made = runtime.read("get_monitors_by_monitor_id", {"monitor_id": body["uuid"]})
    assert made["status"] == 200 and made["body"]["title"] == "epsilon", made


def test_a_201_naming_a_held_entity_is_no_plain_create():
    bundle = build_from(capture(repeat_answers=MADE[0]["uuid"]))
    plan = next(w for w in bundle.view.writes if w.tool == "post_monitors")
    assert not plan.served and plan.reason == "get-or-create", (plan.reason, plan.build_reason)


def test_a_201_naming_a_new_id_stays_a_create():
    bundle = build_from(capture(repeat_answers="5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c"))
    plan = next(w for w in bundle.view.writes if w.tool == "post_monitors")
    assert plan.reason != "get-or-create", plan.reason
