"""The shape of a body member's value, for members the application validates by shape rather than
against a set (``ValidatedValue.by_shape``).

Synapse refuses a registration token holding a space, a negative ``uses_allowed`` and an
``expiry_time`` in the past (1000 where the successful call sent 1830297600000), while the
successful values are each the client's own: no set to accept from, but a shape to keep to. A
string's shape is the character classes it draws on (``0`` digits, ``a`` lower case, ``A`` upper
case, any other character as itself); an integer's its sign and number of digits. A value is
shaped like the accepted ones when a string draws only on classes they drew on, or an integer has
the sign and digit count of one of them.
"""

from __future__ import annotations

import re
from typing import Any


def _classes(text: str) -> set[str]:
    return {"0" if c.isdigit() else "a" if c.islower() else "A" if c.isupper() else c for c in text}


def _integer_shape(value: int) -> tuple[bool, int]:
    return value < 0, len(str(abs(value)))


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def value_shape(value: Any) -> str | None:
    """A short text naming the value's shape (``integer +13``, ``string a0-``), or None for a
    value of no such shape (a boolean, an object, a fraction, null)."""
    if _is_integer(value):
        negative, digits = _integer_shape(value)
        return f"integer {'-' if negative else '+'}{digits}"
    if isinstance(value, str):
        return "string " + "".join(sorted(_classes(value)))
    return None


def forbidden_classes(refused: Any, accepted: tuple[Any, ...] | list[Any]) -> set[str]:
    """The character classes the refused string drew on that no accepted string did."""
    if not isinstance(refused, str):
        return set()
    return _classes(refused) - set().union(*(_classes(a) for a in accepted if isinstance(a, str)))


def shaped_like(value: Any, accepted: tuple[Any, ...] | list[Any], refused: Any = None) -> bool:
    """Whether ``value`` keeps to the shapes of ``accepted``: an integer of the sign and digit
    count of one of them; a string drawing on none of the character classes the ``refused`` string
    drew on and no accepted one did (a space, where the refusal held one). An equal value always does."""
    if any(value == a and type(value) is type(a) for a in accepted):
        return True
    if _is_integer(value):
        return any(_is_integer(a) and _integer_shape(a) == _integer_shape(value) for a in accepted)
    if isinstance(value, str):
        forbidden = forbidden_classes(refused, accepted)
        return not (_classes(value) & forbidden) if refused is not None else False
    return False


def shape_schema(accepted: tuple[Any, ...] | list[Any], refused: Any = None) -> dict[str, Any] | None:
    """JSON Schema keywords saying the shapes of ``accepted`` (a pattern leaving out the refused
    string's new characters, integer ranges), or None when they say nothing a schema can."""
    if isinstance(refused, str):
        forbidden = sorted(forbidden_classes(refused, accepted))
        if not forbidden:
            return None
        parts = [{"0": "0-9", "a": "a-z", "A": "A-Z"}.get(c, re.escape(c).replace("]", r"\]")) for c in forbidden]
        return {"pattern": f"^[^{''.join(parts)}]*$"}
    integers = [a for a in accepted if _is_integer(a)]
    if not integers:
        return None
    ranges = []
    for negative, digits in sorted({_integer_shape(a) for a in integers}):
        low, high = (10 ** (digits - 1) if digits > 1 else 0), 10 ** digits - 1
        ranges.append({"type": "integer", **({"minimum": -high, "maximum": -low} if negative
                                             else {"minimum": low, "maximum": high})})
    return ranges[0] if len(ranges) == 1 else {"anyOf": ranges}
