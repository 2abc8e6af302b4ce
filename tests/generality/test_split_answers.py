"""Writes answered with the identity split from the entity (Flask-AppBuilder's ``{"id": 7, "result":
{…}}``): learned from the session's answers (``write-answer-envelopes``), served from the state on
entities the session never wrote, over HTTP and MCP, and refused where no recording shows what the
application would answer (a call sending other members than every recorded call sent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.serving.runtime import EnvironmentRuntime

from .conventions import Conventions
from .holding import hold
from .scenario import PLAIN_WRITES

CASES = [
    Conventions("split-answer-sent", write_answer="split-sent"),
    Conventions("split-answer-fixed", write_answer="split-fixed"),
    Conventions("split-answer-fixed-put-data-reads", write_answer="split-fixed", update="PUT", item_shape="data",
                list_shape="data", slash=True),
]


@pytest.mark.parametrize("conventions", CASES, ids=lambda c: c.name)
def test_split_answers_are_rendered_from_the_state(conventions: Conventions, tmp_path: Path) -> None:
    patch = conventions.update == "PATCH"
    bundle, _ = hold(conventions, tmp_path, PLAIN_WRITES + (("a partial update",) if patch else ()))
    plans = {p.effect: p for p in bundle.view.writes if p.type == "notes" and p.effect in ("create", "update")}
    for effect, plan in plans.items():
        split = plan.response.split
        assert plan.served and split is not None and split.entity_member == "result", (effect, plan.reason)
        # every recorded create sent title, body and done, and so did every update but a PATCH sending
        # done alone: only that answer tells the members sent from a fixed set
        projection = conventions.write_answer.removeprefix("split-") if effect == "update" and patch else "either"
        assert split.projection == projection
        assert split.fields == (() if projection == "sent" else ("body", "done", "title"))
        expected_id = None if effect == "update" and conventions.write_answer == "split-fixed" else "id"
        assert split.id_member == expected_id
    runtime = EnvironmentRuntime(bundle)
    create, update = plans["create"].tool, plans["update"].tool
    made = runtime.call_tool(create, {"body": {"title": "Over MCP", "body": "a tool call", "done": True}})
    assert not made.is_error
    answer = made.structured["body"]
    assert answer["result"] == {"body": "a tool call", "done": True, "title": "Over MCP"}
    assert list(answer["result"]) == sorted(answer["result"])  # as every recorded answer listed them
    key = answer["id"]
    edited = runtime.call_tool(update, {"note_id": str(key), "body": {"title": "Edited", "body": "b", "done": False}})
    assert not edited.is_error
    assert edited.structured["body"]["result"] == {"body": "b", "done": False, "title": "Edited"}
    assert ("id" in edited.structured["body"]) == (conventions.write_answer == "split-sent")
    # a call sending fewer members
    partial = runtime.call_tool(update, {"note_id": str(key), "body": {"title": "Only the title"}})
    if patch:  # answered as the recorded PATCH of one member showed
        assert partial.structured["body"]["result"] == ({"title": "Only the title"} if projection == "sent" else
                                                        {"body": "b", "done": False, "title": "Only the title"})
    else:  # the application answers either that member or all three; no recording shows which
        assert partial.is_error
    held = runtime.read(next(v.tool for v in bundle.view.views if v.kind == "item" and v.type == "notes"),
                        {"note_id": str(key)})
    shown = held["body"] if conventions.item_shape == "bare" else held["body"]["data"]
    assert shown["title"] == ("Only the title" if patch else "Edited")
