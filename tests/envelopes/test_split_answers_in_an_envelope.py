"""Split answers (``write-answer-envelopes``: Flask-AppBuilder's ``{"id": 7, "result": {…}}``) of an
application answering every call in one envelope, ``{"data": …}``: the table is asked at the
answers' root and, where no rule takes it, inside the one object every answer holds beside scalars
only (``SplitAnswer.within``); serving renders the split there, the rest as recorded. Before, such an
update was "body-unusable" (an opaque ``data``, showing none of the members sent)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import ResponseRule, SplitAnswer, WritePlan
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.writes.answers import render_split


def template(n: int, name: str, css: str) -> dict:
    return {"id": n, "template_name": name, "css": css, "changed_by": "admin"}


def wrapped(answer: object) -> dict:
    return {"data": answer}


def app(envelope=wrapped) -> HarBuilder:
    one, two = template(1, "Dark", "a{}"), template(2, "Light", "b{}")
    one_b, two_b = {**one, "css": "x{}"}, {**two, "template_name": "Pale", "css": "y{}"}
    return (HarBuilder()
            .call("GET", "/api/css_template", response=envelope({"count": 2, "result": [one, two]}))
            .call("GET", "/api/css_template/1", response=envelope({"id": 1, "result": one}))
            .call("GET", "/api/css_template/2", response=envelope({"id": 2, "result": two}))
            .call("GET", "/api/css_template/9", status=404, response={"message": "Not found"})
            .call("PUT", "/api/css_template/1", body={"css": "x{}"},
                  response=envelope({"result": {"css": "x{}", "template_name": "Dark"}}))
            .call("GET", "/api/css_template/1", response=envelope({"id": 1, "result": one_b}))
            .call("PUT", "/api/css_template/2", body={"template_name": "Pale", "css": "y{}"},
                  response=envelope({"result": {"css": "y{}", "template_name": "Pale"}}))
            .call("GET", "/api/css_template/2", response=envelope({"id": 2, "result": two_b}))
            .call("GET", "/api/css_template", response=envelope({"count": 2, "result": [one_b, two_b]})))


def test_the_split_is_found_inside_the_envelope_and_served():
    bundle = build_from(app())
    update = plan(bundle, "PUT", "/api/css_template/{css_template_id}")
    assert update.served, update.build_reason
    split = update.response.split
    assert (split.within, split.entity_member, split.projection, split.fields) == (
        ("data",), "result", "fixed", ("css", "template_name"))
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read(update.tool, {"css_template_id": "1", "body": {"template_name": "Night", "css": "n{}"}})["body"]
    assert answer == {"data": {"result": {"css": "n{}", "template_name": "Night"}}}


def test_the_same_answers_at_the_root_are_split_there():
    split = plan(build_from(app(envelope=lambda answer: answer)), "PUT", "/api/css_template/{css_template_id}"
                 ).response.split
    assert split.within == () and split.entity_member == "result"


def test_the_split_is_rendered_inside_the_recorded_envelope():
    split = SplitAnswer(entity_member="result", projection="fixed", fields=("name",), within=("data",))
    recorded = {"data": {"result": {"name": "recorded"}}}
    write = WritePlan(tool="put_layer", method="PUT", template="/layer/{id}", effect="update", type="layer",
                      response=ResponseRule(status=200, content_type="application/json", body=recorded, split=split),
                      served=True)
    body = render_split(write, {"id": 7, "name": "Ops"}, "id", {"name": "Ops"}, "/layer/7")
    assert body == {"data": {"result": {"name": "Ops"}}}
    assert recorded["data"]["result"] == {"name": "recorded"}  # the plan's own answer is left as it was


def test_scalars_beside_the_values_sent_are_no_envelope():
    """``{"ok": true, "result": {…}}`` stays unusable (``test_update_answers_and_unshown_fields``):
    only an envelope of one member is looked inside."""
    update = plan(build_from(app(envelope=lambda answer: {"ok": True, **answer} if "id" not in answer
                                 and "count" not in answer else answer)), "PUT", "/api/css_template/{css_template_id}")
    assert update.response.split is None and not update.served


def tag(n: str, name: str, created: str, updated: str) -> dict:
    return {"id": n, "name": name, "createdAt": created, "updatedAt": updated}


def tags_app() -> HarBuilder:
    """n8n's tags in the root-key convention: a rename answers the identity, the name sent and the
    clock it moved ({"tags": [{id, name, updatedAt}]}), the read adds createdAt."""
    a = tag("Aa1", "ops", "2025-12-30T00:00:00.000Z", "2025-12-30T00:00:00.000Z")
    b = tag("Bb2", "web", "2025-12-31T00:00:00.000Z", "2025-12-31T00:00:00.000Z")
    # each rename's clock the moment of its call (the builder's calls start 100 ms apart)
    a2, b2 = {**a, "name": "infra", "updatedAt": "2026-01-01T00:00:00.310Z"}, \
        {**b, "name": "www", "updatedAt": "2026-01-01T00:00:00.510Z"}
    return (HarBuilder()
            .call("GET", "/tags", response={"tags": [a, b]})
            .call("GET", "/tags/Aa1", response={"tags": [a]})
            .call("GET", "/tags/Bb2", response={"tags": [b]})
            .call("PUT", "/tags/Aa1", body={"tags": [{"name": "infra"}]},
                  response={"tags": [{"id": "Aa1", "name": "infra", "updatedAt": a2["updatedAt"]}]})
            .call("GET", "/tags/Aa1", response={"tags": [a2]})
            .call("PUT", "/tags/Bb2", body={"tags": [{"name": "www"}]},
                  response={"tags": [{"id": "Bb2", "name": "www", "updatedAt": b2["updatedAt"]}]})
            .call("GET", "/tags/Bb2", response={"tags": [b2]})
            .call("GET", "/tags", response={"tags": [a2, b2]}))


def test_the_split_is_found_in_a_list_of_one_and_rendered_there():
    """An acknowledging answer as the one element of an array under the answer's one member: the
    table is asked inside it (``within`` the member and ``0``), and serving renders it there; before,
    the answer read at its root held no identity and the update was refused."""
    bundle = build_from(tags_app())
    update = plan(bundle, "PUT", "/tags/{tag_id}")
    assert update.served, update.build_reason
    split = update.response.split
    assert (split.within, split.projection) == (("tags", "0"), "acknowledged")
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read(update.tool, {"tag_id": "Aa1", "body": {"tags": [{"name": "core"}]}})["body"]
    (renamed,) = answer["tags"]
    assert list(answer) == ["tags"] and set(renamed) == {"id", "name", "updatedAt"}
    assert (renamed["id"], renamed["name"]) == ("Aa1", "core")
    assert runtime.read("get_tags_by_tag_id", {"tag_id": "Aa1"})["body"]["tags"][0]["name"] == "core"
