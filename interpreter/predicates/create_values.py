"""Helpers the create predicates share: JSON text, delimited tokens, pointers, slugs, token shapes.

No predicate is registered here. Words and thresholds come from the rule tables as params;
these functions only take them.
"""

from __future__ import annotations

from capenv.interpreter.bundle.pointers import escape_token

import re
from collections import deque
from functools import lru_cache
from typing import Any, Iterable, Iterator

from capenv.interpreter.bundle.jsonvalue import JsonNumber, integral
from capenv.interpreter.bundle.values import same_json

# ``same_json`` is re-exported: the create predicates compare JSON values one way (bool is not 1).
__all__ = ["alnum_lower", "as_integer", "escape_pointer", "fullmatch", "json_text", "leaf_texts",
           "pointers_breadth_first", "reference_suffix", "same_json", "slugify", "token_shape", "token_spans",
           "without_reference"]


def json_text(value: Any) -> str | None:
    """The text a scalar shows inside other text: a string itself, a number its JSON spelling."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, JsonNumber):
        return value.text
    return None


def as_integer(value: Any) -> int | None:
    """An integral JSON number as an int (never a boolean), else None."""
    return integral(value)


def token_spans(text: str, token: str, delimiters: str) -> list[tuple[int, int]]:
    """Where ``token`` occurs in ``text`` as a delimited token: each side is an end of the text
    or a delimiter character, so ``4`` is a token of ``/posts/4`` but not of ``/posts/14``."""
    if not token:
        return []
    spans, start = [], text.find(token)
    while start >= 0:
        end = start + len(token)
        before_ok = start == 0 or text[start - 1] in delimiters
        after_ok = end == len(text) or text[end] in delimiters
        if before_ok and after_ok:
            spans.append((start, end))
            start = text.find(token, end)
        else:
            start = text.find(token, start + 1)
    return spans


def leaf_texts(value: Any) -> Iterator[str]:
    """The texts of every string and number inside a JSON value (object keys aside)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
        else:
            text = json_text(item)
            if text is not None:
                yield text


def escape_pointer(key: str) -> str:
    """One pointer token, escaped as RFC 6901 says (``jsonpointer``'s own ``escape``)."""
    return escape_token(key)


def pointers_breadth_first(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (JSON pointer, value) under ``value``, shallowest first, in document order."""
    queue: deque[tuple[str, Any]] = deque([("", value)])
    while queue:
        pointer, item = queue.popleft()
        if pointer:
            yield pointer, item
        if isinstance(item, dict):
            queue.extend((f"{pointer}/{escape_pointer(k)}", v) for k, v in item.items())
        elif isinstance(item, list):
            queue.extend((f"{pointer}/{i}", v) for i, v in enumerate(item))


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def fullmatch(pattern: str, text: str) -> bool:
    return _compiled(pattern).fullmatch(text) is not None


def slugify(text: str, kept: str) -> str:
    """Lower case, every run of characters outside the ``kept`` class joined by one ``-``."""
    runs = _compiled(f"[^{kept}]+")
    return runs.sub("-", text.lower()).strip("-")


def token_shape(value: str, siblings: Iterable[str], pooled_min_classes: int | None = None,
                hex_min_chars: int | None = None) -> dict[str, Any]:
    """Length, character classes and separator positions of a token, as the contract writes them.

    A character other than a letter or digit is a separator where every sibling of the same
    length holds it at the same place (a formatted key), else it belongs to the alphabet (a
    nanoid's ``_`` and ``-``). With no sibling each one is taken as a separator.
    With ``pooled_min_classes``, a sibling of the same length holding characters other than
    letters and digits exactly at the separators, that shows that many classes (lower, upper,
    digits) or more, as a random token does, adds its classes to the alphabet: one value of a
    random generator may lack a class by chance (a 10-character token of 62 characters holds no
    digit one time in six), where the type's other tokens show it.
    Separator positions are string keys (``{"8": "-"}``): the shape lands in a plan's rule and in
    its decision trace, both written as JSON, whose objects have string keys (the op's contract
    ``dict[int, str]`` reads them back as integers).
    With ``hex_min_chars``, letters and digits that are all hexadecimal digits of one case across
    the value and its siblings of the same length and separators, that many characters or more with
    a letter among them, are the class ``x`` (or ``X``): a random token of letters and digits keeps
    to a-f that long only by a vanishing chance, so the generator must too (an ObjectId, a digest).
    """
    same_length = [s for s in siblings if isinstance(s, str) and len(s) == len(value) and s != value]
    separators: dict[str, str] = {}
    extras: set[str] = set()
    for index, char in enumerate(value):
        if char.isascii() and char.isalnum():
            continue
        if all(s[index] == char for s in same_length):
            separators[str(index)] = char
        else:
            extras.add(char)
    shown = [value]
    if pooled_min_classes is not None:
        shown += [s for s in same_length if _same_separators(s, separators)
                  and len(_letter_digit_classes(s)) >= pooled_min_classes]
    found = set().union(*(_letter_digit_classes(text) for text in shown))
    classes = "".join(c for c in "aA9" if c in found) + "".join(sorted(extras))
    if hex_min_chars is not None and not extras:
        hex_class = _hex_class([value] + [s for s in same_length if _same_separators(s, separators)], hex_min_chars)
        classes = hex_class or classes
    return {"length": len(value), "classes": classes, "separators": separators}


_HEX_CLASSES = {"x": frozenset("0123456789abcdef"), "X": frozenset("0123456789ABCDEF")}


def _hex_class(tokens: list[str], min_chars: int) -> str | None:
    """``x`` or ``X`` when every letter and digit of ``tokens`` is a hexadecimal digit of that
    case, ``min_chars`` of them or more with a letter among them; else None."""
    chars = [c for token in tokens for c in token if c.isascii() and c.isalnum()]
    if len(chars) < min_chars or not any(c.isalpha() for c in chars):
        return None
    return next((name for name, digits in _HEX_CLASSES.items() if set(chars) <= digits), None)


def _letter_digit_classes(text: str) -> set[str]:
    return {name for name, test in (("a", str.islower), ("A", str.isupper), ("9", str.isdigit))
            if any(test(c) for c in text)}


def _same_separators(text: str, separators: dict[str, str]) -> bool:
    return all(separators.get(str(index)) == char for index, char in enumerate(text)
               if str(index) in separators or not (char.isascii() and char.isalnum()))


def alnum_lower(name: str) -> str:
    """A name's letters and digits, lower-cased: ``parent_Name`` -> ``parentname``."""
    return "".join(c for c in name if c.isalnum()).lower()


def reference_suffix(name: str, suffixes: Iterable[str]) -> str | None:
    """The reference suffix a name ends in (``Id`` of ``parentId``), longest first, or None.

    The name must keep something before the suffix: ``id`` alone names no other thing.
    """
    for suffix in sorted(suffixes, key=len, reverse=True):
        if name.endswith(suffix) and len(name) > len(suffix):
            return suffix
    return None


def without_reference(name: str, suffixes: Iterable[str]) -> str:
    """The name with a reference's suffix left off (``parentId`` -> ``parent``)."""
    suffix = reference_suffix(name, suffixes)
    return name[: len(name) - len(suffix)] if suffix else name
