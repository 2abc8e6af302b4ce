"""An entity a list shows under a new identity on every read (Alerta's configured roles, listed
by ``/perms`` beside the stored permissions under ids it makes up per read): a later list lacks the
held id, but lists an object the copy does not hold whose every other member is the held entity's,
with the held id's text replaced by the new one (its ``href``). Nothing removed the entity; the
application named it anew, so its absence is no side effect of the writes in between
(``absences``). The ``gate-reidentified`` table decides how many members must agree as they are:
fewer may agree by chance."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.gate_blame import ReidentifiedContext
from capenv.interpreter.rules_engine.evaluate import evaluate_table

TABLE = "gate-reidentified"


def renamed(held: dict[str, Any], key: str, listed: list[dict[str, Any]], id_field: str, held_ids: set[str],
            table: Any) -> str | None:
    """The new identity of the held entity ``key`` in ``listed``, or None: an object under an id
    the copy does not hold (``held_ids``), showing the held entity's member names, that the table
    judges the held entity named anew."""
    others = {name: value for name, value in held.items() if name != id_field}
    for obj in listed:
        new = obj.get(id_field)
        if table is None or new is None or str(new) == key or str(new) in held_ids \
                or set(obj) - {id_field} != set(others):
            continue
        alike, plain = _agreement(obj, others, key, str(new))
        context = ReidentifiedContext(alike=alike, plain_equal=plain)
        if evaluate_table(table, context, subject=f"{key} as {new}").yields.get("renamed"):
            return str(new)
    return None


def _agreement(obj: dict[str, Any], others: dict[str, Any], key: str, new: str) -> tuple[bool, int]:
    """Whether every member of ``obj`` is the held entity's once the held id's text in a string is
    read as the new id, and how many are equal as they are (not holding the held id as text)."""
    plain = 0
    for name, value in others.items():
        if same_json(obj[name], value):
            plain += 1 if not _holds(value, key) else 0
        elif not (isinstance(value, str) and _holds(value, key) and obj[name] == value.replace(key, new)):
            return False, plain
    return True, plain


def _holds(value: Any, key: str) -> bool:
    return isinstance(value, str) and key in value
