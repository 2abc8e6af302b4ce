"""A split answer (``SplitAnswer``: the identity at the root, a projection of the entity under one
member) rendered from the entity as the state holds it after the call, and refused wherever the
recordings do not show what the application would answer."""

from __future__ import annotations

import pytest

from capenv.interpreter.bundle.models import AnswerPathMember, ResponseRule, SplitAnswer, WritePlan
from capenv.serving.writes.answers import render_split
from capenv.serving.writes.calls import WriteRefusal

ENTITY = {"id": 7, "name": "Ops", "descr": "on call", "created_on": "2026-12-02T11:16:40.898163"}


def _plan(projection: str, *, fields=(), id_member="id", path_members=(), sorted_members=True) -> WritePlan:
    split = SplitAnswer(id_member=id_member, entity_member="result", projection=projection, fields=fields,
                        path_members=path_members, sorted_members=sorted_members)
    recorded = {"id": 2, "result": {"descr": "recorded"}} if id_member else {"result": {"descr": "recorded"}}
    return WritePlan(tool="put_layer", method="PUT", template="/layer/{id}", effect="update", type="layer",
                     response=ResponseRule(status=200, content_type="application/json", body=recorded, split=split),
                     served=True)


def test_the_members_sent_as_held_beside_the_identity_and_the_path_value():
    plan = _plan("sent", path_members=(AnswerPathMember(member="layer", segment=2, form="number"),))
    body = render_split(plan, ENTITY, "id", {"name": "Ops", "descr": "on call"}, "/api/layer/7")
    assert body == {"id": 7, "result": {"descr": "on call", "layer": 7, "name": "Ops"}}
    assert list(body["result"]) == ["descr", "layer", "name"]


def test_fixed_fields_whatever_was_sent_without_an_identity():
    body = render_split(_plan("fixed", fields=("name", "descr"), id_member=None), ENTITY, "id", {"descr": "x"},
                        "/api/layer/7")
    assert body == {"result": {"descr": "on call", "name": "Ops"}}


def test_either_projection_answers_only_a_call_sending_exactly_its_fields():
    plan = _plan("either", fields=("descr", "name"))
    assert render_split(plan, ENTITY, "id", {"name": "Ops", "descr": "on call"}, "/api/layer/7")["result"] == \
        {"descr": "on call", "name": "Ops"}
    with pytest.raises(WriteRefusal, match="send exactly descr, name"):
        render_split(plan, ENTITY, "id", {"name": "Ops"}, "/api/layer/7")


@pytest.mark.parametrize(("plan", "sent", "path", "why"), [
    (_plan("fixed", fields=("name", "colour")), {"name": "Ops"}, "/api/layer/7", "colour, which the entity does not"),
    (_plan("sent"), {"name": "OPS"}, "/api/layer/7", "stored otherwise than sent"),
    (_plan("sent", path_members=(AnswerPathMember(member="layer", segment=2, form="number"),)), {"name": "Ops"},
     "/api/layer/x7", "the number the path spells"),
])
def test_what_no_recording_shows_is_refused(plan, sent, path, why):
    with pytest.raises(WriteRefusal, match=why):
        render_split(plan, ENTITY, "id", sent, path)
