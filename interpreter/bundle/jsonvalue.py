"""Exact JSON: numbers keep their value and spelling through load and dump.

A float is kept as the text it was written with, and an integer outside the 64-bit range
(which orjson cannot write) likewise, as a ``JsonNumber``. Integers inside the range stay
``int``. ``dumps`` writes a ``JsonNumber`` back verbatim, so data/get output loads back
unchanged. Every module that reads or writes state JSON goes through this one codec.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal, InvalidOperation
from typing import Any, Iterator

import orjson

from .excerpt import excerpt

_INT64_MIN = -(2**63)
_UINT64_MAX = 2**64 - 1


class JsonNumber:
    """A JSON number kept as its exact text (a float, or an integer past 64 bits)."""

    __slots__ = ("text", "_value")

    def __init__(self, text: str) -> None:
        try:
            value = Decimal(text)
        except InvalidOperation as exc:  # pragma: no cover - guarded by the parser
            raise ValueError(f"not a JSON number: {text!r}") from exc
        if not value.is_finite():
            raise ValueError(f"not a finite JSON number: {text!r}")
        self.text = text
        self._value = value

    @property
    def value(self) -> Decimal:
        return self._value

    def is_integral(self) -> bool:
        return self._value == self._value.to_integral_value()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonNumber):
            return self._value == other._value
        if isinstance(other, bool):
            return False
        if isinstance(other, (int, float)):
            return self._value == Decimal(other) if not isinstance(other, float) else float(self._value) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __lt__(self, other: Any) -> bool:
        return self._value < _decimal(other)

    def __gt__(self, other: Any) -> bool:
        return self._value > _decimal(other)

    def __le__(self, other: Any) -> bool:
        return self._value <= _decimal(other)

    def __ge__(self, other: Any) -> bool:
        return self._value >= _decimal(other)

    def __repr__(self) -> str:
        return f"JsonNumber({self.text!r})"


def _decimal(value: Any) -> Decimal:
    if isinstance(value, JsonNumber):
        return value.value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(value)
    raise TypeError(f"cannot compare a JSON number with {type(value).__name__}")


class JsonError(ValueError):
    """The text is not JSON this codec accepts; the message says where and why."""


class ProtoMemberError(JsonError):
    """A ``__proto__`` member, refused everywhere state can enter."""


def _parse_int(text: str) -> int | JsonNumber:
    try:
        number = int(text)
    except ValueError:  # past Python's integer-string limit (sys.get_int_max_str_digits)
        raise JsonError(f"an integer of {len(text.lstrip('-'))} digits is past the "
                        f"{sys.get_int_max_str_digits()} digits this server reads") from None
    if _INT64_MIN <= number <= _UINT64_MAX:
        return number
    return JsonNumber(text)


def _parse_float(text: str) -> JsonNumber:
    try:
        return JsonNumber(text)
    except ValueError:  # an exponent past what a decimal can hold
        raise JsonError(f"the number {excerpt(text, 40)} is out of range (its exponent is past what this server reads)") from None


def _reject_constant(name: str) -> Any:
    raise JsonError(f"{name} is not JSON")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        result[key] = value
    return result


def _object_no_proto(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    for key, _ in pairs:
        if key == "__proto__":
            raise ProtoMemberError("a __proto__ member is not accepted")
    return _object(pairs)


_DECODER = json.JSONDecoder(parse_float=_parse_float, parse_int=_parse_int, parse_constant=_reject_constant,
                            object_pairs_hook=_object)
_DECODER_NO_PROTO = json.JSONDecoder(parse_float=_parse_float, parse_int=_parse_int,
                                     parse_constant=_reject_constant, object_pairs_hook=_object_no_proto)


def loads(text: str | bytes, *, allow_proto: bool = True) -> Any:
    """Parse JSON keeping exact numbers. Raises ``JsonError`` with the position on bad input."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"not UTF-8 text at byte {exc.start}") from exc
    decoder = _DECODER if allow_proto else _DECODER_NO_PROTO
    try:
        value, end = decoder.raw_decode(text, _skip_ws(text, 0))
    except json.JSONDecodeError as exc:
        raise JsonError(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise JsonError("nesting too deep") from exc
    if _skip_ws(text, end) != len(text):
        raise JsonError(f"extra data after the JSON value at offset {end}")
    return value


def _skip_ws(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\n\r":
        index += 1
    return index


def _default(value: Any) -> Any:
    if isinstance(value, JsonNumber):
        return orjson.Fragment(value.text.encode())
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="python")
    raise TypeError(f"{type(value).__name__} is not JSON")


dumps_default = _default
"""What ``dumps`` gives orjson for a value it cannot write itself (a caller calling orjson directly on a hot path)."""


def dumps(value: Any, *, sort_keys: bool = False, indent: bool = False) -> bytes:
    """Write JSON; ``JsonNumber`` values are written verbatim."""
    option = 0
    if sort_keys:
        option |= orjson.OPT_SORT_KEYS
    if indent:
        option |= orjson.OPT_INDENT_2
    return orjson.dumps(value, default=_default, option=option)


def canonical(value: Any) -> bytes:
    """Sorted keys, no spaces: the bytes hashes are taken over."""
    return dumps(value, sort_keys=True)


def is_exact(value: Any) -> bool:
    """True when every number in ``value`` writes back as the value it reads as (no NaN, no lossy float)."""
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(is_exact(v) for v in value.values())
    if isinstance(value, list):
        return all(is_exact(v) for v in value)
    return True


def depth(value: Any) -> int:
    """Nesting depth: a scalar is 0, ``[]`` and ``{}`` are 1."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            level += 1
            stack.extend((v, level) for v in item.values())
        elif isinstance(item, list):
            level += 1
            stack.extend((v, level) for v in item)
        deepest = max(deepest, level)
    return deepest


def json_kind(value: Any) -> str:
    """The JSON type name of a value: object, array, string, integer, number, boolean, null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, JsonNumber):
        return "integer" if value.is_integral() and "." not in value.text and "e" not in value.text.lower() else "number"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"{type(value).__name__} is not JSON")


