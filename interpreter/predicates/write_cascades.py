"""Write cascades: what a recorded call of a write shows it changed beyond the state its plan writes.

Context ``write-cascade``: one sighting around one successful call of a write plan, of one of two
kinds the builder (``interpreter/gate/cascades.py``) gathers:

- ``line``: a GET line (one path, one query) read just before and just after the call, with no
  other write between (the read that finished last before the call began and the first that began
  after it ended, as the read-only vetoes pair them), with what serving knows of the line: the type
  its view reads, whether the state answers it, whether its path relates to the call's path, and
  whether it ever read differently with no write at all between two of its reads;
- ``answer``: a value the call's answer names that no read before the call showed, and the first
  later read of another state type listing an entity under that identity (a create whose body made
  a metric in another collection);
- ``kept``: an object the first list of a delete's collection read after its call (by replay, with
  no other write between) shows sharing members with the deleted entity that no other listed object
  shares (``interpreter/gate/kept_deletes.py``): the application kept the entity, renamed or marked;
- ``span``: a GET line serving answers by replay whose two consecutive reads bracket the call with
  other writes between them too (``before`` and ``after`` are those reads): which write changed the
  line the capture cannot tell, so a span is never a cascade, only a reason to take the line's replay
  for stale once a served write of the call's type has changed the state (only ``stale_replays``
  gathers spans).

The gate checks reads of the plan's own type against its effect, and reads of related paths as
side-effects; a read of another collection's unrelated path is checked by neither, so a change the
write made there (a delete taking its metrics along) reaches the served state through no rule.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .readonly_contexts import ReadFacts, same_body


@context_model("write-cascade")
class CascadeContext(BaseModel):
    """One sighting of what one call of a write changed (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sighting: Literal["line", "answer", "span", "kept"] = "line"
    write_type: str | None = None
    """The state type the plan writes."""
    call: int = 0
    """The ordinal of the write's call."""
    line: str = ""
    """``GET /path?query`` (``line``)."""
    line_tool: str | None = None
    """The read tool answering the line."""
    line_type: str | None = None
    """The state type the line's read tool answers (None: no view of a type)."""
    line_state_backed: bool = False
    """Serving answers the line from the state (else by replay)."""
    line_held_type: str | None = None
    """The type the line reads, when serving answers that type from the state through some view: the
    line's own view's type, or for a view of no type the type whose collection its path is."""
    line_summarises: list[str] = Field(default_factory=list)
    """The types the document the state answers the line with summarises (``DocumentLine.summarises``):
    serving refuses it once a served write changed one of them (``serving/reads/summaries``)."""
    line_refers: bool = False
    """The line is an item read of a type whose entities name the written type's
    (``WritePlan.referrers``, a delete's): a change there may be the application clearing the reference."""
    line_relates: bool = False
    """The line's path relates to the call's path segment by segment (the gate's side-effect reach)."""
    line_changes_alone: bool = False
    """Two consecutive reads of the line differ with no write between them (a clock, an uptime)."""
    before: ReadFacts | None = None
    after: ReadFacts | None = None
    value: str | None = None
    """``answer``: the value the call's answer names that no earlier read showed."""
    listed_by: int | None = None
    """``answer``: the later read listing an entity of ``listed_type`` under that value as its identity."""
    listed_type: str | None = None
    listed_path: str = ""
    kept_members: list[str] = Field(default_factory=list)
    """``kept``: the members an object of the delete's collection's next replayed list (``listed_by``,
    ``value`` its identity) shares with the deleted entity, values no other listed object holds."""


class AbsenceParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    absent_statuses: list[int] = Field(min_length=1)
    """Statuses of a read that finds no entity (400, 404, 410)."""


class ValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """Shorter values (small integers, short words) recur by chance in unrelated answers."""


@predicate("cascade_line_of_written_type", context="write-cascade")
def cascade_line_of_written_type(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line reads the very type the write changes: the gate checks it against the plan's effect."""
    if ctx.sighting == "line" and ctx.line_type is not None and ctx.line_type == ctx.write_type:
        return Match({"line": ctx.line, "type": ctx.line_type})
    return Miss(f"the line reads {ctx.line_type or 'no state type'}, the write {ctx.write_type}")


@predicate("cascade_line_summarises_written_type", context="write-cascade")
def cascade_line_summarises_written_type(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line is a document the state answers that summarises the type the write changes: serving
    refuses it once a served write changed that type, so it never answers the change stale."""
    if ctx.sighting == "line" and ctx.write_type is not None and ctx.write_type in ctx.line_summarises:
        return Match({"line": ctx.line, "type": ctx.write_type})
    return Miss(f"the line is no document the state answers summarising {ctx.write_type}")


@predicate("cascade_line_related", context="write-cascade")
def cascade_line_related(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line's path relates to the call's path: the gate's side-effect check reaches it."""
    if ctx.sighting == "line" and ctx.line_relates:
        return Match({"line": ctx.line})
    return Miss("the line's path does not relate to the call's path")


@predicate("cascade_line_changes_alone", context="write-cascade")
def cascade_line_changes_alone(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line read differently with no write between two of its reads: its change shows no write."""
    if ctx.sighting in ("line", "span") and ctx.line_changes_alone:
        return Match({"line": ctx.line})
    return Miss("the line never read differently without a write between")


@predicate("cascade_line_across_writes", context="write-cascade")
def cascade_line_across_writes(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line's reads around the call have other writes between them too (a ``span``)."""
    if ctx.sighting == "span":
        return Match({"call": ctx.call, "line": ctx.line})
    return Miss("no other write lies between the line's reads around the call")


@predicate("cascade_line_replayed", context="write-cascade")
def cascade_line_replayed(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """Serving answers the line by replay, not from the state."""
    if ctx.sighting in ("line", "span") and not ctx.line_state_backed:
        return Match({"line": ctx.line})
    return Miss("the state answers the line")


@predicate("cascade_line_reads_kept_referrer", context="write-cascade")
def cascade_line_reads_kept_referrer(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line is an item read of an entity whose type names the entities the write (a delete)
    removes, found on both sides of the call: the application kept the referring entity."""
    if ctx.sighting != "line" or not ctx.line_refers:
        return Miss("the line is no item read of a type naming the written type's entities")
    if ctx.before is None or ctx.after is None or not (ctx.before.succeeded and ctx.after.succeeded):
        return Miss("the referring entity is not found on both sides of the call")
    return Match({"line": ctx.line, "type": ctx.line_type})


@predicate("cascade_line_reads_held_type", context="write-cascade")
def cascade_line_reads_held_type(ctx: CascadeContext, params: BaseModel) -> Outcome:
    """The line reads another type than the write's that serving answers from the state (through
    the line's own view or others: its item reads)."""
    if ctx.sighting != "line" or ctx.line_held_type is None:
        return Miss("the line reads no type the state answers")
    if ctx.line_held_type == ctx.write_type:
        return Miss(f"the line reads {ctx.line_held_type}, the type the write changes")
    return Match({"line": ctx.line, "type": ctx.line_held_type})


@predicate("cascade_line_changed", context="write-cascade", params=AbsenceParams)
def cascade_line_changed(ctx: CascadeContext, params: AbsenceParams) -> Outcome:
    """The line answered differently just before and just after the call: two successful answers by
    status and body, or an entity found on one side only (an absence status on the other)."""
    if ctx.sighting not in ("line", "span") or ctx.before is None or ctx.after is None:
        return Miss("no line read around the call")
    before, after = ctx.before, ctx.after
    evidence = {"call": ctx.call, "line": ctx.line, "before": before.ordinal, "after": after.ordinal,
                "statuses": [before.status, after.status]}
    if before.succeeded and after.succeeded:
        if before.status != after.status or not same_body(before.body_kind, before.body, after.body_kind, after.body):
            return Match(evidence)
        return Miss("the line reads the same on both sides")
    one_side = {before.succeeded, after.succeeded} == {True, False}
    if one_side and {before.status, after.status} & set(params.absent_statuses):
        return Match(evidence)
    return Miss(f"answers {before.status} and {after.status} show no change of state")


@predicate("cascade_answer_names_new_entity", context="write-cascade", params=ValueParams)
def cascade_answer_names_new_entity(ctx: CascadeContext, params: ValueParams) -> Outcome:
    """The call's answer names a value no earlier read showed, and a later read of another state type
    lists an entity under it as its identity: the call made that entity too."""
    if ctx.sighting != "answer" or ctx.value is None or ctx.listed_by is None:
        return Miss("no value of the answer names an entity of another type")
    if len(ctx.value) < params.min_length:
        return Miss(f"{ctx.value!r} is shorter than {params.min_length} characters")
    if ctx.listed_type == ctx.write_type:
        return Miss("the entity is of the type the write changes")
    return Match({"call": ctx.call, "value": ctx.value, "read": ctx.listed_by, "type": ctx.listed_type,
                  "path": ctx.listed_path})


class KeptParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """Fewer shared values may agree by chance (a small number, a default)."""


@predicate("cascade_delete_kept_listed", context="write-cascade", params=KeptParams)
def cascade_delete_kept_listed(ctx: CascadeContext, params: KeptParams) -> Outcome:
    """The delete's collection's next replayed list shows an object sharing at least ``min_members``
    members with the deleted entity, values no other listed object holds: the entity is still there."""
    if ctx.sighting != "kept" or ctx.listed_by is None:
        return Miss("no list after a delete's call")
    if len(ctx.kept_members) < params.min_members:
        return Miss(f"the listed object shares {ctx.kept_members} alone with the deleted entity, fewer than "
                    f"{params.min_members} members")
    return Match({"call": ctx.call, "read": ctx.listed_by, "listed_as": ctx.value, "members": ctx.kept_members})
