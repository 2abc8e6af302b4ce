"""Predicates on the values a type's entities hold in a member a create stores as sent, and the
values its successful recorded calls sent: context ``write-distinct-values``, table
``write-distinct-values``.

Where every one of them is distinct text (names, e-mail addresses, slugs), the capture cannot show
what the application does with a create (or an update) repeating one another entity holds: Strapi
answers 400 "This attribute must be unique" to a second category named History, another
application makes the second entity. A model making it answers 2xx where the application may
refuse: serving refuses such a call instead, saying what would be accepted.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("write-distinct-values")
class WriteDistinctValuesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    held: list[Any] = Field(default_factory=list)
    """The member's value in each entity of the type the initial state holds (one per entity holding it)."""
    sent: list[Any] = Field(default_factory=list)
    """The values the tool's successful recorded calls sent in it."""
    sent_while_held: list[bool] | None = None
    """For each sent value, whether an entity of the type held it when its call ran (None: not
    known, every repeat counts): a value sent again once no entity held it any more (a name reused
    after its study was deleted) is no repeat the application took."""
    names: str | None = None
    """The type whose entity the member names by its id (``write-references``); None: no reference."""
    copied: list[str] = Field(default_factory=list)
    """The holder's fields copying members of the entity the member names (``reference-copies``: a
    dashboard's ``app_type``, its app's ``type``)."""


class DistinctParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=2)
    """How many values (held and sent) the capture must show before their being distinct says anything."""


def _shown(value: Any) -> str:
    return excerpt(repr(value), 40)


@predicate("text_values_never_repeat", context="write-distinct-values", params=DistinctParams)
def text_values_never_repeat(ctx: WriteDistinctValuesContext, params: DistinctParams) -> Outcome:
    """Every held and sent value is text and none repeats: a repeat is unproven (the application may
    refuse it as taken)."""
    values = ctx.held + ctx.sent
    others = [v for v in values if not isinstance(v, str)]
    if others:
        return Miss(f"a value that is not text ({_shown(others[0])})")
    if len(values) < params.min_values:
        return Miss(f"{len(values)} value(s), fewer than {params.min_values}")
    freed = ctx.sent_while_held is not None and len(ctx.sent_while_held) == len(ctx.sent)
    seen: set[str] = set()
    for index, value in enumerate(values):
        sent_at = index - len(ctx.held)
        if freed and sent_at >= 0:
            if ctx.sent_while_held[sent_at]:
                return Miss(f"{_shown(value)} was sent while another entity held it: the capture shows repeats taken")
            seen.add(value)  # sent again once no entity held it: no repeat
            continue
        if value in seen:
            return Miss(f"{_shown(value)} is held or sent twice: the capture shows repeats taken")
        seen.add(value)
    return Match({"values": len(values)})


@predicate("member_names_another_entity", context="write-distinct-values")
def member_names_another_entity(ctx: WriteDistinctValuesContext, params: NoParams) -> Outcome:
    """The member names another type's entity by its id: many comments may name one post."""
    if ctx.names is None:
        return Miss("the member names no other entity")
    return Match({"names": ctx.names})


@predicate("names_an_entity_it_copies", context="write-distinct-values")
def names_an_entity_it_copies(ctx: WriteDistinctValuesContext, params: NoParams) -> Outcome:
    """The member names another type's entity whose members the holder shows as copies: the holder
    may show a join over a link the named entity keeps (an app holding its one dashboard)."""
    if ctx.names is None:
        return Miss("the member names no other entity")
    if not ctx.copied:
        return Miss(f"the holder copies no member of the {ctx.names} entity it names")
    return Match({"names": ctx.names, "copied": list(ctx.copied)})
