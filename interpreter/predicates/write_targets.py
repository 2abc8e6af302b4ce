"""Predicates classifying a write tool by where its path lies relative to the state's types.

Context ``write-target``: a state-changing tool's method and its path's relation to the types
(an item path, an item path plus one literal segment, a collection path, a collection path plus
one literal segment, a held document's path, or none of these).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import WordsParams, in_words


@context_model("write-target")
class WriteTargetContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    relation: str
    """item, item-segment, item-suffix (an item path plus two or more literal segments),
    collection, collection-segment, document or other."""
    segment: str | None = None
    """The literal segment after an item or collection path (an item-suffix path's last one)."""
    markers: tuple[str, ...] = ()
    """An item-suffix path's literal segments between the item path and its last segment."""
    segment_names_type: bool = False
    """Some state type's collection ends in the segment (a sub-collection, not an action)."""
    type: str | None = None
    succeeded_statuses: tuple[int, ...] = ()
    """The statuses the tool's successful (2xx) recorded calls answered, one per call."""
    met_absence: bool = False
    """Every successful recorded call named an entity the capture showed absent just before it
    (``plans/absent_before``)."""
    some_met_absence: bool = False
    """A successful recorded call named an entity the capture showed absent just before it."""
    absent_answers: tuple[str, ...] = ()
    """What each such call's answer held (``plans/absent_before.answer_kind``): none, null,
    empty-object, empty-array, empty-envelope (an object whose every member holds null or an empty
    array or object, ``{"data": []}``), or entity (anything else)."""
    some_met_unheld: bool = False
    """A successful recorded call named an entity nothing the capture showed held before it (not in
    the initial state, no read or answer before the call)."""
    item_upserts: dict[str, tuple[str, frozenset[int]]] = {}
    """Other write tools whose path ends in a parameter, by name: their method and the statuses
    their calls answered."""
    item_made_absent: tuple[str, ...] = ()
    """Of ``item_upserts``, those a successful call of which named an entity the capture showed
    absent just before it (it made what its path named, whatever status it answered)."""
    met_held: bool = False
    """Every successful recorded call named an entity held just before it (``plans/absent_before``)."""
    unheld_statuses: tuple[int, ...] = ()
    """The statuses of the failed recorded calls that named an entity nothing held before them."""


class MethodsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)


class RelationsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    relations: list[str] = Field(min_length=1)


@predicate("write_method_in", context="write-target", params=MethodsParams)
def write_method_in(ctx: WriteTargetContext, params: MethodsParams) -> Outcome:
    """The tool's method is one of some methods."""
    if ctx.method in params.methods:
        return Match({"method": ctx.method})
    return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")


@predicate("write_relation_is", context="write-target", params=RelationsParams)
def write_relation_is(ctx: WriteTargetContext, params: RelationsParams) -> Outcome:
    """The path lies in one of some relations to a type (item, collection, …)."""
    if ctx.relation in params.relations:
        return Match({"relation": ctx.relation, "type": ctx.type})
    return Miss(f"the path is {ctx.relation}, not {' or '.join(params.relations)}")


@predicate("write_segment_in", context="write-target", params=WordsParams)
def write_segment_in(ctx: WriteTargetContext, params: WordsParams) -> Outcome:
    """The literal segment after the item or collection path is one of a word list."""
    if ctx.segment is None:
        return Miss("no literal segment after the path")
    return in_words(ctx.segment, params)


@predicate("write_segment_names_type", context="write-target")
def write_segment_names_type(ctx: WriteTargetContext, params: BaseModel) -> Outcome:
    """A state type's collection ends in the segment (it names a sub-collection)."""
    if ctx.segment_names_type:
        return Match({"segment": ctx.segment})
    return Miss(f"no type's collection ends in {ctx.segment!r}")


class CreatedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    created_statuses: list[int] = Field(min_length=1)
    """Statuses by which an application says a call made what its path named (201 Created)."""


def _created_label(params: CreatedParams) -> str:
    return "/".join(map(str, sorted(set(params.created_statuses))))


@predicate("write_calls_answered_created", context="write-target", params=CreatedParams)
def write_calls_answered_created(ctx: WriteTargetContext, params: CreatedParams) -> Outcome:
    """Every successful recorded call of the tool answered one of ``created_statuses``: each made
    what its path names."""
    created = set(params.created_statuses)
    if ctx.succeeded_statuses and all(s in created for s in ctx.succeeded_statuses):
        return Match({"status": sorted(set(ctx.succeeded_statuses))})
    if not ctx.succeeded_statuses:
        return Miss("no recorded call succeeded")
    return Miss(f"not every successful call answered {_created_label(params)}")


