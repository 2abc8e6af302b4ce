"""UUIDs and tokens: derived from the Evidence id, tool, field and write counter; held values skipped."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ops_helpers import context, rule

from capenv.serving.ops import OpParamsError, OpRefusal, apply_field_rule, derive_token, derive_uuid, token_shape
from capenv.serving.ops.generated_ids import UUID_SHAPE, is_uuid


def test_uuid_is_version_4_shaped_and_deterministic():
    first = derive_uuid("ev-1", "createPost", "id", 7)
    assert UUID_SHAPE.fullmatch(first) and first == first.lower()
    assert first[14] == "4" and first[19] in "89ab"
    assert derive_uuid("ev-1", "createPost", "id", 7) == first


@pytest.mark.parametrize("change", [
    dict(evidence_id="ev-2"), dict(tool="createNote"), dict(field="uuid"), dict(write_counter=8),
])
def test_every_input_changes_the_uuid(change):
    base = dict(evidence_id="ev-1", tool="createPost", field="id", write_counter=7)
    assert derive_uuid(**{**base, **change}) != derive_uuid(**base)


def test_held_uuids_are_skipped_in_either_letter_case():
    first = derive_uuid("ev", "t", "id", 1)
    second = derive_uuid("ev", "t", "id", 1, {first})
    assert second != first and UUID_SHAPE.fullmatch(second)
    assert derive_uuid("ev", "t", "id", 1, {first.upper()}) == second
    assert derive_uuid("ev", "t", "id", 1, {first, second}) not in {first, second}


def test_identity_and_unique_ops_generate_uuids():
    ctx = context(write_counter=3)
    value = apply_field_rule(rule("identity", "id", format="uuid"), ctx)
    assert is_uuid(value) and value == derive_uuid("ev-test", "createPost", "id", 3)
    assert apply_field_rule(rule("identity", "id", format="uuid"), context(write_counter=4)) != value
    upper = apply_field_rule(rule("unique", "version", format="uuid", uppercase=True), context(write_counter=3))
    assert upper == derive_uuid("ev-test", "createPost", "version", 3).upper()
    held = apply_field_rule(rule("unique", "version", format="uuid"), context(write_counter=3, held={"version": {upper}}))
    assert held.upper() != upper


def test_token_keeps_length_classes_and_separators():
    shape = token_shape(20, "aA9_", {4: "-", 9: "-"})
    token = derive_token("ev", "t", "key", 1, shape)
    assert len(token) == 20 and token[4] == "-" and token[9] == "-"
    free = token[:4] + token[5:9] + token[10:]
    assert set(free) <= set(string.ascii_letters + string.digits + "_")
    assert any(c.islower() for c in free) and any(c.isupper() for c in free) and any(c.isdigit() for c in free)
    assert derive_token("ev", "t", "key", 1, shape) == token
    assert derive_token("ev", "t", "key", 2, shape) != token
    assert derive_token("ev", "t", "key", 1, shape, {token}) != token


def test_token_ops_and_plan_errors():
    value = apply_field_rule(rule("identity", "id", format="token", length=12, classes="a9"), context())
    assert len(value) == 12 and set(value) <= set(string.ascii_lowercase + string.digits)
    value = apply_field_rule(rule("unique", "etag", format="token", length=32), context())
    assert len(value) == 32 and value.isalnum()
    with pytest.raises(OpParamsError, match="length"):
        apply_field_rule(rule("unique", "etag", format="token"), context())
    with pytest.raises(OpParamsError, match="separator"):
        apply_field_rule(rule("unique", "etag", format="token", length=4, separators={4: "-"}), context())


@pytest.mark.parametrize("classes, digits", [("x", "0123456789abcdef"), ("X", "0123456789ABCDEF")])
def test_hexadecimal_tokens_draw_only_hexadecimal_digits(classes, digits):
    for counter in range(50):
        value = apply_field_rule(rule("identity", "id", format="token", length=24, classes=classes),
                                 context(write_counter=counter))
        assert len(value) == 24 and set(value) <= set(digits)


def test_a_token_space_the_type_holds_entirely_is_refused():
    held = {"code": {str(d) for d in range(10)}}
    with pytest.raises(OpRefusal, match="'code'"):
        apply_field_rule(rule("identity", "code", format="token", length=1, classes="9"), context(held=held))


@given(length=st.integers(1, 64), classes=st.sets(st.sampled_from(["a", "A", "9", "_", "-"]), min_size=1),
       counter=st.integers(0, 10**9), data=st.data())
def test_tokens_keep_their_shape(length, classes, counter, data):
    positions = data.draw(st.sets(st.integers(0, length - 1), max_size=max(0, length - 1)))
    separators = {p: data.draw(st.sampled_from(["-", ".", ":"])) for p in positions}
    classes = "".join(sorted(classes))
    shape = token_shape(length, classes, separators)
    token = derive_token("ev", "tool", "field", counter, shape)
    alphabet = "".join({"a": string.ascii_lowercase, "A": string.ascii_uppercase, "9": string.digits}.get(c, c)
                       for c in classes)
    assert len(token) == length
    for index, char in enumerate(token):
        assert char == separators[index] if index in separators else char in alphabet
    free = [c for i, c in enumerate(token) if i not in separators]
    required = [set(v) for k, v in (("a", string.ascii_lowercase), ("A", string.ascii_uppercase),
                                    ("9", string.digits)) if k in classes]
    if len(required) <= len(free):
        assert all(r & set(free) for r in required)
