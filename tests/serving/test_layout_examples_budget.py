"""A body member validated by a text layout shows the texts recorded calls succeeded with as its
schema's examples, as many as the bundle's budget ``described_values`` (rules/budgets.yaml), not a
count written in Python."""

from __future__ import annotations

import pytest

from capenv.interpreter.bundle.models import ValidatedValue
from capenv.serving.catalog.write_inputs import _layout_schema

_COLOURS = ("#a0b1c2", "#00ff00", "#123456", "#abcdef", "#fedcba")


@pytest.mark.parametrize("described", [1, 3, 5])
def test_a_layouts_examples_follow_the_budget(described: int) -> None:
    validated = ValidatedValue(member="color", accepted=_COLOURS, rule_id="validated.text-layout", record=3,
                               status=400, layout="^#[0-9a-f]{6}$")
    schema = _layout_schema(validated, described)
    assert schema["pattern"] == "^#[0-9a-f]{6}$"
    assert schema["examples"] == list(_COLOURS[:described])