@predicate("write_some_call_answered_created", context="write-target", params=CreatedParams)
def write_some_call_answered_created(ctx: WriteTargetContext, params: CreatedParams) -> Outcome:
    """A successful recorded call of the tool answered one of ``created_statuses``: it made what
    its path names."""
    answered = sorted(set(ctx.succeeded_statuses) & set(params.created_statuses))
    if answered:
        return Match({"status": answered})
    return Miss(f"no successful call answered {_created_label(params)}")


@predicate("write_markers_in", context="write-target", params=WordsParams)
def write_markers_in(ctx: WriteTargetContext, params: WordsParams) -> Outcome:
    """Every literal segment between the item path and the last segment is one of a word list
    (segments that only mark what follows as a verb, as Datasette's ``-``); none at all matches."""
    for marker in ctx.markers:
        outcome = in_words(marker, params)
        if isinstance(outcome, Miss):
            return Miss(f"the segment {marker!r} before {ctx.segment!r} marks no verb: {outcome.reason}")
    return Match({"markers": "/".join(ctx.markers)} if ctx.markers else {})


@predicate("write_calls_met_absence", context="write-target")
def write_calls_met_absence(ctx: WriteTargetContext, params: BaseModel) -> Outcome:
    """Every successful recorded call named an entity the capture showed absent just before it:
    each made what its path names."""
    if ctx.met_absence:
        return Match({"absent_before": True})
    return Miss("not every successful call named an entity the capture showed absent before it")


@predicate("write_some_call_met_absence", context="write-target")
def write_some_call_met_absence(ctx: WriteTargetContext, params: BaseModel) -> Outcome:
    """A successful recorded call named an entity the capture showed absent just before it: it made
    what its path names, whatever status it answered."""
    if ctx.some_met_absence:
        return Match({"absent_before": True})
    return Miss("no successful call named an entity the capture showed absent before it")


class NothingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    nothing: list[str] = Field(min_length=1)
    """The answer kinds that show a call made nothing (``WriteTargetContext.absent_answers``)."""


@predicate("write_absent_call_answered_entity", context="write-target", params=NothingParams)
def write_absent_call_answered_entity(ctx: WriteTargetContext, params: NothingParams) -> Outcome:
    """A successful call naming an entity the capture showed absent answered something other than
    an answer holding nothing (``{"data": []}`` for a PUT of an id nothing holds made nothing)."""
    made = [kind for kind in ctx.absent_answers if kind not in params.nothing]
    if made or not ctx.absent_answers:
        return Match({"answers": list(ctx.absent_answers)})
    return Miss(f"every call naming an entity the capture showed absent answered nothing "
                f"({', '.join(sorted(set(ctx.absent_answers)))}): it made nothing there")


@predicate("write_some_call_met_unheld", context="write-target")
def write_some_call_met_unheld(ctx: WriteTargetContext, params: BaseModel) -> Outcome:
    """A successful recorded call named an entity nothing the capture showed held before it: the
    call may have made it, or changed one the capture never read."""
    if ctx.some_met_unheld:
        return Match({"unheld_before": True})
    return Miss("every successful call named an entity the capture showed held before it")


class HeldParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    absence_statuses: list[int] = Field(min_length=1)
    """Statuses by which an application says the entity a path names does not exist (404 Not Found)."""


@predicate("write_calls_met_held", context="write-target", params=HeldParams)
def write_calls_met_held(ctx: WriteTargetContext, params: HeldParams) -> Outcome:
    """Every successful recorded call named an entity held just before it, and a call naming one
    nothing held answered an absence: the method changes what exists and makes nothing."""
    if not ctx.met_held:
        return Miss("not every successful call named an entity held before it")
    absent = sorted(set(ctx.unheld_statuses) & set(params.absence_statuses))
    if not absent:
        return Miss("no call naming an entity nothing held answered " + "/".join(map(str, params.absence_statuses)))
    return Match({"absence": absent})


class UpsertParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)
    created_statuses: list[int] = Field(min_length=1)
    """Statuses by which an application says a call made what its path named (201 Created)."""


@predicate("write_beside_item_upsert", context="write-target", params=UpsertParams)
def write_beside_item_upsert(ctx: WriteTargetContext, params: UpsertParams) -> Outcome:
    """Another tool of the tool's own method (one of some methods), at a path ending in a
    parameter, made what its path named (a successful call answered 201 Created, or named an
    entity the capture showed absent just before it, whatever it answered): the application's
    method may do so here too."""
    if ctx.method not in params.methods:
        return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")
    created = set(params.created_statuses)
    beside = sorted(name for name, (method, statuses) in ctx.item_upserts.items()
                    if method == ctx.method and (statuses & created or name in ctx.item_made_absent))
    if beside:
        return Match({"upserts": beside})
    return Miss(f"no other {ctx.method} tool at an item path answered {'/'.join(map(str, sorted(created)))} "
                "or named an entity the capture showed absent before it")
