"""The entity as held just before an update's call (seeds: "Updates", "Item actions").

The latest read of the entity, brought forward by the writes recorded since, each finished
before the call began:

- a 2xx create's or update's answer carrying the entity replaces the members it shows (an
  answer may leave fields out, which the write kept);
- a 2xx update or action answered without the entity (a 204, say) brings forward only the
  members it sent, what an update's effect holds for certain. Whatever else it changed nothing
  shows, so every other field is *stale* until a read or an answer shows the entity again: the
  plan explains no change of a stale field from that value (``update_changes``);
- any other write that may have changed state below the entity's item path (a sub-resource a
  POST made, a transition; a delete of the entity itself aside) brings nothing forward and leaves
  every field stale.

A list read shows only the fields its view shows: the fields its answers never show are kept
from the entity as held before it, unless a write left them stale.

A read that began before an applied write had finished may show the entity from before that
write, so it is passed over. Bulk writes, deletes and documents bring nothing forward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.view.extract import collection_path

from .absent_before import classified
from .answer_reports import entity_or_report
from .classify import target_of
from .exemplar import admit_body
from .item_keys import call_key, keyed_target
from .link import entity_in_answer, identity_of, link_create, names_collection_of, returned_ids
from .sub_resource import sub_resource_call
from .timeline import READS, Sighting, same_collection


@dataclass(frozen=True)
class Unanswered:
    """A 2xx update or action call that answered without its entity."""

    ordinal: int
    sent: dict[str, Any]
    """The members it sent (envelope unwrapped; ``{}`` for an action sending none)."""


@dataclass(frozen=True)
class HeldBefore:
    value: dict[str, Any] | None
    """None: the latest read found the entity absent and nothing followed."""
    ordinal: int
    """The last record applied."""
    via: str
    """item, list, response or unanswered (the last record applied)."""
    stale_by: tuple[int, ...] = ()
    """Writes answered without the entity since the entity was last shown: fields they did not
    send may have changed unseen."""
    sure: frozenset[str] = field(default_factory=frozenset)
    """The members those writes sent: brought forward, so not stale (``UpdateCall.stale``)."""


def held_before(ctx: Any, entity_type: EntityType, key: str, ordinal: int) -> HeldBefore | None:
    """The entity as held just before the call ``ordinal`` began (None when nothing showed it)."""
    if ctx.unanswered is None:
        _add_write_answers(ctx)
    records: dict[int, Record] = ctx.records
    start = records[ordinal].started_at
    held: HeldBefore | None = None
    written_until = None  # when the latest applied write finished
    ordered = ctx.timeline.start_ordered
    collection = call_collection(ctx.timeline, entity_type, key, records[ordinal])
    for step in _steps(ctx, entity_type.name, key):
        record = records[step.ordinal]
        if ordered and record.started_at > start:
            break  # ordinals follow start times: no later step finished before the call began
        if record.finished_at > start or step.ordinal == ordinal:
            continue
        if collection is not None and not same_collection(
                step.collection if isinstance(step, Sighting) else collection_path(record.path, entity_type),
                collection):
            continue  # another collection's entity with the same id
        if isinstance(step, Unanswered):
            value = {**(held.value or {}), **step.sent} if held is not None else dict(step.sent)
            stale_by = (held.stale_by if held is not None else ()) + (step.ordinal,)
            sure = (held.sure if held is not None and held.stale_by else frozenset()) | frozenset(step.sent)
            held = HeldBefore(value, step.ordinal, "unanswered", stale_by, sure)
        elif step.via == "response":
            value = {**held.value, **(step.value or {})} if held is not None and held.value is not None \
                else dict(step.value or {})
            held = HeldBefore(value, step.ordinal, "response")
        elif written_until is None or record.started_at >= written_until:
            held = HeldBefore(_with_unlisted(ctx, step, held), step.ordinal, step.via)
            continue
        else:
            continue
        written_until = record.finished_at if written_until is None else max(written_until, record.finished_at)
    return held


def call_collection(timeline: Any, entity_type: EntityType, key: str, call: Record) -> str | None:
    """The collection a call names its entity in, where the type's item path names one (ids repeat
    across a type's collections, as a generic collection segment's tables number their rows each on
    their own: another collection's entity with the same id is not this one); None for a shallow
    type, whose item path names an entity by its id alone."""
    if entity_type.shallow_items or entity_type.address is not None:
        return None
    return timeline.collection_at(call.path, entity_type, key)


def _with_unlisted(ctx: Any, step: Sighting, held: HeldBefore | None) -> dict[str, Any] | None:
    """A read's entity, with the fields its list view never shows kept from the entity as held,
    when nothing left those stale: a list that leaves a field out of every answer (a secret only
    the item read shows) says nothing of it, so the field is no change the next read shows. So
    with a field a view of the type holds volatile: its value on the list shows nothing of the
    entity (a group ZenML's listing answers null where the item read shows it whole)."""
    if step.via != "list" or step.value is None or held is None or held.value is None or held.stale_by:
        return step.value
    read_view = next((v for v in ctx.view.views if v.tool == ctx.tool_of.get(step.ordinal)), None)
    shown = set(read_view.shown_fields) if read_view is not None else set(step.value)
    volatile = {name for v in ctx.view.views if read_view is not None and v.type == read_view.type
                for name in v.volatile_fields}
    unlisted = {name: value for name, value in held.value.items()
                if (name not in shown and name not in step.value) or name in volatile}
    return {**step.value, **unlisted} if unlisted else step.value


def _steps(ctx: Any, type_name: str, key: str) -> list[Sighting | Unanswered]:
    """The entity's reads, write answers and unanswered writes in ordinal order, merged once per
    entity (every update call of the entity asks)."""
    steps = ctx.held_steps.get((type_name, key))
    if steps is None:
        found: list[Sighting | Unanswered] = list(ctx.timeline.sightings(type_name, key, READS + ("response",)))
        found += ctx.unanswered.get((type_name, key), [])
        steps = ctx.held_steps[(type_name, key)] = sorted(found, key=lambda s: s.ordinal)
    return steps


def _add_write_answers(ctx: Any) -> None:
    """Every 2xx create or update answer that carries its entity, located by its id at the root,
    in one member or in a one-element array, added to the timeline as a sighting via "response";
    every 2xx update or action call answered without it kept as ``Unanswered``.

    A write's type and entity are the ones its plan takes: an update's or action's names it in its
    path (an action that made a sub-resource names none), a create's is its link; bulk writes,
    deletes and documents add nothing."""
    ctx.timeline.answers = {}
    ctx.unanswered = {}
    ctx.held_steps = {}
    handled: set[tuple[int, str, str]] = set()  # (ordinal, type, key) an update's or action's own call
    for tool in ctx.manifest.tools:
        if not tool.changes_state or tool.name in ctx.read_only:
            continue
        calls = [ctx.records[o] for o in tool.record_ordinals]
        succeeded = [c for c in calls if c.succeeded]
        if not succeeded:
            continue
        target = keyed_target(tool, target_of(tool, ctx.view, ctx.document_paths, [c.path for c in calls],
                                              ctx.ruleset), ctx)
        effect = str(classified(tool, target, ctx).yields.get("effect", "none"))
        found: list[tuple[Record, EntityType, str, dict[str, Any] | None]] = []
        if effect in ("update", "action") and target.type is not None:
            if effect == "action" and sub_resource_call(calls, target.type, ctx) is not None:
                continue
            for call in succeeded:
                key = call_key(ctx.timeline, call, target.after_item)
                entity = entity_or_report(tool.name, call.response.json_value, target.type, key, ctx)[0] \
                    if call.response.is_json else None
                handled.add((call.ordinal, target.type.name, key))
                if entity is None:
                    envelope = ctx.envelopes.get(tool.name) or ctx.envelope_judge(tool.name, succeeded[0], [], target.type.name)
                    sent = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                                      envelope=envelope).body
                    ctx.unanswered.setdefault((target.type.name, key), []).append(Unanswered(call.ordinal, sent or {}))
                found.append((call, target.type, key, entity))
        elif effect == "create":
            for call in (c for c in succeeded if c.response.is_json):
                named = target.type if target.type is not None and names_collection_of(call.path, target.type) \
                    else None
                candidates = returned_ids(call.response.json_value, identity_of(ctx.is_identity_member, named),
                                          ctx.min_id_length)
                link, _ = link_create(call, ctx.timeline, ctx.view.state, candidates,
                                      lambda a, b, name=tool.name: ctx.other_write_between(name, a, b),
                                      ctx.min_id_length, ctx.type_read_before, ctx.answer_places,
                                      target=named)
                if link is not None:
                    found.append((call, link.type, str(link.id_value), link.observed))
        for call, entity_type, key, entity in found:
            if entity is not None:
                ctx.timeline.add_answer(Sighting(call.ordinal, entity_type.name,
                                                 ctx.timeline.collection_at(call.path, entity_type, key),
                                                 key, entity, "response"))
    _add_writes_below_items(ctx, handled)


def _add_writes_below_items(ctx: Any, handled: set[tuple[int, str, str]]) -> None:
    """Every other write that may have changed state at or below an entity's item path leaves that
    entity stale, bringing nothing forward (a delete of the entity itself removes it instead)."""
    templates = [(entity_type, split_path(entity_type.collection_template)) for entity_type in ctx.view.types]
    for write in ctx.writes:
        parts = split_path(write.path)
        for entity_type, template in templates:
            if len(parts) <= len(template) or not _under(parts, template):
                continue
            key = unquote(parts[len(template)])
            if (write.ordinal, entity_type.name, key) in handled or (
                    write.method == "DELETE" and len(parts) == len(template) + 1):
                continue
            ctx.unanswered.setdefault((entity_type.name, key), []).append(Unanswered(write.ordinal, {}))


def _under(parts: list[str], template: list[str]) -> bool:
    """``parts`` begin with the collection ``template`` (a parameter matches any segment)."""
    return all(a == b or b.startswith("{") for a, b in zip(parts, template))
