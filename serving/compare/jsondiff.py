"""A short JSON diff of two answers once generated values are mapped between the sides.

Comparison is by value (DESIGN.md §6): object member order does not matter, array order
does, ``1`` equals ``1.0`` but never ``true``. A leaf pair is *not* a difference when

* the values are equal;
* the pair is mapped: the same probe saved them at the same pointer, or they first appeared
  as a generated-looking id at the same place of a write's answer (``ValueMap``);
* both are clock readings of the same format (``values.clock_formats_agree``: nanosecond fractions
  written without their trailing zeros are one format), or HTTP entity tags of
  the same shape (``values.entity_tag_format``);
* both are strings equal once mapped values inside them are swapped (a URL holding an id);
* both are strings holding JSON text of an object or an array that agree by these same rules (a
  history event's ``detail`` keeps the entity as it was, clocks included, as JSON text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from capenv.interpreter.bundle.pointers import escape_token

from .values import as_decimal, clock_formats_agree, entity_tag_format, fractions_agree, generated_format

MIN_SUBSTRING_LENGTH = 6
"""Mapped values shorter than this are not swapped inside longer strings: ``4`` is in too much."""


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


ABSENT = _Absent()
"""A member or element one side has and the other has not."""


@dataclass(frozen=True)
class Difference:
    pointer: str
    """A JSON pointer into the body, or ``status`` / ``content-type`` / ``body`` (not JSON)."""
    live: Any
    model: Any


def _key(value: Any) -> tuple[str, Any]:
    """Hashable and type-exact: ``1`` and ``true`` and ``"1"`` are three keys."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    number = as_decimal(value)
    if number is not None:
        return ("number", number.normalize())
    return ("other", repr(value))


class ValueMap:
    """Pairs of (live value, model value) that name the same thing on each side; each value
    is in at most one pair."""

    def __init__(self) -> None:
        self._pairs: list[tuple[Any, Any]] = []

    def pair(self, live: Any, model: Any, *, force: bool = False) -> bool:
        """Record a pair; refused (False) when either value is already paired with another,
        unless ``force`` (a probe's own save is authoritative and replaces those pairs)."""
        lk, mk = _key(live), _key(model)
        clashing = [(l, m) for l, m in self._pairs if (_key(l) == lk) != (_key(m) == mk)]
        if clashing and not force:
            return False
        self._pairs = [(l, m) for l, m in self._pairs if _key(l) != lk and _key(m) != mk]
        self._pairs.append((live, model))
        for live_part, model_part in _generated_segments(live, model):
            self.pair(live_part, model_part)  # a clash leaves the segment unpaired
        return True

    def maps(self, live: Any, model: Any) -> bool:
        lk, mk = _key(live), _key(model)
        return any(_key(l) == lk and _key(m) == mk for l, m in self._pairs)

    def live_value(self, model: Any) -> Any:
        """The live value ``model`` is paired with, or ``model`` itself."""
        mk = _key(model)
        return next((l for l, m in self._pairs if _key(m) == mk), model)

    def model_value(self, live: Any) -> Any:
        """The model value ``live`` is paired with, or ``live`` itself."""
        lk = _key(live)
        return next((m for l, m in self._pairs if _key(l) == lk), live)

    def restore(self, pairs: list[tuple[Any, Any]]) -> None:
        """Back to ``pairs`` (an earlier ``pairs()``): a judgement taken back takes back what it paired."""
        self._pairs = list(pairs)

    def pairs(self) -> list[tuple[Any, Any]]:
        return list(self._pairs)

    def with_pairs(self, pairs: list[tuple[Any, Any]]) -> ValueMap:
        """A copy pairing ``pairs`` too, each where neither of its values is paired otherwise."""
        copied = ValueMap()
        copied._pairs = list(self._pairs)
        for live, model in pairs:
            copied.pair(live, model)
        return copied

    def swap_out(self, text: str, side: str) -> str:
        """``text`` with every mapped string value of ``side`` (``live`` or ``model``)
        replaced by a marker common to both sides; longest values first."""
        ordered = sorted(enumerate(self._pairs), key=lambda item: -max(len(str(item[1][0])), len(str(item[1][1]))))
        for number, (live, model) in ordered:
            value = live if side == "live" else model
            if isinstance(value, str) and len(value) >= MIN_SUBSTRING_LENGTH:
                text = text.replace(value, f"\x00{number}\x00")
        return text


