"""Relay global ids: an opaque-looking id that is the base64 of a type's name, a colon and the
row's number (GraphQL servers' ``Node`` ids; Arize Phoenix's ``UHJvamVjdDo1``, ``Project:5``).
A create's identity of this form is a sequence written encoded (``field.identity``), and serving
numbers new ids as the application does, so a created entity is read back by the id it answered.
"""

from __future__ import annotations

import base64
import re

_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_GLOBAL_ID_TEXT = re.compile(r"([A-Za-z][A-Za-z0-9_]*:)([0-9]{1,20})")
"""A Relay global id's decoded text: its type's name and a colon, then the row's number."""


def padded_base64_text(value: str) -> str | None:
    """The UTF-8 text ``value`` is the strict, padded, standard base64 of; None for anything else."""
    if len(value) < 4 or len(value) % 4 or not _BASE64.fullmatch(value):
        return None
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def global_id(value: str) -> tuple[str, str] | None:
    """(prefix, digits) of a Relay global id: strict, padded base64 of UTF-8 text that is a type
    name, a colon and digits (``UHJvamVjdDo1`` is ``Project:5``); None for anything else."""
    text = padded_base64_text(value)
    if text is None:
        return None
    found = _GLOBAL_ID_TEXT.fullmatch(text)
    if found is None or encode_global_id(found.group(1), int(found.group(2))) != value:
        return None  # another spelling (leading zeros) is no id the sequence writes
    return found.group(1), found.group(2)


def encode_global_id(prefix: str, number: int) -> str:
    """The Relay global id of ``prefix`` and ``number`` (``global_id``'s inverse)."""
    return base64.b64encode(f"{prefix}{number}".encode()).decode("ascii")
