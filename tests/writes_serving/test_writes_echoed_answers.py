"""Echoed answers (``write-answer-envelopes`` ``answer-envelope.echoed``): a create answered with
its identity and exactly the members its call sent, while the later read of the entity holds more
(Unleash's tag type create answers ``{name, description}``, its read adds ``icon`` and ``color``), is
observed by that read and served with just those members of the entity it made."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.serving.runtime import EnvironmentRuntime

SEED = [{"name": "plain", "description": "Plain kinds", "icon": "#", "color": "#FFFFFF"}]


def capture(answer_whole: bool = False) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/kinds", response={"kinds": SEED})
           .call("GET", "/kinds/plain", response=SEED[0]))
    for name, description in (("team", "Owning team"), ("region", "Where it runs")):
        made = {"name": name, "description": description, "icon": None, "color": None}
        har.call("POST", "/kinds", body={"name": name, "description": description}, status=201,
                 response=made if answer_whole else {"name": name, "description": description})
        har.call("GET", f"/kinds/{name}", response=made)
    return har.call("GET", "/kinds", response={"kinds": [*SEED, {"name": "team", "description": "Owning team",
                                                                 "icon": None, "color": None},
                                                         {"name": "region", "description": "Where it runs",
                                                          "icon": None, "color": None}]})


def test_a_create_answering_its_body_is_observed_by_the_read_and_answers_only_the_body():
    bundle = build_from(capture())
    plan = next(w for w in bundle.view.writes if w.tool == "post_kinds")
    assert plan.served, (plan.reason, plan.build_reason)
    assert plan.response.split is not None and plan.response.split.projection == "acknowledged"
    runtime = EnvironmentRuntime(bundle)
    body = accepted(runtime, "post_kinds", {"body": {"name": "ops", "description": "Operations"}})["body"]
    assert body == {"name": "ops", "description": "Operations"}
    made = runtime.read("get_kinds_by_kind_id", {"kind_id": "ops"})["body"]
    assert made == {"name": "ops", "description": "Operations", "icon": None, "color": None}


def test_a_create_answering_the_whole_entity_is_no_echo():
    plan = next(w for w in build_from(capture(answer_whole=True)).view.writes if w.tool == "post_kinds")
    assert plan.response.split is None
