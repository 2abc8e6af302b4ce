"""A JSON Patch body (RFC 6902) read as the merge of the members it sets: what both sides take,
and what serving refuses before the state changes."""

from __future__ import annotations

import pytest

from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.writes.calls import WriteRefusal
from capenv.serving.writes.checks import refuse_unheld_patch_targets, unwrap_body

PLAN = WritePlan(tool="patch_notes", method="PATCH", template="/notes/{id}", effect="update", type="notes",
                 body_patch_ops=("replace",))


def test_replace_operations_read_as_the_members_they_set_the_later_one_winning() -> None:
    reading = read_patch([{"op": "replace", "path": "/title", "value": "a"},
                          {"op": "replace", "path": "/done", "value": True},
                          {"op": "replace", "path": "/title", "value": "b"}], ("replace",))
    assert reading.members == {"done": True, "title": "b"}
    assert reading.ops == (("replace", "title"), ("replace", "done"), ("replace", "title"))


def test_an_escaped_member_name_is_the_member() -> None:
    assert read_patch([{"op": "replace", "path": "/a~1b~0c", "value": 1}], ("replace",)).members == {"a/b~c": 1}


@pytest.mark.parametrize("body, problem", [
    ({"title": "a"}, "array of operations"),
    ([], "no operation"),
    ([{"op": "remove", "path": "/title"}], "'remove' is not served"),
    ([{"op": "add", "path": "/title", "value": 1}], "'add' is not served (accepted: replace)"),
    ([{"op": "replace", "path": "/title/0", "value": 1}], "names no top-level member"),
    ([{"op": "replace", "path": "title", "value": 1}], "names no top-level member"),
    ([{"op": "replace", "path": "/title"}], "needs a value"),
    (["replace"], "not an object"),
])
def test_other_patches_are_refused_naming_what_is_accepted(body: object, problem: str) -> None:
    assert problem in (read_patch(body, ("replace",)).problem or "")
    with pytest.raises(WriteRefusal, match="JSON Patch array of 'replace' operations"):
        unwrap_body(PLAN, body)


def test_move_is_never_served_even_when_a_plan_names_it() -> None:
    """Only the operations that set the value at their path read as a merge."""
    assert read_patch([{"op": "move", "from": "/a", "path": "/b"}], ("move",)).members is None


def test_a_replace_of_a_member_the_entity_lacks_is_refused_as_rfc_6902_does() -> None:
    body = [{"op": "replace", "path": "/colour", "value": "red"}]
    with pytest.raises(WriteRefusal, match="holds no 'colour'"):
        refuse_unheld_patch_targets(PLAN, body, {"id": 1, "title": "a"})
    refuse_unheld_patch_targets(PLAN, body, {"id": 1, "colour": "blue"})
    adding = PLAN.model_copy(update={"body_patch_ops": ("add", "replace")})
    refuse_unheld_patch_targets(adding, [{"op": "add", "path": "/colour", "value": "red"}], {"id": 1})
