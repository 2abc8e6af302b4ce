"""Predicates on the ids a capture shows for a type whose creates let the client choose the new
entity's identity (a body member the identity is echoed or copied from, or the path segment naming
it): context ``write-chosen-id``, table ``write-chosen-ids``.

Synapse refuses a registration token holding a space (``[A-Za-z0-9._~-]`` only, at most 64
characters); a model storing any token answers 200 there, a wrong answer. What the application
takes the capture cannot say beyond the ids it shows, so the shape those ids share (one whole
pattern every one fits, or the character classes they draw on, and a spread of lengths around
theirs) is what serving accepts; another shape is refused, state unchanged. The classes, patterns
and the length spread are the table's parameters; a match's evidence is the shape serving checks
(``pattern``, holding the length range too, ``min_length``, ``max_length``, ``described``), so
serving never judges classes.
"""

from __future__ import annotations

import math
import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-chosen-id")
class WriteChosenIdContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: list[str] = Field(default_factory=list)
    """Every id the capture shows the type holding (the initial state's, those read or answered
    held), as text."""


class CharacterClass(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """How a refusal names it (``digits``)."""
    chars: str
    """The class as a regular expression character set's inside (``0-9``)."""


class LengthSpread(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    below: float = Field(gt=0, le=1)
    """The shortest accepted length is the shortest id's times this, rounded up."""
    above: float = Field(ge=1)
    """The longest accepted length is the longest id's times this, rounded up."""


class WholeShapeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression every id fits whole (and a chosen id must)."""
    described: str
    """How a refusal names the ids it fits (``integers written without leading zeros``)."""
    length_spread: LengthSpread | None = None
    """Chosen ids' lengths around the ids' (None: the pattern alone decides)."""


class ClassesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    classes: list[CharacterClass] = Field(min_length=1)
    """The classes a character is judged by; a character in none stands for itself."""
    length_spread: LengthSpread


def _lengths(ids: list[str], spread: LengthSpread | None) -> dict[str, int | None]:
    if spread is None:
        return {"min_length": None, "max_length": None}
    least, most = spread_lengths(ids, spread)
    return {"min_length": least, "max_length": most}


_CLASS_SYNTAX = frozenset("\\]^-[")


def _in_class(char: str) -> str:
    """``char`` as a member of a regular expression character set, escaped only where the set's own
    syntax needs it, so the pattern reads alike in Python and in a JSON Schema (ECMA-262) client."""
    return "\\" + char if char in _CLASS_SYNTAX else char


def _examples(ids: list[str]) -> list[str]:
    return sorted(set(ids), key=lambda value: (len(value), value))[:3]


def drawn_alphabet(texts: list[str], classes: list[CharacterClass]) -> tuple[str, list[str]]:
    """The character set the texts draw on (each of ``classes`` any character of it is in, in the
    classes' order, then every other character as itself), and its parts as a refusal names them."""
    sets = [(c, re.compile(f"[{c.chars}]")) for c in classes]
    used: list[CharacterClass] = []
    others: set[str] = set()
    for char in "".join(texts):
        found = next((c for c, compiled in sets if compiled.fullmatch(char)), None)
        if found is None:
            others.add(char)
        elif found not in used:
            used.append(found)
    used = [c for c in classes if c in used]
    alphabet = "".join(c.chars for c in used) + "".join(_in_class(char) for char in sorted(others))
    return alphabet, [c.name for c in used] + [repr(char) for char in sorted(others)]


def spread_lengths(texts: list[str], spread: LengthSpread) -> tuple[int, int]:
    """The shortest and longest length accepted around the texts' (``spread``)."""
    return math.ceil(min(map(len, texts)) * spread.below), math.ceil(max(map(len, texts)) * spread.above)


@predicate("ids_fit_one_pattern", context="write-chosen-id", params=WholeShapeParams)
def ids_fit_one_pattern(ctx: WriteChosenIdContext, params: WholeShapeParams) -> Outcome:
    """Every id the capture shows for the type fits ``pattern`` whole (all integers, all UUIDs): a
    chosen id must fit it too, its length within the spread of theirs."""
    if not ctx.ids:
        return Miss("the capture shows no id of the type")
    compiled = re.compile(params.pattern)
    unfit = next((value for value in ctx.ids if not compiled.fullmatch(value)), None)
    if unfit is not None:
        return Miss(f"{unfit!r} is not one of the {params.described}")
    lengths = _lengths(ctx.ids, params.length_spread)
    pattern = params.pattern if params.length_spread is None else \
        f"(?=.{{{lengths['min_length']},{lengths['max_length']}}}$)(?:{params.pattern})"
    return Match({"pattern": pattern, "described": params.described, **lengths, "examples": _examples(ctx.ids)})


@predicate("ids_draw_on_classes", context="write-chosen-id", params=ClassesParams)
def ids_draw_on_classes(ctx: WriteChosenIdContext, params: ClassesParams) -> Outcome:
    """The ids draw on character classes (each of ``classes``, any other character standing for
    itself): a chosen id must draw only on those they drew on, its length within the spread of theirs."""
    if not ctx.ids:
        return Miss("the capture shows no id of the type")
    alphabet, names = drawn_alphabet(ctx.ids, params.classes)
    lengths = _lengths(ctx.ids, params.length_spread)
    return Match({"pattern": f"[{alphabet}]{{{lengths['min_length']},{lengths['max_length']}}}",
                  "described": "ids drawing only on " + ", ".join(names), **lengths, "examples": _examples(ctx.ids)})
