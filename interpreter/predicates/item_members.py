"""Predicates on a member beside an item read's entity (``view-item-members``).

Context ``item-member``: the member's name and, for each successful read of the view, its value
and the path value (the last path segment, percent-decoded) the read named.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ItemMemberSighting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: Any = None
    path_value: str


@context_model("item-member")
class ItemMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    sightings: tuple[ItemMemberSighting, ...] = ()


class MinValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=1)


def path_value_form(value: Any, path_value: str) -> str | None:
    """``scalar`` when the value is the path value, ``number`` when it is the integer the path
    value spells (decimal digits, no sign or leading zero: Flask-AppBuilder's ``{"id": 1,
    "result": …}``), ``singleton`` when it is a one-element array of the path value, else None."""
    if value == path_value and isinstance(value, str):
        return "scalar"
    if isinstance(value, int) and not isinstance(value, bool) and is_integer_text(path_value) \
            and value == int(path_value):
        return "number"
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str) and value[0] == path_value:
        return "singleton"
    return None


def is_integer_text(text: str) -> bool:
    """Decimal digits with no sign and no leading zero: the one spelling of a non-negative integer."""
    return text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))


@predicate("item_member_echoes_path_value", context="item-member", params=MinValuesParams)
def item_member_echoes_path_value(ctx: ItemMemberContext, params: MinValuesParams) -> Outcome:
    """Every sighting holds the read's path value (one form throughout), over ``min_values``
    different path values."""
    forms = set()
    for sighting in ctx.sightings:
        form = path_value_form(sighting.value, sighting.path_value)
        if form is None:
            return Miss(f"{ctx.member} is {sighting.value!r} where the path named {sighting.path_value!r}")
        forms.add(form)
    values = {s.path_value for s in ctx.sightings}
    if len(forms) != 1:
        return Miss(f"{ctx.member} holds the path value in {len(forms)} forms")
    if len(values) < params.min_values:
        return Miss(f"{ctx.member} was seen with {len(values)} path value (fewer than {params.min_values})")
    return Match({"form": forms.pop(), "path_values": len(values)})
