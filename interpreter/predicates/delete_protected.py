"""Predicates on the entities of a type a delete removes or an update changes, for members marking
an entity as a default, built-in or not editable one: context ``delete-protected``, tables
``delete-protected`` and ``update-protected``.

Applications refuse to delete the entity they fall back on or ship with (ZenML's default stack
answers 403, OctoPrint's default printer profile 409, a built-in access group 403); a delete
modelled as removing the entity alone answers success there, a wrong answer. What marks such an
entity is data in the table (the naming members and the word, the flag members and the value
that protects); a match's evidence is what serving checks per entity (``pointers``, ``words`` and
``separators``, or ``value``, and ``described``), so serving judges no words. A type the capture
shows deleting such an entity (a successful delete removing one) is not judged: the application
deletes them. The same holds for updates (``update-protected``): ``written`` is then what the
successful recorded updates changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.pointers import escape_token
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("delete-protected")
class DeleteProtectedContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id_field: str = "id"
    entities: list[dict[str, Any]] = Field(default_factory=list)
    """Every value of the type's entities the capture shows (the initial state, later sightings)."""
    written: list[dict[str, Any]] = Field(default_factory=list)
    """The values, as held before, of the entities a successful recorded write of the table's kind
    (a delete for ``delete-protected``, an update for ``update-protected``) of the type named."""


class NamedWordParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    members: list[str] = Field(min_length=1)
    """The top-level members naming an entity."""
    with_id_field: bool = True
    """Whether the type's id field names it too."""
    words: list[str] = Field(min_length=1)
    """Words (compared in lower case) marking a protected entity."""
    separators: str
    """A regular expression splitting a name into words."""


class FlagParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    members: list[str] = Field(min_length=1)
    """Member names of a boolean flag, at any depth of the entity's objects."""
    value: bool
    """The flag's value marking a protected entity."""


def _named_words(text: Any, separators: str) -> set[str]:
    return {w.lower() for w in re.split(separators, text) if w} if isinstance(text, str) else set()


@predicate("entities_name_a_word", context="delete-protected", params=NamedWordParams)
def entities_name_a_word(ctx: DeleteProtectedContext, params: NamedWordParams) -> Outcome:
    """An entity's naming member has one of the words among its words, and no successful recorded
    write of the table's kind named an entity whose naming member had one."""
    members = list(params.members) + ([ctx.id_field] if params.with_id_field else [])
    words = {w.lower() for w in params.words}

    def naming(entity: dict[str, Any]) -> list[str]:
        return [m for m in members if _named_words(entity.get(m), params.separators) & words]

    written = next((e for e in ctx.written if naming(e)), None)
    if written is not None:
        member = naming(written)[0]
        return Miss(f"a successful recorded write named an entity whose {member} is {written[member]!r}")
    found = sorted({m for e in ctx.entities for m in naming(e)}, key=members.index)
    if not found:
        return Miss(f"no entity's {', '.join(members)} has one of the words {', '.join(sorted(words))}")
    example = next(e[found[0]] for e in ctx.entities if found[0] in naming(e))
    return Match({"pointers": ["/" + m for m in found], "words": sorted(words), "separators": params.separators,
                  "described": f"its {' or '.join(found)} holding the word {' or '.join(repr(w) for w in sorted(words))}"
                               f" ({example!r})"})


def _flags(value: Any, names: set[str], pointer: str = "") -> Iterator[tuple[str, bool]]:
    """Every (pointer, flag) of the named boolean members at any depth of ``value``'s objects. A
    pointer is spelled only for a flag or an object holding more (the tables run over every entity
    of every judged plan's type: escaping each member's key and descending into each scalar was most
    of the build's plan time)."""
    if not isinstance(value, dict):
        return
    for key, member in value.items():
        if key in names and isinstance(member, bool):
            yield f"{pointer}/{escape_token(key)}", member
        elif isinstance(member, dict) and member:
            yield from _flags(member, names, f"{pointer}/{escape_token(key)}")


@predicate("entities_hold_flag", context="delete-protected", params=FlagParams)
def entities_hold_flag(ctx: DeleteProtectedContext, params: FlagParams) -> Outcome:
    """An entity holds one of the flag members as a boolean, and no successful recorded write of
    the table's kind named an entity holding it at the protecting value."""
    names = set(params.members)
    written = next(((p, e) for e in ctx.written for p, v in _flags(e, names) if v == params.value), None)
    if written is not None:
        return Miss(f"a successful recorded write named an entity holding {written[0]} {str(params.value).lower()}")
    pointers = sorted({p for e in ctx.entities for p, _ in _flags(e, names)})
    if not pointers:
        return Miss(f"no entity holds one of the flags {', '.join(params.members)} as a boolean")
    return Match({"pointers": pointers, "value": params.value,
                  "described": f"its {' or '.join(pointers)} being {str(params.value).lower()}"})
