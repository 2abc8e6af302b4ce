"""Other spellings of a held key: an id that differs from a held one only by a final dot, by
letter case, by dashes, by spaces for underscores, or by leading zeros of a number (a Rails
application reads ``/projects/01`` as project 1; a wiki reads ``/pages/Front%20desk`` as the
page ``Front_desk``).

Many applications read such a spelling as the entity itself (a DNS name is the same with or
without its final dot, and in any letter case: PowerDNS answers ``/zones/example.org`` with the
zone ``example.org.``; Syncthing reads a device id in lower case or without its dashes), and nothing in a capture says whether this one does. Answering such a call
with the learned absence (or writing nothing and answering 404) would deny an entity the
application holds, a wrong answer, so serving refuses it and names the spelling it holds.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.values import decode_once

from .edits import facts_of
from .index import HeldCollection, key_of
from .key_facts import spelled


def held_spelled_otherwise(collection: HeldCollection, raw_id: str, field_name: str, id_field: str) -> list[Any]:
    """The held values of the key field that spell the path's value otherwise (decoded once), in
    the collection's order."""
    wanted = decode_once(raw_id)
    target = spelled(wanted)
    if field_name == id_field:
        keys = [key for key in facts_of(collection).by_spelling.get(target, ()) if key != wanted]
        keys.sort(key=collection.order.index)  # a few keys: the order's first match names them
        return [collection.ids.get(key, key) for key in keys]
    held = [entity[field_name] for entity in collection.members() if entity.get(field_name) is not None]
    return [value for value in held if key_of(value) != wanted and spelled(key_of(value)) == target]


def other_spelling_refusal(type_name: str, raw_id: str, held: list[Any]) -> str:
    shown = ", ".join(f'"{key_of(value)}"' for value in held[:3])
    return (f'no {type_name} entity "{decode_once(raw_id)}" is held, but {shown} is: the application may read '
            "this spelling (another letter case, without or with a final dot, dashes or leading zeros, spaces "
            "for underscores) as that "
            f"entity, which the capture does not show; call it by {shown}")
