"""An entity a list shows under a new identity on every read (Alerta's configured roles, listed
by ``/perms`` beside the stored permissions under ids it makes up per read): a later list lacks the
held id, but lists an object the copy does not hold whose every other member is the held entity's,
with the held id's text replaced by the new one (its ``href``). Nothing removed the entity; the
application named it anew, so its absence is no side effect of the writes in between
(``absences``). The gate setting ``reidentified_min_members`` says how many members besides the
identity, not counting those holding it as text, must agree: fewer may agree by chance."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.values import same_json


def renamed(held: dict[str, Any], key: str, listed: list[dict[str, Any]], id_field: str, held_ids: set[str],
            min_members: int) -> str | None:
    """The new identity of the held entity ``key`` in ``listed``, or None: an object under an id
    the copy does not hold (``held_ids``), showing exactly the held entity's members, each equal to
    it once the old id's text in a string is read as the new id's, at least ``min_members`` of them
    equal as they are."""
    others = {name: value for name, value in held.items() if name != id_field}
    for obj in listed:
        new = obj.get(id_field)
        if new is None or str(new) == key or str(new) in held_ids or set(obj) - {id_field} != set(others):
            continue
        plain = 0
        for name, value in others.items():
            if same_json(obj[name], value):
                plain += 1 if not _holds(value, key) else 0
            elif not (isinstance(value, str) and _holds(value, key)
                      and obj[name] == value.replace(key, str(new))):
                break
        else:
            if plain >= min_members:
                return str(new)
    return None


def _holds(value: Any, key: str) -> bool:
    return isinstance(value, str) and key in value
