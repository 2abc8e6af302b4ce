"""A create whose client names the entity (the identity is echoed) and whose entity links to
itself around that identity (a ``self``/``href`` URL) rebuilds the link around the identity a call
sends, when every held entity of the type shows the same text around its own identity
(``field.identity-link``); with fewer held entities, or one showing other text, the link is no
template around the identity and the create is not served."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

LINK = "http://api.test/v2/tags/"


def tag(name: str, color: str, link: str = LINK) -> dict:
    return {"name": name, "color": color, "href": f"{link}{name}"}


def tags_app(held: list[dict]) -> HarBuilder:
    new = tag("teal", "green")
    builder = HarBuilder().call("GET", "/tags", response=held)
    for entity in held:
        builder = builder.call("GET", f"/tags/{entity['name']}", response=entity)
    return (builder
            .call("POST", "/tags", body={"name": "teal", "color": "green"}, status=201, response=new)
            .call("GET", "/tags/teal", response=new)
            .call("GET", "/tags", response=[*held, new])
            .call("GET", "/tags/teal", response=new))


def create_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST")


def post(runtime: EnvironmentRuntime, body: dict):
    return runtime.http(HttpRequest("POST", "/tags", (), (("content-type", "application/json"),), dumps(body)))


def test_a_self_link_every_held_entity_shows_is_rebuilt_around_the_sent_identity():
    bundle = build_from(tags_app([tag("red", "red"), tag("blue", "blue")]))
    plan = create_plan(bundle)
    href = next(f for f in plan.fields if f.field == "href")
    assert href.rule_id == "field.identity-link" and href.op == "template"
    assert plan.served, plan.reason
    runtime = EnvironmentRuntime(bundle)
    answer = post(runtime, {"name": "plum", "color": "purple"})
    assert answer.status == 201, answer.body
    assert loads(answer.body)["href"] == f"{LINK}plum"
    read = runtime.http(HttpRequest("GET", "/tags/plum", (), (), b""))
    assert read.status == 200 and loads(read.body) == {"name": "plum", "color": "purple", "href": f"{LINK}plum"}


def test_one_held_entity_does_not_prove_the_link():
    plan = create_plan(build_from(tags_app([tag("red", "red")])))
    assert all(f.rule_id != "field.identity-link" for f in plan.fields)
    assert not plan.served


def test_a_held_entity_showing_other_text_around_its_identity_does_not_prove_it():
    held = [tag("red", "red"), tag("blue", "blue", link="http://api.test/v1/tags/")]
    plan = create_plan(build_from(tags_app(held)))
    assert all(f.rule_id != "field.identity-link" for f in plan.fields)
    assert not plan.served
