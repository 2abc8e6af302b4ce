"""The write's clock in recorded formats: format_instant/parse_instant, clock, nested-clock, held-clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ops_helpers import INSTANT, context, rule

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.bundle.op_params import ClockFormat
from capenv.serving.ops import OpParamsError, OpRefusal, apply_field_rule, format_instant, parse_instant

ISO_MILLIS6_Z = ClockFormat(style="iso", fraction_digits=6, zone="Z")
ISO_SPACE_NAIVE = ClockFormat(style="iso", separator=" ", zone="")
ISO_OFFSET = ClockFormat(style="iso", zone="+00:00")
EPOCH_MS = ClockFormat(style="epoch-milliseconds", as_string=False)
EPOCH_S = ClockFormat(style="epoch-seconds", as_string=False)
EPOCH_S_TEXT = ClockFormat(style="epoch-seconds")


@pytest.mark.parametrize("value,clock", [
    ("2026-11-30T13:04:16.455000Z", ISO_MILLIS6_Z),
    ("2026-11-30 13:04:16", ISO_SPACE_NAIVE),
    ("2026-11-30T13:04:16+00:00", ISO_OFFSET),
    ("2026-11-30T13:04:16.455+0000", ClockFormat(style="iso", fraction_digits=3, zone="+0000")),
    ("2026-11-30T15:04:16+02:00", ClockFormat(style="iso", zone="+02:00")),
    (1796044043497, EPOCH_MS),
    ("1796044043497", ClockFormat(style="epoch-milliseconds")),
    (1796044043, EPOCH_S),
    ("1796044043", EPOCH_S_TEXT),
    (JsonNumber("1796044043.497"), ClockFormat(style="epoch-seconds", fraction_digits=3, as_string=False)),
    ("Mon, 30 Nov 2026 13:04:16 GMT", ClockFormat(style="http-date")),
    ("Mon Nov 30 2026 13:04:16 GMT+0000 (Coordinated Universal Time)",
     ClockFormat(style="js-date", zone="+0000", zone_name="Coordinated Universal Time")),
    ("Mon Nov 30 2026 14:04:16 GMT+0100 (Central European Standard Time)",
     ClockFormat(style="js-date", zone="+0100", zone_name="Central European Standard Time")),
])
def test_recorded_clocks_round_trip(value, clock):
    instant = parse_instant(value, clock)
    assert instant.tzinfo is not None
    written = format_instant(instant, clock)
    assert written == value and type(written) is type(value)


def test_format_keeps_the_recorded_spelling():
    assert format_instant(INSTANT, ISO_MILLIS6_Z) == "2026-11-30T13:04:16.455000Z"
    assert format_instant(INSTANT, ISO_SPACE_NAIVE) == "2026-11-30 13:04:16"
    assert format_instant(INSTANT, ISO_OFFSET) == "2026-11-30T13:04:16+00:00"
    assert format_instant(INSTANT, ClockFormat(style="iso", fraction_digits=3)) == "2026-11-30T13:04:16.455Z"
    assert format_instant(INSTANT, ClockFormat(style="iso", fraction_digits=9)) == "2026-11-30T13:04:16.455000000Z"
    assert format_instant(INSTANT, ClockFormat(style="iso", zone="-0530")) == "2026-11-30T07:34:16-0530"
    assert format_instant(INSTANT, EPOCH_MS) == 1796043856455
    assert format_instant(INSTANT, ClockFormat(style="http-date")) == "Mon, 30 Nov 2026 13:04:16 GMT"
    assert format_instant(INSTANT, ClockFormat(style="js-date", zone="-0500", zone_name="Eastern Standard Time")) \
        == "Mon Nov 30 2026 08:04:16 GMT-0500 (Eastern Standard Time)"
    assert format_instant(INSTANT, EPOCH_S) == 1796043856
    assert format_instant(INSTANT, EPOCH_S_TEXT) == "1796043856"


def test_fractions_truncate_never_round():
    late = datetime(2026, 1, 1, 0, 0, 0, 999999, tzinfo=timezone.utc)
    assert format_instant(late, ClockFormat(style="iso", fraction_digits=3)) == "2026-01-01T00:00:00.999Z"
    assert format_instant(late, ClockFormat(style="epoch-seconds", as_string=False)) == 1767225600


def test_parse_refuses_another_style():
    with pytest.raises(ValueError):
        parse_instant(1796044043, ISO_OFFSET)
    with pytest.raises(ValueError):
        parse_instant(True, EPOCH_S)
    with pytest.raises(ValueError):
        parse_instant("soon", EPOCH_S_TEXT)


clock_formats = st.one_of(
    st.builds(ClockFormat, style=st.just("iso"), separator=st.sampled_from(["T", " "]),
              fraction_digits=st.integers(0, 9),
              zone=st.sampled_from(["Z", "+00:00", "+0000", "", "+05:30", "-0800", "+02"])),
    st.builds(ClockFormat, style=st.just("epoch-seconds"), fraction_digits=st.integers(0, 6),
              as_string=st.booleans()),
    st.builds(ClockFormat, style=st.just("epoch-milliseconds"), as_string=st.booleans()),
    st.builds(ClockFormat, style=st.just("http-date")),
    st.builds(ClockFormat, style=st.just("js-date"), zone=st.sampled_from(["+0000", "+0530", "-0800"]),
              zone_name=st.sampled_from(["Coordinated Universal Time", "India Standard Time"])),
)
instants = st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2200, 1, 1),
                        timezones=st.just(timezone.utc))


def _truncated(instant: datetime, clock: ClockFormat) -> datetime:
    digits = 3 if clock.style == "epoch-milliseconds" else 0 if clock.style in ("http-date", "js-date") or (
        clock.style == "epoch-seconds" and not clock.fraction_digits) else min(clock.fraction_digits, 6)
    unit = 10 ** (6 - digits)
    return instant.replace(microsecond=instant.microsecond // unit * unit)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine draws slowly
@given(instants, clock_formats)
def test_format_parse_round_trip(instant, clock):
    written = format_instant(instant, clock)
    assert parse_instant(written, clock) == _truncated(instant, clock)
    assert format_instant(parse_instant(written, clock), clock) == written


def test_clock_op_and_a_bad_zone():
    assert apply_field_rule(rule("clock", "created_at", format=ISO_MILLIS6_Z.model_dump()), context()) == \
        "2026-11-30T13:04:16.455000Z"
    with pytest.raises(OpParamsError, match="zone"):
        apply_field_rule(rule("clock", "created_at", format={"style": "iso", "zone": "CET"}), context())


def test_nested_clock_updates_only_its_members():
    before = {"meta": {"updated": "old", "at": {"seen": 1}, "note": "kept"}}
    clocks = {"/updated": ISO_OFFSET.model_dump(), "/at/seen": EPOCH_S.model_dump()}
    value = apply_field_rule(rule("nested-clock", "meta", clocks=clocks), context(entity_before=before))
    assert value == {"updated": "2026-11-30T13:04:16+00:00", "at": {"seen": 1796043856}, "note": "kept"}
    assert before["meta"]["updated"] == "old"


def test_nested_clock_on_a_create_keeps_the_exemplar_object():
    clocks = {"/t": EPOCH_MS.model_dump()}
    value = apply_field_rule(rule("nested-clock", "meta", clocks=clocks, base={"t": 0, "v": 1}), context())
    assert value == {"t": 1796043856455, "v": 1}


@pytest.mark.parametrize("before", [{}, {"meta": None}, {"meta": "text"}, {"meta": {"other": 1}}])
def test_nested_clock_refuses_an_entity_holding_no_such_object(before):
    with pytest.raises(OpRefusal, match="'meta'"):
        apply_field_rule(rule("nested-clock", "meta", clocks={"/t": EPOCH_MS.model_dump()}),
                         context(entity_before=before))


def test_grouped_members_writes_the_sent_members_its_group_holds_and_stamps_its_clocks():
    """ZenML's body group: color sent into it, updated stamped, name (at the top) and a member no
    group holds, or two groups hold, left to their own rules."""
    before = {"name": "n", "body": {"updated": "old", "color": "red", "exclusive": False, "note": "kept"},
              "meta": {"note": "m"}}
    r = rule("grouped-members", "body", clocks={"/updated": ISO_OFFSET.model_dump()})
    value = apply_field_rule(r, context({"color": "purple", "name": "x", "other": 1, "note": "sent"},
                                        entity_before=before))
    assert value == {"updated": "2026-11-30T13:04:16+00:00", "color": "purple", "exclusive": False, "note": "kept"}
    assert before["body"]["color"] == "red"
    with pytest.raises(OpRefusal, match="'body'"):
        apply_field_rule(r, context({"color": "purple"}, entity_before={"body": None}))


def test_grouped_members_on_a_create_builds_the_exemplars_object():
    r = rule("grouped-members", "body", clocks={"/updated": ISO_OFFSET.model_dump()},
             base={"updated": "old", "color": "red", "exclusive": False}, members=["color"])
    assert apply_field_rule(r, context({"color": "blue", "name": "x"})) == \
        {"updated": "2026-11-30T13:04:16+00:00", "color": "blue", "exclusive": False}
    with pytest.raises(OpRefusal, match="'color'"):
        apply_field_rule(r, context({"name": "x"}))


def test_held_clock_takes_the_write_clock_once_sent_as_held():
    r = rule("held-clock", "updated_at", member="updated_at", format=ClockFormat(style="iso", fraction_digits=3).model_dump())
    held = {"updated_at": "2026-11-30T13:00:00.000Z"}
    assert apply_field_rule(r, context({"updated_at": "2026-11-30T13:00:00.000Z"}, entity_before=held)) == \
        "2026-11-30T13:04:16.455Z"
    with pytest.raises(OpRefusal, match="2026-11-30T13:00:00.000Z"):
        apply_field_rule(r, context({"updated_at": "2026-11-30T12:00:00.000Z"}, entity_before=held))
    with pytest.raises(OpRefusal, match="'updated_at'"):
        apply_field_rule(r, context({}, entity_before=held))


def test_the_clock_advances_with_the_instant():
    r = rule("clock", "t", format=EPOCH_S.model_dump())
    first = apply_field_rule(r, context())
    assert apply_field_rule(r, context(instant=INSTANT + timedelta(seconds=1))) == first + 1
