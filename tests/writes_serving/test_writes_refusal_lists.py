"""A write's refusal names the entities or collections behind it up to the bundle's budget
``values_quoted`` (rules/budgets.yaml), then says how many more: what the agent reads, never what
is accepted. The cut was three (or two, or five) written in Python before."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from capenv.serving.state.index import HeldCollection
from capenv.serving.writes import execute
from capenv.serving.writes.calls import WriteRefusal


def _folder_holding(count: int) -> HeldCollection:
    entities = {"docs": {"path": "docs"}}
    entities.update({f"docs/note{i}.md": {"path": f"docs/note{i}.md"} for i in range(count)})
    return HeldCollection(path="/contents", type="content", args={}, order=list(entities), entities=entities)


@pytest.mark.parametrize("listed, shown, more", [(8, 6, None), (4, 4, 2), (2, 2, 4)])
def test_a_delete_refused_for_the_entities_under_it_names_them_up_to_the_budget(listed: int, shown: int,
                                                                               more: int | None) -> None:
    content = SimpleNamespace(name="content", nested_ids=True)
    with pytest.raises(WriteRefusal) as refused:
        execute._refuse_nested(content, _folder_holding(6), "docs", listed)
    message = refused.value.message
    assert "6 content entities under it" in message
    assert sum(f'"docs/note{i}.md"' in message for i in range(6)) == shown
    assert (f"and {more} more" in message) == (more is not None)
