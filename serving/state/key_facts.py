"""What a collection's held ids show at a glance: their shapes counted, and its keys by loose spelling.

A call naming an id the state does not hold asks whether a held id spells it otherwise
(``spellings``) and whether every held id of the type has one shape (``reads/absence``). Asking
the collection on every such call would walk all of it, so each collection keeps these facts,
made on first use and kept by every edit that adds or removes a key (``edits``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.text import loose_spelling

INTEGER = re.compile(r"0|-?[1-9][0-9]*")
"""An integer written without leading zeros."""
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
EXACT_INTEGERS = 2 ** 53
"""Integers from here on are no longer exact in a JSON number read as a double (JavaScript's): an
application may read such an id as an inexact number and print it otherwise (``1e+23``)."""


def id_shape(value: Any) -> str | None:
    """``integer`` (below 2**53), ``inexact integer``, ``uuid`` or ``other``; None for an id
    that shows no shape (none, or a boolean)."""
    if value is None or isinstance(value, bool):
        return None
    text = str(value)
    if INTEGER.fullmatch(text):
        return "integer" if abs(int(text)) < EXACT_INTEGERS else "inexact integer"
    return "uuid" if UUID.fullmatch(text) else "other"


def spelled(text: str) -> str:
    """``loose_spelling``, a number's leading zeros dropped too, and a space read as an underscore
    (a wiki reads the title ``Front desk`` as the page ``Front_desk``)."""
    loose = loose_spelling(text).replace(" ", "_")
    return (loose.lstrip("0") or "0") if loose.isdigit() else loose


@dataclass
class KeyFacts:
    shapes: dict[str, int] = field(default_factory=dict)
    """How many held ids have each ``id_shape``."""
    by_spelling: dict[str, dict[str, None]] = field(default_factory=dict)
    """The keys (an insertion-ordered set) each ``spelled`` form stands for."""

    @classmethod
    def of(cls, ids: dict[str, Any], keys: list[str]) -> "KeyFacts":
        facts = cls()
        for key in keys:
            facts.add(key, ids.get(key, key))
        return facts

    def add(self, key: str, entity_id: Any) -> None:
        shape = id_shape(entity_id)
        if shape is not None:
            self.shapes[shape] = self.shapes.get(shape, 0) + 1
        self.by_spelling.setdefault(spelled(key), {})[key] = None

    def remove(self, key: str, entity_id: Any) -> None:
        shape = id_shape(entity_id)
        if shape is not None:
            left = self.shapes.get(shape, 0) - 1
            if left > 0:
                self.shapes[shape] = left
            else:
                self.shapes.pop(shape, None)
        keys = self.by_spelling.get(spelled(key))
        if keys is not None:
            keys.pop(key, None)
            if not keys:
                del self.by_spelling[spelled(key)]
