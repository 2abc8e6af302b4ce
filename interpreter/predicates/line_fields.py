"""Predicates on the members a list line's recordings never show that the list view's other
recordings do (``view-line-fields``).

Context ``line-fields``: one list line (a path and query) whose recordings show fewer members than
the view's recordings together. Either the query projects (``fields=id,title``, ``_col=``: the
application leaves members out of entities that hold them), or the entities the line happened to
list lack those members (a record made without its optional ``tags``). Rendered from the state, a
projecting line shows only its own members; a line that merely listed other entities shows each
entity as the view does, or it would answer an entity without members the state holds for it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class LackedMember(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    held_by_listed: list[str] = Field(default_factory=list)
    """Identities the line lists that another recording of the view shows holding the member, no
    write between that recording and the line's."""
    lacked_elsewhere: list[str] = Field(default_factory=list)
    """Identities another recording of the collection shows without the member, beside an entity
    it shows holding it (the member is optional there, not projected away)."""
    listed_seen: list[str] = Field(default_factory=list)
    """Identities the line lists that another recording of the collection shows."""
    listed_lacking: list[str] = Field(default_factory=list)
    """Of those, the ones another recording of the collection shows without the member."""


@context_model("line-fields")
class LineFieldsContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    query: list[list[str]] = Field(default_factory=list)
    """The line's query, as recorded pairs."""
    lacked: list[LackedMember] = Field(default_factory=list)
    """Each member the other lines of the line's collection show that the line's recordings never do."""
    query_names_members: bool = False
    """A parameter of the line's query names the members its entities show (view-member-naming-queries)."""


@predicate("line_lists_holder_without_member", context="line-fields")
def line_lists_holder_without_member(ctx: LineFieldsContext, params: BaseModel) -> Outcome:
    """An entity the line lists without a member is shown holding it by another recording of the
    view: the line left it out."""
    held = {m.name: m.held_by_listed for m in ctx.lacked if m.held_by_listed}
    if not held:
        return Miss("no entity the line lists is shown holding a member the line leaves out")
    return Match({"held_by_listed": held})


@predicate("line_query_names_members", context="line-fields")
def line_query_names_members(ctx: LineFieldsContext, params: BaseModel) -> Outcome:
    """The line's query has a parameter naming the members its entities show (``fields=id,title``)."""
    if not ctx.query_names_members:
        return Miss("no parameter of the line's query names members")
    return Match({"query": ctx.query})


class MinLackingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_lacking: int = Field(ge=1)


@predicate("line_lacks_optional_members_only", context="line-fields", params=MinLackingParams)
def line_lacks_optional_members_only(ctx: LineFieldsContext, params: MinLackingParams) -> Outcome:
    """Every member the line never shows is one that at least ``min_lacking`` entities lack in the
    collection's other recordings too, beside entities holding it, and that every entity the line
    lists is shown lacking elsewhere (one at least shown): an optional member its listed entities did
    not hold."""
    if not ctx.lacked:
        return Miss("the line leaves out no member its collection shows")
    required = [m.name for m in ctx.lacked if len(m.lacked_elsewhere) < params.min_lacking]
    if required:
        return Miss(f"member(s) {required} are shown by fewer than {params.min_lacking} entities lacking them "
                    "elsewhere in the collection")
    unshown = [m.name for m in ctx.lacked if not m.listed_seen or set(m.listed_seen) != set(m.listed_lacking)]
    if unshown:
        return Miss(f"member(s) {unshown}: not every entity the line lists is shown lacking it elsewhere "
                    "(or none is shown elsewhere)")
    return Match({"lacked": {m.name: m.lacked_elsewhere for m in ctx.lacked}})