def _generated_segments(live: Any, model: Any) -> list[tuple[str, str]]:
    """Two paths (or URLs) naming the same thing that differ only in segments each side made up
    (an href around the id each drew): those segments name the same thing too, so text holding
    them elsewhere (a resource name around the id, ``prn:…:<uuid>``) agrees alike."""
    if not isinstance(live, str) or not isinstance(model, str) or "/" not in live or live == model:
        return []
    live_parts, model_parts = live.split("/"), model.split("/")
    if len(live_parts) != len(model_parts):
        return []
    differing = [(a, b) for a, b in zip(live_parts, model_parts) if a != b]
    if not all(generated_format(a) is not None and generated_format(a) == generated_format(b) for a, b in differing):
        return []
    return differing


PairingAllowed = Callable[[Any, Any], bool]


def diff_json(live: Any, model: Any, values: ValueMap, *, may_pair: PairingAllowed | None = None,
              pointer: str = "") -> list[Difference]:
    """The differences between two JSON values, outermost first, in document order."""
    found: list[Difference] = []
    _walk(live, model, pointer, values, may_pair, found)
    return found


def _walk(live: Any, model: Any, pointer: str, values: ValueMap, may_pair: PairingAllowed | None,
          found: list[Difference]) -> None:
    if isinstance(live, dict) and isinstance(model, dict):
        for name in [*live, *(k for k in model if k not in live)]:
            child = f"{pointer}/{_escape(name)}"
            if name not in model or name not in live:
                found.append(Difference(child, live.get(name, ABSENT), model.get(name, ABSENT)))
            else:
                _walk(live[name], model[name], child, values, may_pair, found)
        return
    if isinstance(live, list) and isinstance(model, list):
        for index in range(max(len(live), len(model))):
            child = f"{pointer}/{index}"
            if index >= len(live) or index >= len(model):
                found.append(Difference(child, live[index] if index < len(live) else ABSENT,
                                        model[index] if index < len(model) else ABSENT))
            else:
                _walk(live[index], model[index], child, values, may_pair, found)
        return
    if not leaf_agrees(live, model, values, may_pair):
        found.append(Difference(pointer, live, model))


def leaf_agrees(live: Any, model: Any, values: ValueMap, may_pair: PairingAllowed | None = None) -> bool:
    if json_equal(live, model) or values.maps(live, model):
        return True
    if clock_formats_agree(live, model) or fractions_agree(live, model):
        return True
    live_tag = entity_tag_format(live)
    if live_tag is not None and live_tag == entity_tag_format(model):
        return True
    if isinstance(live, str) and isinstance(model, str) \
            and values.swap_out(live, "live") == values.swap_out(model, "model"):
        return True
    shape = generated_format(live)
    if shape is not None and shape == generated_format(model) and may_pair is not None and may_pair(live, model):
        return values.pair(live, model)
    live_json, model_json = _embedded_json(live), _embedded_json(model)
    if live_json is not None and model_json is not None:
        return not diff_json(live_json, model_json, values, may_pair=may_pair)
    return False


def _embedded_json(value: Any) -> dict | list | None:
    """The object or array a string holds as JSON text, else None (a plain string, or a scalar)."""
    if not isinstance(value, str) or value[:1] not in ("{", "["):
        return None
    try:
        held = json.loads(value)
    except ValueError:
        return None
    return held if isinstance(held, (dict, list)) else None


def json_equal(a: Any, b: Any) -> bool:
    """Equality by JSON value: numbers numerically, booleans only with booleans."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    na, nb = as_decimal(a), as_decimal(b)
    if na is not None or nb is not None:
        return na is not None and nb is not None and na == nb
    return type(a) is type(b) and a == b


def _escape(name: str) -> str:
    return escape_token(name)
