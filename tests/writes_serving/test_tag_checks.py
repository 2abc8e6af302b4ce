"""A plan checking a tag header (``WritePlan.tag_check``, ``precondition.checked-tag``) applies a
call only when it names the tag of the entity as the state holds it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from capenv.interpreter.bundle.models import TagCheck
from capenv.serving.writes.calls import WriteCall, WriteRefusal, check_tag

PLAN = SimpleNamespace(tag_check=TagCheck(header="if-match", member="version", form='"{}"'))
NOTE = {"id": 4, "title": "Milk", "version": 3}


def test_the_held_tag_is_accepted_in_any_header_case() -> None:
    check_tag(PLAN, WriteCall("/notes/4", headers=(("If-Match", '"3"'),)), NOTE)


@pytest.mark.parametrize("sent,kind,says", [
    ('"2"', "precondition", 'If-Match "2" is stale: the entity\'s ETag is now "3"'),
    ("3", "precondition", "is stale"),  # unquoted: another tag than the one reads answer
    (None, "precondition-required", 'must send the If-Match header naming the entity\'s ETag as a read of it answers (now "3"'),
])
def test_a_stale_or_missing_tag_is_refused(sent: str | None, kind: str, says: str) -> None:
    call = WriteCall("/notes/4", headers=(("if-match", sent),) if sent is not None else ())
    with pytest.raises(WriteRefusal) as refused:
        check_tag(PLAN, call, NOTE)
    assert refused.value.kind == kind and says in refused.value.message


def test_an_entity_without_the_member_is_refused() -> None:
    with pytest.raises(WriteRefusal, match="holds no 'version'"):
        check_tag(PLAN, WriteCall("/notes/4", headers=(("if-match", '"3"'),)), {"id": 4})


def test_a_weak_tag_spells_a_text_member() -> None:
    plan = SimpleNamespace(tag_check=TagCheck(header="if-match", member="rev", form='W/"{}"'))
    check_tag(plan, WriteCall("/notes/4", headers=(("if-match", 'W/"2-ab"'),)), {"rev": "2-ab"})


def test_a_plan_without_a_tag_check_takes_any_call() -> None:
    check_tag(SimpleNamespace(tag_check=None), WriteCall("/notes/4"), NOTE)
