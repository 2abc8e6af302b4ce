"""Clock formats: learned from a recorded value, parsed to a UTC instant, written back the same."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.predicates.clock_formats import (
    format_instant, learn_clock_format, parse_date_or_time, parse_instant,
)
from capenv.interpreter.bundle.op_params import ClockFormat


@pytest.mark.parametrize("value", [
    "2026-11-30T13:00:06Z",
    "2026-11-30T13:00:06.962Z",
    "2026-11-30T13:00:06.962746+00:00",
    "2026-11-30 13:00:06",
    "2026-11-30T15:00:06.5+0200",
    "2026-11-30T08:00:06.000-05:00",
    1796043606,
    1796043606962,
    "1796043606",
    "Thu, 03 Dec 2026 10:02:39 GMT",
    "Thu Dec 03 2026 16:47:23 GMT+0000 (Coordinated Universal Time)",
    "Thu Dec 03 2026 08:47:23 GMT-0800 (Pacific Standard Time)",
])
def test_learned_format_writes_the_recorded_value_back(value):
    fmt = learn_clock_format(value)
    assert fmt is not None
    assert format_instant(parse_instant(value, fmt), fmt) == value


def test_formats_say_where_each_part_goes():
    assert learn_clock_format("2026-11-30 13:00:06.12") == ClockFormat(style="iso", separator=" ",
                                                                      fraction_digits=2, zone="")
    assert learn_clock_format(1796043606962) == ClockFormat(style="epoch-milliseconds", as_string=False)
    assert learn_clock_format("1796043606").as_string is True
    assert learn_clock_format("Mon, 30 Nov 2026 13:00:06 GMT") == ClockFormat(style="http-date")
    assert parse_instant("Mon, 30 Nov 2026 13:00:06 GMT") == datetime(2026, 11, 30, 13, 0, 6, tzinfo=timezone.utc)
    js = "Mon Nov 30 2026 14:00:06 GMT+0100 (Central European Standard Time)"
    assert learn_clock_format(js) == ClockFormat(style="js-date", zone="+0100",
                                                 zone_name="Central European Standard Time")
    assert parse_instant(js) == datetime(2026, 11, 30, 13, 0, 6, tzinfo=timezone.utc)


@pytest.mark.parametrize("value", ["2026-11-30", "2026-11-30T13:00", "13:00:06", "2026-13-30T13:00:06Z",
                                   True, None, -5, JsonNumber("1796043606.5"), "0042", "soon",
                                   # HTTP dates other than IMF-fixdate: no GMT, a wrong weekday,
                                   # RFC 850, asctime, no leading zero
                                   "Mon, 30 Nov 2026 13:00:06 +0100", "Tue, 30 Nov 2026 13:00:06 GMT",
                                   "Monday, 30-Nov-26 13:00:06 GMT", "Mon Nov 30 13:00:06 2026",
                                   "Mon, 30 Nov 2026 13:00 GMT", "Mon, 3 Nov 2026 13:00:06 GMT",
                                   # JavaScript Date texts with a wrong weekday, no zone name, no
                                   # offset, or Date.prototype.toUTCString's and toDateString's
                                   "Tue Nov 30 2026 13:00:06 GMT+0000 (Coordinated Universal Time)",
                                   "Mon Nov 30 2026 13:00:06 GMT+0000", "Mon Nov 30 2026 13:00:06 (UTC)",
                                   "Mon Nov 30 2026"])
def test_not_a_clock(value):
    assert learn_clock_format(value) is None


def test_instants_are_utc_and_a_missing_zone_reads_as_utc():
    assert parse_instant("2026-11-30T15:00:06+02:00") == datetime(2026, 11, 30, 13, 0, 6, tzinfo=timezone.utc)
    assert parse_instant("2026-11-30 13:00:06") == datetime(2026, 11, 30, 13, 0, 6, tzinfo=timezone.utc)


def test_dates_parse_for_comparison_but_are_no_clock():
    assert parse_date_or_time("2024-05-01") == datetime(2024, 5, 1, tzinfo=timezone.utc)
    assert parse_date_or_time("not a date") is None
