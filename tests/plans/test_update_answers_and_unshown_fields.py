"""An update checked against what its type's reads can show: a member that changes by itself (a
time shown relative to the read) is nothing of the update, and a column only the list shows is not
dropped by an item read lacking it. An update whose answer shows the entity's fields under one member
without its id is rendered from the state (``write-answer-envelopes``); one showing the values it sent
beside anything else is no answer serving can render: answered as recorded, another call would be
told the exemplar's values (another entity's), so it stays unserved (body-unusable)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

T1 = {"id": 1, "name": "Dark", "css": "body {}"}
T2 = {"id": 2, "name": "Print", "css": "nav {}"}
MISSING = {"message": "Not found"}


def item(entity: dict, age: str) -> dict:
    return {**entity, "changed": age}


def listed(entity: dict, age: str) -> dict:
    return {**entity, "changed": age, "created_on": f"2026-12-02T10:00:0{entity['id']}.000000"}


def templates_app(answer) -> HarBuilder:
    """``answer``: the PUT's answer for the entity after the call (None: an acknowledgement)."""
    updated = {**T1, "css": "body { color: red; }"}
    return (HarBuilder()
            .call("GET", "/templates/1", response=item(T1, "now"))
            .call("GET", "/templates/2", response=item(T2, "now"))
            .call("GET", "/templates/1", response=item(T1, "a second ago"))
            .call("GET", "/templates", response=[listed(T1, "2 seconds ago"), listed(T2, "2 seconds ago")])
            .call("PUT", "/templates/1", body={"css": updated["css"]},
                  response={"message": "OK"} if answer is None else answer(updated))
            .call("GET", "/templates/1", response=item(updated, "now"))
            .call("GET", "/templates", response=[listed(updated, "2 seconds ago"), listed(T2, "3 seconds ago")])
            .call("GET", "/templates/9", status=404, response=MISSING))


def test_relative_times_and_list_only_columns_leave_an_update_explained():
    update = plan(build_from(templates_app(None)), "PUT", "/templates/{template_id}")
    assert update.build_reason is None, update.build_reason


def test_an_answer_showing_the_entitys_fields_without_the_id_is_rendered_from_the_state():
    """Superset's CSS template PUT: ``{"result": {css, name}}``, the name unsent (write-answer-envelopes)."""
    answer = lambda entity: {"result": {"css": entity["css"], "name": entity["name"]}}  # noqa: E731
    update = plan(build_from(templates_app(answer)), "PUT", "/templates/{template_id}")
    split = update.response.split
    assert update.served and split is not None and not update.response.carries_entity
    assert (split.id_member, split.entity_member, split.projection, split.fields) == (None, "result", "fixed",
                                                                                       ("css", "name"))


def test_an_answer_showing_the_sent_values_beside_another_member_is_unusable():
    answer = lambda entity: {"ok": True, "result": {"css": entity["css"], "name": entity["name"]}}  # noqa: E731
    update = plan(build_from(templates_app(answer)), "PUT", "/templates/{template_id}")
    assert not update.served and update.build_reason == "body-unusable"
