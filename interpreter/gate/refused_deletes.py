"""A delete the application refused while the entity it names was held (write-effects "Not
modelled": referential rules on delete).

A DELETE answered with a refusal that is no absence (Superset's 422 "Annotation layer has
associated annotations.") while the entity is held (the gate's copy holds it, or the reads show
it before the call and still after it) shows the application
deletes only under a condition the spec does not model (no other entity references it). So does an
absence (404) answered while the reads show the entity just before the call and again right after it
(Mistral's standard actions), or just before it and a later successful call of the delete then removed
it with no read between showing it gone (a cache file or folder the later call named in its query):
only the reads and the tool's own calls count there, since a copy holding an entity the application
had already lost is what an absence answer usually means. Served,
the delete would remove an entity the application keeps; the verdict table decides from the
refused calls noted here (``verdict.refused-while-held``).
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline, own_collection, same_collection
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteEnv

from capenv.interpreter.view.unauthenticated import carried_everywhere

from .findings import GateNote, PlanFindings
from .write_checks import target_entity

LOCATION = "interpreter/gate/refused_deletes.py:note_refused_while_held"


def note_refused_while_held(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, timeline: Timeline,
                            findings: PlanFindings, credentials: Credentials | None = None,
                            later_calls: list[Record] = ()) -> None:
    """Note the delete call the application answered with an error while its entity was held (the
    copy held it, or the reads show it before and after). A 5xx may also have deleted it; either way
    the delete holds under a condition serving would not check, so the verdict table, which picks
    the statuses that count, may refuse the plan. ``later_calls``: the tool's calls after this one,
    in order."""
    if plan.effect != "delete" or record.succeeded or record.status < 400:
        return
    target = target_entity(plan, record, env, timeline)
    if target is None:
        return
    type_name, key = target
    own = own_collection(record.path, env.types[type_name])  # ids repeat across the type's collections
    shown = _shown_around(timeline, type_name, key, record.ordinal, own) \
        or _removed_later(plan, record, env, timeline, later_calls, target, own)
    if shown:
        findings.refused_shown.append((record.ordinal, record.status))
    if shown or any(key in collection.entities for collection in copy.collections_of(type_name)
                    if own is None or same_collection(collection.path, own)):
        findings.refused_held.append((record.ordinal, record.status))
        if credentials is not None and credentials.as_exemplar(plan, record):
            findings.refused_held_as_exemplar.append((record.ordinal, record.status))
        findings.notes.append(GateNote(record.ordinal, f"the application refused this delete ({record.status}) "
                                       f"while the {type_name} {key!r} was held", location=LOCATION))


def note_refused_where_accepted(plan: WritePlan, record: Record, records: dict[int, Record],
                                tool_calls: list[int], findings: PlanFindings) -> None:
    """Note the create call the application refused although a successful call of the tool sent
    the same body (JSON-equal) to another path: the body was valid, so the refusal is about what
    that collection held (a user already a member of the project), a condition serving would not
    check; the verdict table, which picks the statuses that count, may refuse the plan."""
    if plan.effect != "create" or record.succeeded or record.status < 400 or not record.request.is_json:
        return
    if plan.chosen_id is not None:
        return  # the client names the new entity (a taken name is refused): serving checks that itself
    sent = record.request.json_value
    for ordinal in tool_calls:
        other = records[ordinal]
        if other.succeeded and other.path != record.path and other.request.is_json and other.request.json_value == sent:
            findings.refused_where_accepted.append((record.ordinal, record.status))
            findings.notes.append(GateNote(record.ordinal, f"the application refused this create ({record.status}) "
                                           f"where record {ordinal} created with the same body at {other.path}",
                                           location=LOCATION))
            return


class Credentials:
    """What a call's credentials are: the request headers every successful primary call of the
    capture carried (``carried_everywhere``); two calls sent the same ones with equal values."""

    def __init__(self, records: dict[int, Record]):
        self.records = records
        self.names = carried_everywhere(list(records.values()))

    def _values(self, record: Record) -> dict[str, str]:
        return {name.lower(): value for name, value in record.request_headers if name.lower() in self.names}

    def as_exemplar(self, plan: WritePlan, record: Record) -> bool:
        """Whether ``record`` was sent with the credentials the plan's exemplar succeeded with."""
        exemplar = self.records.get(plan.exemplar) if plan.exemplar is not None else None
        return exemplar is not None and bool(self.names) and self._values(record) == self._values(exemplar)


def _removed_later(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline, later_calls: list[Record],
                   target: tuple[str, str], collection: str | None) -> bool:
    """The reads show the entity held just before the call, and the next later call of the delete
    naming it succeeded with no read between showing it gone: the application held it when it
    answered this call absent."""
    type_name, key = target
    before = timeline.held_before(type_name, key, record.ordinal, collection=collection)
    if before is None or before.value is None:
        return False
    other = next((call for call in later_calls if call.ordinal > record.ordinal
                  and target_entity(plan, call, env, timeline) == target), None)
    if other is None or not other.succeeded:
        return False
    read = timeline.first_after(type_name, key, record.ordinal, collection=collection)
    return read is None or read.value is not None \
        or timeline.records[read.ordinal].started_at >= other.finished_at


def _shown_around(timeline: Timeline, type_name: str, key: str, ordinal: int, collection: str | None) -> bool:
    """The reads show the entity held just before the call and in the first read after it (in
    ``collection``, when not None)."""
    before = timeline.held_before(type_name, key, ordinal, collection=collection)
    after = timeline.first_after(type_name, key, ordinal, collection=collection)
    return before is not None and before.value is not None and after is not None and after.value is not None
