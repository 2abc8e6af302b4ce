"""Predicates on an item path no read shows: a type read only through its list (``GET /users``
listing ``{id: 7, …}``) and written at its collection path plus one parameter (``PATCH /users/7``,
``DELETE /users/7``), never read there. Whether that path is the type's item path all the same,
its parameter taking the identities the list shows, so the writes relate to the type and the gate
checks them through the list reads.

Context ``implied-item``: the type's collection path and identity, the write tools' path, each
successful write call's path value with the list reads that showed it, and the reads of the path.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class Sighting(BaseModel):
    """An object another path's read answered carrying a written value at the type's identity field."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    path: str
    alike: int = 0
    """Members besides the identity it shows equal to the listed entity's (the closest listing)."""
    unlike: int = 0
    """Members besides the identity it shows otherwise than the listed entity (the same listing)."""


class NamedValue(BaseModel):
    """One successful write call's path value and what the capture's reads show of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    value: str
    collection: str
    """The call's collection path (its path less the value): the list it names the entity in."""
    listed_whole: list[int] = Field(default_factory=list)
    """Reads of that collection listing the whole of it (no page cut, no filter) that showed the
    value as an entity's identity."""
    listed_part: list[int] = Field(default_factory=list)
    """Reads of that collection sent with a page or a filter that showed it."""
    elsewhere: list[Sighting] = Field(default_factory=list)
    """Objects the reads of other paths answered carrying the value as their identity."""


@context_model("implied-item")
class ImpliedItemContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    collection_template: str
    item_template: str
    """The write tools' path: the collection path and one parameter."""
    id_field: str
    write_tools: list[str] = Field(default_factory=list)
    named: list[NamedValue] = Field(default_factory=list)
    """Every successful call of the write tools at the path."""
    item_reads: list[int] = Field(default_factory=list)
    """Successful reads of the path itself (a read that would show the item as the application
    answers it, which the list may project)."""


class CopyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """How many members besides the identity an object elsewhere must show alike (and none
    otherwise) to be the same entity listed again."""


@predicate("implied_item_unread", context="implied-item")
def implied_item_unread(ctx: ImpliedItemContext, params: BaseModel) -> Outcome:
    """No successful read of the path: where one exists, its answers (not the list's) say what the
    item path is."""
    if ctx.item_reads:
        return Miss(f"{len(ctx.item_reads)} successful read(s) of {ctx.item_template} (#{ctx.item_reads[0]}): "
                    "its own answers decide its view")
    return Match({"item_template": ctx.item_template})


@predicate("implied_item_written", context="implied-item")
def implied_item_written(ctx: ImpliedItemContext, params: BaseModel) -> Outcome:
    """A write tool at the path succeeded at least once."""
    if not ctx.named:
        return Miss(f"no successful call of {', '.join(ctx.write_tools) or 'a write tool'} at {ctx.item_template}")
    return Match({"calls": len(ctx.named), "tools": ctx.write_tools})


@predicate("implied_item_values_listed_whole", context="implied-item")
def implied_item_values_listed_whole(ctx: ImpliedItemContext, params: BaseModel) -> Outcome:
    """Every successful call's path value is an identity a read of its own collection showed while
    listing the whole collection (no page cut from it, no filter): the path names an entity the list
    holds, and the list shows its presence and absence."""
    for named in ctx.named:
        if named.listed_whole:
            continue
        if named.listed_part:
            return Miss(f"#{named.ordinal}'s {named.value!r} is listed at {named.collection} only by reads sent with a "
                        f"page or a filter (#{named.listed_part[0]}), which do not show the collection whole")
        return Miss(f"#{named.ordinal}'s {named.value!r} is no {ctx.id_field!r} a read of {named.collection} listed")
    return Match({"values": len({n.value for n in ctx.named}), "id_field": ctx.id_field})


@predicate("implied_item_listed_once", context="implied-item", params=CopyParams)
def implied_item_listed_once(ctx: ImpliedItemContext, params: CopyParams) -> Outcome:
    """No read of another path (another collection, another parent's list, an object embedding it)
    answered an object carrying a written value at the identity field whose other members, at least
    ``min_members``, all equal the listed entity's: the entity is listed in one collection only, not
    shown by two that a write at one path would leave apart."""
    for named in ctx.named:
        for seen in named.elsewhere:
            if seen.alike >= params.min_members and not seen.unlike:
                return Miss(f"{named.value!r} written by #{named.ordinal} is also shown at {seen.path} (#{seen.ordinal}, "
                            f"{seen.alike} members alike): two collections list the same entity")
    return Match({"values": len({n.value for n in ctx.named})})
