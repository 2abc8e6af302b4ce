"""A refusal quotes the value a call sent, whatever JSON number it is: an integer past 64 bits sent to
a member accepted only with recorded values is refused with a message, never an internal error."""

from __future__ import annotations

import pytest

from capenv.serving.catalog.argument_schema import ArgumentSchema
from capenv.serving.read_call import CallRefused

SCHEMA = {"type": "object", "properties": {"body": {"type": "object", "properties": {
    "training": {"type": "integer", "enum": [4], "description": "the application validates it"}}}}}


@pytest.mark.parametrize("member,value", [("training", 2**64), ("training", -(2**70))])
def test_a_value_past_64_bits_is_quoted_in_the_refusal(member, value):
    with pytest.raises(CallRefused) as refused:
        ArgumentSchema(SCHEMA, "post_day").check({"body": {member: value}}, lambda: "a body")
    assert str(value) in str(refused.value)
