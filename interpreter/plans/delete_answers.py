"""Whether a delete's recorded answer can be given for any entity (seeds: "Deletes").

A delete answers with its exemplar's response. An answer naming other entities the state holds
(a room delete answering ``{"kicked_users": ["@alice:example.org", ...]}``, the members it found)
describes the state the call met: given again for another entity it would name the first one's
members, so such a delete's body is unusable.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import strings_in
from capenv.interpreter.bundle.models import ViewResult


def held_ids_named(answer: Any, view: ViewResult, own_id: Any, min_length: int) -> list[tuple[str, str]]:
    """(type, id) of each held entity other than ``own_id`` whose string identity, ``min_length``
    characters or more, is a string of ``answer`` (at any depth). Integers are left out: a count or
    a status code spells one as often as an id does."""
    held: dict[str, str] = {}
    for collection in view.state.collections:
        for entity in collection.entities:
            if isinstance(entity.id, str) and len(entity.id) >= min_length and entity.id != str(own_id):
                held.setdefault(entity.id, collection.type)
    named: list[tuple[str, str]] = []
    for text in strings_in(answer):
        if text in held and (held[text], text) not in named:
            named.append((held[text], text))
    return named
