"""Tool descriptions as drafts that can be sampled down to fit a budget (write-effects "Catalog").

A description says what the tool reads (its type; item, list or document; from the state or
by replay), its parameters with recorded values, and the response's fields, quoted. Lists of
names and values are *samples*: rendered at a level ``k`` they show their first ``k`` items
and say how many more there are, so shrinking a description drops whole items, never part of
a word. ``budget.py`` picks the level each description can afford.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, Union

@dataclass(frozen=True)
class Sample:
    prefix: str
    items: tuple[Union[str, "Sample"], ...]
    suffix: str = ""
    noun: str = ""
    most: int | None = None
    """Items shown at most, whatever the level (a parameter's recorded values: budget ``described_values``)."""

    def render(self, level: int | None) -> str:
        limit = len(self.items) if level is None else max(0, level)
        if self.most is not None:
            limit = min(limit, self.most)
        shown = [item.render(level) if isinstance(item, Sample) else item for item in self.items[:limit]]
        rest = len(self.items) - len(shown)
        if rest and not shown:
            body = f"{rest} {self.noun}".rstrip()
        else:
            body = ", ".join(shown) + (f" and {rest} more" if rest else "")
        return f"{self.prefix}{body}{self.suffix}"

    @property
    def size(self) -> int:
        own = len(self.items) if self.most is None else min(len(self.items), self.most)
        return max([own] + [i.size for i in self.items if isinstance(i, Sample)])


Part = Union[str, Sample]


@dataclass(frozen=True)
class Draft:
    tool: str
    parts: tuple[Part, ...]

    def render(self, level: int | None = None, *, samples: bool = True) -> str:
        texts = []
        for part in self.parts:
            if isinstance(part, Sample):
                if samples:
                    texts.append(part.render(level))
            else:
                texts.append(part)
        return " ".join(t for t in texts if t)

    @property
    def levels(self) -> int:
        return max([0] + [p.size for p in self.parts if isinstance(p, Sample)])


def quote_all(values: Sequence[Any], longest: int) -> tuple[str, ...]:
    """Each value quoted; one longer than ``longest`` characters (a token, a cursor: budget
    ``quoted_value_characters``) is described by its length instead."""
    return tuple(f'"{v}"' if len(str(v)) <= longest else f"a {len(str(v))}-character value" for v in values)


def fields_sample(fields: Sequence[str], where: str, longest: int) -> Sample | str:
    if not fields:
        return f"Response: {where}."
    return Sample(f"Response: {where} with fields ", quote_all(fields, longest), ".", noun="fields")


def path_sample(params: Sequence[tuple[str, Sequence[str]]], shown: int, longest: int) -> Sample | str:
    """``shown``: a parameter's recorded values shown at most; ``longest``: as ``quote_all``."""
    if not params:
        return ""
    items = tuple(Sample(f'"{name}" (recorded ', quote_all(values, longest), ")", noun="values", most=shown)
                  if values else f'"{name}"' for name, values in params)
    return Sample("Path parameters (required strings): ", items, ".", noun="parameters")


def query_sample(params: Sequence[tuple[str, Sequence[str], str]], shown: int, longest: int) -> Sample | str:
    """``params``: (name, recorded values, a note such as 'defaults to "x"'); ``shown``, ``longest``:
    as ``path_sample``."""
    if not params:
        return ""
    items = []
    for name, values, note in params:
        note_text = f"; {note}" if note else ""
        if values:
            items.append(Sample(f'"{name}" (recorded ', quote_all(values, longest), f"{note_text})", noun="values",
                                most=shown))
        else:
            items.append(f'"{name}"' + (f" ({note})" if note else ""))
    return Sample("Optional query parameters: ", tuple(items), ".", noun="parameters")


def cut_at_word(text: str, limit: int) -> str:
    """The longest prefix of whole words that fits ``limit`` with an ellipsis after it."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return "…"[:limit]
    head = text[: limit - 1]
    space = head.rfind(" ")
    head = head[:space] if space > 0 else ""
    return (head.rstrip(" ,;:") + "…") if head else "…"
