"""constant, set, increment, held-version, stamp, derived."""

from __future__ import annotations

import pytest
from ops_helpers import context, rule

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.ops import UNCHANGED, OpRefusal, apply_field_rule, strip_markup


def test_constant_and_set_return_fresh_copies_of_their_value():
    for op in ("constant", "set"):
        r = rule(op, "f", value={"a": [1]})
        first = apply_field_rule(r, context())
        first["a"].append(2)
        assert apply_field_rule(r, context()) == {"a": [1]}
    assert apply_field_rule(rule("set", "archived", value=True), context(entity_before={"archived": False})) is True


def test_constant_without_its_value_is_a_plan_error():
    from capenv.serving.ops import OpParamsError
    with pytest.raises(OpParamsError, match="'constant'"):
        apply_field_rule(rule("constant", "f"), context())


@pytest.mark.parametrize("held,by,expected", [
    (1, 1, 2),
    (-1, 1, 0),
    (2**64 - 1, 1, JsonNumber(str(2**64))),
    (JsonNumber("1.50"), 1, JsonNumber("2.50")),
    (JsonNumber("1e400"), 1, JsonNumber("1" + "0" * 399 + "1")),
    (JsonNumber(str(2**70)), 2, JsonNumber(str(2**70 + 2))),
])
def test_increment_adds_exactly(held, by, expected):
    value = apply_field_rule(rule("increment", "views", by=by), context(entity_before={"views": held}))
    assert value == expected and type(value) is type(expected)
    if isinstance(expected, JsonNumber):
        assert value.text == expected.text


@pytest.mark.parametrize("before", [{}, {"views": "3"}, {"views": True}, {"views": None}])
def test_increment_refuses_a_non_number(before):
    with pytest.raises(OpRefusal, match="'views'"):
        apply_field_rule(rule("increment", "views"), context(entity_before=before))


def test_held_version_bumps_a_version_sent_as_held_and_refuses_a_stale_one():
    r = rule("held-version", "version", member="version", by=1)
    assert apply_field_rule(r, context({"version": 3}, entity_before={"version": 3})) == 4
    for body in ({"version": 2}, {"version": "3"}, {"version": True}, {}):
        with pytest.raises(OpRefusal, match="must be sent as the entity holds it: 3"):
            apply_field_rule(r, context(body, entity_before={"version": 3}))
    with pytest.raises(OpRefusal, match="holds none"):
        apply_field_rule(r, context({"version": 1}, entity_before={}))


def test_stamp_takes_the_created_by_counterpart_and_refuses_without_it():
    before = {"createdByName": "Ada", "modifiedByName": "Bob"}
    assert apply_field_rule(rule("stamp", "modifiedByName", from_field="createdByName"),
                            context(entity_before=before)) == "Ada"
    with pytest.raises(OpRefusal, match="'createdById'"):
        apply_field_rule(rule("stamp", "modifiedById", from_field="createdById"), context(entity_before=before))


def test_strip_markup_uses_the_html_parser():
    html = '<h1>Title</h1><p>Hello &amp; <b>welcome</b><br>next</p><script>x<1</script><!-- c --><p>a &lt; b</p>'
    assert strip_markup(html) == "Title\n\nHello & welcome\nnext\n\na < b"
    assert strip_markup("plain text") == "plain text"


def test_derived_shows_the_member_text_and_keeps_the_field_when_not_sent():
    r = rule("derived", "plaintext", member="html")
    assert apply_field_rule(r, context({"html": "<p>Some text here</p>"}, entity_before={})) == "Some text here"
    assert apply_field_rule(r, context({}, entity_before={"plaintext": "x"})) is UNCHANGED
    assert apply_field_rule(rule("derived", "p", member="m", markup="none"), context({"m": "<b>"}, entity_before={})) == "<b>"


def test_derived_is_served_only_on_an_entity_holding_from():
    r = rule("derived", "plaintext", member="html", requires_from=True, from_value=None, value="Recorded text")
    assert apply_field_rule(r, context({"html": "<p>x</p>"}, entity_before={"plaintext": None})) == "Recorded text"
    with pytest.raises(OpRefusal, match="'plaintext'"):
        apply_field_rule(r, context({"html": "<p>x</p>"}, entity_before={"plaintext": "Recorded text"}))
    with pytest.raises(OpRefusal, match="'plaintext'"):
        apply_field_rule(r, context({"html": "<p>x</p>"}, entity_before={}))


def test_derived_refuses_a_non_string_member():
    with pytest.raises(OpRefusal, match="must be a string"):
        apply_field_rule(rule("derived", "plaintext", member="html"), context({"html": 3}, entity_before={}))