def integral(value: Any) -> int | None:
    """An integral JSON number as an int (never a boolean, never a float's text), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, JsonNumber) and "." not in value.text and "e" not in value.text.lower():
        return int(value.value)
    return None


def from_client(value: Any) -> Any:
    """JSON a client library parsed (floats, unbounded ints) in this codec's exact form: a finite
    float becomes the ``JsonNumber`` of its shortest round-trip text, an integer past 64 bits a
    ``JsonNumber``; NaN and infinities are refused (``JsonError``). Containers are copied."""
    kind = type(value)  # the usual values, told apart by their exact type (every served call's arguments)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict:
        copied = {}
        for key, item in value.items():  # a plain leaf is taken here, without a call per member
            leaf = type(item)
            copied[key] = item if (leaf is str or leaf is bool or item is None or (
                leaf is int and _INT64_MIN <= item <= _UINT64_MAX)) else from_client(item)
        return copied
    if kind is list:
        copied_list = []
        for item in value:  # a loop: a comprehension makes a function per call
            copied_list.append(from_client(item))
        return copied_list
    if kind is int and _INT64_MIN <= value <= _UINT64_MAX:
        return value
    return _from_client_other(value)


def _from_client_other(value: Any) -> Any:
    """``from_client`` of a float, a large integer, a subclass of a JSON type or anything else."""
    import math

    if isinstance(value, float):
        if not math.isfinite(value):
            raise JsonError(f"{value!r} is not a JSON number")
        return JsonNumber(repr(value))
    if isinstance(value, int) and not isinstance(value, bool):
        if _INT64_MIN <= value <= _UINT64_MAX:
            return value
        try:
            return JsonNumber(str(value))
        except ValueError:  # past Python's integer-string limit
            raise JsonError(f"an integer past the {sys.get_int_max_str_digits()} digits this server reads") from None
    if isinstance(value, dict):
        return {key: from_client(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_client(item) for item in value]
    return value


def strings_in(value: Any) -> Iterator[str]:
    """Every string a JSON value holds, at any depth (object members' values, array elements)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for member in value.values():
            yield from strings_in(member)
    elif isinstance(value, list):
        for element in value:
            yield from strings_in(element)


def texts_in(value: Any, names: bool = True) -> set[str]:
    """The strings of a JSON value at any depth, its members' names too unless ``names`` is False."""
    found: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if names:
                found.update(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found
