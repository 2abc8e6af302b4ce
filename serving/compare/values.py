"""What a value looks like: a clock reading, or an identity the application generated.

Two sides never agree on the time they answered at, nor on a random id; such values are
compared by *format* (both ISO-8601 with microseconds and ``Z``, both epoch milliseconds,
both UUIDs), which still catches a model that writes the wrong kind of value. An epoch clock
held as a string of digits (CouchDB's ``instance_start_time``) is its own format, ``epoch-ms-text``:
a number never agrees with a string. A clock shown
relative to the moment of the read ("now", "7 seconds ago", "in 2 hours") is one format too:
the same unchanged entity reads otherwise a second later, on the application itself. Its words
are the build side's rule ``list-projection.relative-time`` (rules/view-list-projections.yaml),
read as data, so the two never disagree on what such a time is.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Any

from capenv.interpreter.bundle.js_dates import parse_js_date
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.bundle.values import entity_tag_opaque
from capenv.interpreter.bundle.rule_data import rule_params, setting_value

_ISO_DATETIME = re.compile(  # a date and a time apart by T, a space, or a dot (Roundup's 2026-12-02.19:14:27)
    r"^\d{4}-\d{2}-\d{2}[T .]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$")
_HTTP_DATE = re.compile(
    r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} "
    r"\d{2}:\d{2}:\d{2} GMT$")
# 2000-01-01 .. 2100-01-01: a number in these bounds is read as a clock, not a count.
_EPOCH_SECONDS = (946_684_800, 4_102_444_800)
_EPOCH_MILLISECONDS = (946_684_800_000, 4_102_444_800_000)

# Digits with no sign, point or leading zero: how an epoch clock reads when held as a string.
_EPOCH_TEXT = re.compile(r"^[1-9][0-9]*$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")
_HEX = re.compile(r"^[0-9a-f]{16,}$|^[0-9A-F]{16,}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def clock_format(value: Any) -> str | None:
    """A name for the clock format of ``value`` (``iso:dddd-dd-ddTdd:dd:dd.ddddddZ``,
    ``epoch-ms``, ...), or None when it does not look like a clock reading."""
    if isinstance(value, str):
        if _ISO_DATETIME.match(value):
            return "iso:" + re.sub(r"\d", "d", value)
        if _HTTP_DATE.match(value):
            return "http-date"
        js_date = parse_js_date(value)
        if js_date is not None:  # JavaScript's Date text: its zone is part of the format
            return f"js-date:{js_date[1]}:{js_date[2]}"
        if _relative_time().fullmatch(value):
            return "relative-time"
        if _EPOCH_TEXT.match(value):  # an epoch clock spelled as a JSON string ("1796254634881")
            epoch = _epoch_format(Decimal(value))
            return None if epoch is None else epoch + "-text"
        return None
    number = as_decimal(value)
    if number is None:
        return None
    if number == number.to_integral_value() and not _is_fraction_text(value):
        return _epoch_format(number)
    if _EPOCH_SECONDS[0] <= number < _EPOCH_SECONDS[1]:
        return "epoch-s-fraction"
    return None


_ISO_FRACTION = re.compile(r"^(.*:\d{2}\.)(\d+)(.*)$")


def clock_formats_agree(live: Any, model: Any) -> bool:
    """Two clock readings of one format: ``clock_format`` alike, or two ISO-8601 readings with
    nanosecond fractions written without their trailing zeros, as Go's RFC3339Nano writes them
    (``…55.94423691Z`` is the instant ``…55.944236910Z``): the same text outside the fraction, both
    fractions 7 to 9 digits, and the shorter one ending in no zero. The application writes the
    same field one digit shorter once in ten readings, so a fixed width is no format of its."""
    live_format = clock_format(live)
    if live_format is None:
        return False
    model_format = clock_format(model)
    if live_format == model_format:
        return True
    if model_format is None or not live_format.startswith("iso:") or not model_format.startswith("iso:"):
        return False
    live_parts, model_parts = _ISO_FRACTION.match(live), _ISO_FRACTION.match(model)
    if live_parts is None or model_parts is None:
        return False
    shape = [re.sub(r"\d", "d", parts[1] + "|" + parts[3]) for parts in (live_parts, model_parts)]
    lengths = (len(live_parts[2]), len(model_parts[2]))
    least, most = setting_value("clocks", "trimmed_fraction_digits")
    if shape[0] != shape[1] or lengths[0] == lengths[1] or not all(least <= n <= most for n in lengths):
        return False
    shorter = live_parts[2] if lengths[0] < lengths[1] else model_parts[2]
    return not shorter.endswith("0")


def _epoch_format(number: Decimal) -> str | None:
    """``epoch-ms`` or ``epoch-s`` for a whole number in those bounds, else None."""
    if _EPOCH_MILLISECONDS[0] <= number < _EPOCH_MILLISECONDS[1]:
        return "epoch-ms"
    if _EPOCH_SECONDS[0] <= number < _EPOCH_SECONDS[1]:
        return "epoch-s"
    return None


@functools.cache
def _relative_time() -> re.Pattern[str]:
    """The rule's pattern, matched as its predicate matches it: the whole string, any case."""
    pattern = rule_params("view-list-projections", "list-projection.relative-time")["pattern"]
    return re.compile(pattern, re.IGNORECASE)


