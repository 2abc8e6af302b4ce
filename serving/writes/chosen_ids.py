"""Refuse a create whose client-chosen identity is shaped unlike every id the capture shows the type
holding (``WritePlan.chosen_id``, learned by ``interpreter/plans/chosen_ids`` with the
``write-chosen-ids`` table).

An application may refuse an id for its characters or its length (Synapse answers 400 to a
registration token holding a space); the capture shows it taking only ids of the recorded shape,
so serving takes those and refuses any other, state unchanged, saying what it would accept. The
shape is data in the plan (a pattern and a length range): nothing is judged here but that.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import ChosenId, WritePlan

from .calls import WriteRefusal


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a pattern is compiled again when it was let go).
@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def fits(chosen: ChosenId, value: Any) -> bool:
    """Whether ``value`` (the identity the call chose) has the shape ``chosen`` gives."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return False
    if chosen.min_length is not None and len(value) < chosen.min_length:
        return False
    if chosen.max_length is not None and len(value) > chosen.max_length:
        return False
    return _compiled(chosen.pattern).fullmatch(value) is not None


def check_chosen_id(chosen: ChosenId | None, type_name: str, value: Any) -> None:
    """Refuse the call when the identity it chose is not shaped as ``chosen`` says."""
    if chosen is None or fits(chosen, value):
        return
    raise WriteRefusal(refusal_message(chosen, type_name, value))


def accepted_shape(chosen: ChosenId) -> str:
    """The accepted ids, in words (``ids drawing only on digits, '-' of 4 to 32 characters``)."""
    if chosen.min_length is None and chosen.max_length is None:
        return chosen.described
    if chosen.max_length is None:
        return f"{chosen.described} of {chosen.min_length} or more characters"
    return f"{chosen.described} of {chosen.min_length or 0} to {chosen.max_length} characters"


def schema_pattern(chosen: ChosenId) -> str:
    """The shape as one anchored JSON Schema ``pattern`` (the plan's pattern holds its length range)."""
    return f"^(?:{chosen.pattern})$"


def chosen_param(plan: WritePlan) -> str | None:
    """The path parameter a create's chosen identity is sent in, or None (from the body)."""
    if plan.chosen_id is None:
        return None
    return next((rule.params.get("param") for rule in plan.fields
                 if rule.field == plan.chosen_id.field and rule.op == "path"), None)


def accepted_sentence(chosen: ChosenId) -> str:
    """What a tool's description says of the chosen identity."""
    examples = ", ".join(repr(e) for e in chosen.examples)
    return (f"the new entity's {chosen.field!r}, chosen by the client: accepted only as {accepted_shape(chosen)}, "
            f"the shape of the ids the capture shows ({examples})")


def refusal_message(chosen: ChosenId, type_name: str, value: Any) -> str:
    examples = ", ".join(repr(e) for e in chosen.examples)
    return (f"{chosen.field!r} is {dumps(value).decode()}: the client chooses the new {type_name} entity's "
            f"{chosen.field!r}, and the capture shows the application holding only ids of another shape "
            f"({examples}), so whether it takes this one is not known (it may refuse its characters or length); "
            f"this environment accepts {accepted_shape(chosen)} (fitting {chosen.pattern!r})")
