"""renewed: each UUID at the pointers replaced alike across the call, in each place's letter case."""

from __future__ import annotations

from ops_helpers import context, rule

from capenv.serving.ops import UNCHANGED, apply_field_rules, renewal_uuid
from capenv.serving.ops.generated_ids import is_uuid

A = "0b6f6a9e-6f1c-4c1e-9d3e-2a1b3c4d5e6f"
B = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
REF = "11111111-2222-4333-8444-555555555555"


def _entity():
    return {
        "rows": [{"id": A, "ref": REF, "n": 1}, {"id": B, "ref": REF}, {"id": None}],
        "index": {"first": A.upper(), "ids": [B.upper(), "not-a-uuid"]},
    }


def test_renewed_across_two_fields_and_both_letter_cases():
    before = _entity()
    rules = [rule("renewed", "rows", pointers=["/*/id"]), rule("renewed", "index", pointers=["/first", "/ids/*"])]
    ctx = context(entity_before=before, write_counter=5)
    values = apply_field_rules(rules, ctx)
    new_a, new_b = renewal_uuid("ev-test", "createPost", 5, 0), renewal_uuid("ev-test", "createPost", 5, 1)
    assert values["rows"] == [{"id": new_a, "ref": REF, "n": 1}, {"id": new_b, "ref": REF}, {"id": None}]
    assert values["index"] == {"first": new_a.upper(), "ids": [new_b.upper(), "not-a-uuid"]}
    assert before == _entity()  # the held entity is not touched
    assert ctx.renewals == {A: new_a, B: new_b}
    assert is_uuid(new_a) and new_a != new_b


def test_renewed_is_deterministic_and_new_per_write():
    r = [rule("renewed", "rows", pointers=["/*/id"])]
    first = apply_field_rules(r, context(entity_before=_entity(), write_counter=5))
    assert apply_field_rules(r, context(entity_before=_entity(), write_counter=5)) == first
    assert apply_field_rules(r, context(entity_before=_entity(), write_counter=6)) != first


def test_held_values_are_not_skipped():
    new_a = renewal_uuid("ev-test", "createPost", 5, 0)
    ctx = context(entity_before=_entity(), write_counter=5, held={"rows": {new_a}})
    assert apply_field_rules([rule("renewed", "rows", pointers=["/*/id"])], ctx)["rows"][0]["id"] == new_a


def test_an_entity_without_the_field_is_left_without_it():
    from capenv.serving.ops import apply_field_rule
    assert apply_field_rule(rule("renewed", "rows", pointers=["/*/id"]), context(entity_before={})) is UNCHANGED
    assert apply_field_rule(rule("renewed", "rows", pointers=["/*/id"]), context()) is UNCHANGED


def test_a_pointer_that_is_no_json_pointer_is_a_plan_error():
    import pytest

    from capenv.serving.ops import OpParamsError, apply_field_rule
    with pytest.raises(OpParamsError, match="rows/"):
        apply_field_rule(rule("renewed", "rows", pointers=["rows/*/id"]), context(entity_before=_entity()))