def entity_tag_format(value: Any) -> str | None:
    """The shape of an HTTP entity tag held as a string member (``"\"<40 hex>\""``: Mailman's
    ``http_etag``), or None. A tag is the application's own version of what it answers (often a
    hash of it, clocks included), which no model can reproduce: two tags agree by shape, as two
    clock readings agree by format, while every other member is still compared. The shape is the
    tag's strength and length."""
    opaque = entity_tag_opaque(value)
    if opaque is None:
        return None
    weak = "W/" if value.startswith("W/") else ""
    return f"{weak}tag{len(opaque)}"  # its alphabet is the application's (a hash's hex digits) to choose


def generated_format(value: Any) -> str | None:
    """A name for the shape of an id the application made up, or None.

    Plain words (``articles``) and numbers are not generated-looking: a sequence id is
    deterministic and must agree, and a name is data."""
    if not isinstance(value, str):
        return None
    if _UUID.match(value):
        return "uuid"
    if _ULID.match(value):
        return "ulid"
    if _HEX.match(value):
        return f"hex{len(value)}"
    if _TOKEN.match(value) and _mixes_classes(value):
        return f"token{len(value)}"
    return None


_EMBEDDED = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z0-9]+")


def drawn_format(value: Any) -> str | None:
    """The shape of a value an application may draw anew at each start: a generated id
    (``generated_format``; a token of letters only as long as ``min_drawn_token`` at least, so a
    name in camel case, ``CapenvWiki``, is none), or a text holding one among other text
    (``!vNJdrMGWuKGqfrchYy:example.test``, ``mlflow-artifacts:/2/<32 hex>/artifacts/model``), its
    generated parts and its runs of at least ``min_drawn_digits`` digits (a clock, a counter of the
    start) named by their shape; None for a text holding none (``Talk:Getting_started``, ``issue1``)."""
    if not isinstance(value, str):
        return None
    whole = _drawn_part(value)
    if whole is not None:
        return whole
    least = setting_value("compare-explore", "min_drawn_digits")
    generated: list[str] = []

    def shape(match: re.Match[str]) -> str:
        part = match.group(0)
        found = _drawn_part(part)
        if found is not None:
            generated.append(found)
            return f"\x00{found}\x00"
        return "\x00digits\x00" if part.isdigit() and len(part) >= least else part  # a clock's fraction: any length

    shaped = _EMBEDDED.sub(shape, value)
    return "embedded:" + shaped if generated else None


def _drawn_part(text: str) -> str | None:
    found = generated_format(text)
    if found is None or not found.startswith("token"):
        return found
    if len(text) < setting_value("compare-explore", "min_drawn_token"):
        return None
    if text.isalpha():  # letters alone: random when both cases are frequent, not words in camel case
        share = setting_value("compare-explore", "drawn_letter_case_share")
        upper = sum(1 for c in text if c.isupper()) / len(text)
        if min(upper, 1 - upper) < share:
            return None
    return found


def _mixes_classes(text: str) -> bool:
    """Random-looking: both cases (``hzgpKu-H``, ``9J0yOgYS``), or 12+ letters and digits run
    together. Names people write (``articles``, ``flow-r1-0``) are not."""
    if any(c.islower() for c in text) and any(c.isupper() for c in text):
        return True
    return (len(text) >= 12 and text.isalnum() and any(c.isdigit() for c in text)
            and any(c.isalpha() for c in text))


def as_decimal(value: Any) -> Decimal | None:
    """A JSON number's exact value (never a boolean's), or None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, JsonNumber):
        return value.value
    if isinstance(value, float):
        return Decimal(repr(value))
    return None


def fractions_agree(live: Any, model: Any) -> bool:
    """Two fractional numbers equal to within ``fraction_relative_tolerance`` of the larger
    (rules/compare-explore.yaml): floating-point arithmetic moves in its last digits between builds
    of an application's numeric libraries."""
    if not (_is_fraction_text(live) and _is_fraction_text(model)):
        return False
    a, b = as_decimal(live), as_decimal(model)
    return a is not None and b is not None and abs(a - b) <= _fraction_tolerance() * max(abs(a), abs(b))


@functools.cache
def _fraction_tolerance() -> Decimal:
    """The setting, read once (every differing fraction of every compared answer asks for it)."""
    return Decimal(str(setting_value("compare-explore", "fraction_relative_tolerance")))


def _is_fraction_text(value: Any) -> bool:
    text = value.text if isinstance(value, JsonNumber) else repr(value)
    return isinstance(value, (float, JsonNumber)) and "." in text
