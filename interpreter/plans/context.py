"""What every write plan of one build reads (``PlanContext``), and the ``plans`` table's notes."""

from __future__ import annotations

import bisect
from functools import cached_property
from typing import Any

from capenv.interpreter.bundle.models import ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.names import MemberNameContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .link import AnswerPlaces
from .timeline import Timeline, build_timeline

IDENTITY_MEMBERS = "manifest-identity-members"


def item_upserts(manifest: Manifest, records: dict[int, Record], read_only: set[str]
                 ) -> dict[str, tuple[str, frozenset[int]]]:
    """The write tools whose path ends in a parameter, by name: their method and the statuses their
    calls answered (``write_beside_item_upsert`` names which statuses say it made what its path named)."""
    return {tool.name: (tool.method, frozenset(records[o].status for o in tool.record_ordinals))
            for tool in manifest.tools
            if tool.changes_state and tool.name not in read_only and split_path(tool.template)
            and split_path(tool.template)[-1].startswith("{")}


class PlanContext:
    """What every plan of one build reads: records, view, timeline, the write calls."""

    def __init__(self, manifest: Manifest, view: ViewResult, records: dict[int, Record], ruleset: RuleSet) -> None:
        self.manifest, self.view, self.records, self.ruleset = manifest, view, records, ruleset
        self.read_only = {p.tool for p in view.read_only_posts}
        self.tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
        self.timeline: Timeline = build_timeline(view, manifest, records)
        self.write_ordinals = self.timeline.write_ordinals
        self.writes = [records[o] for o in self.write_ordinals]
        self.document_paths = {d.path for d in view.state.documents} | {
            line.path for v in view.views if v.kind == "document" for line in v.documents}
        self.budgets = view.budgets
        self.min_id_length = int(ruleset.setting("plans", "min_linked_id_length"))
        self.is_identity_member = IdentityMembers(ruleset)
        self.answer_places = AnswerPlaces(ruleset)
        self.envelopes: dict[str, Any] = {}
        self.plan_of: dict[str, Any] = {}
        """Per write tool, its plan once every plan is built (``referrers`` reads a recorded call's
        body as the plan's members read it, inside its envelope)."""
        self.patch_ops: dict[str, tuple[str, ...]] = {}
        """Per update tool whose bodies are JSON Patches, the operations they used (``patch_bodies``)."""
        self.whole_tools: dict[str, Any] = {}
        """A per-value part's name -> the manifest tool it was split from (``collection_split``)."""
        self.unanswered: dict[tuple[str, str], list[Any]] | None = None
        """Update and action calls answered without their entity, by entity (``held_before``)."""
        self.known_ids: set[str] | None = None
        """Every id the capture shows an entity of any type holding, as text (``referrers``), on first use."""
        self.judged_referrers: dict[str, tuple[Any, Any]] = {}
        """Per type, the members naming its entities and their traces (``referrers``), judged once
        for the deletes and the copies through a reference alike."""
        self.item_upserts = item_upserts(manifest, records, self.read_only)
        """Write tools at a path ending in a parameter that answered 201 Created (``classify``)."""
        self.held_steps: dict[tuple[str, str], list[Any]] = {}
        """Each entity's sightings and unanswered writes in ordinal order, merged on first use
        (``held_before``)."""

    @cached_property
    def other_callers(self) -> frozenset[int]:
        """The records sent as another caller than the principal, for the credential headers the
        write tools' calls carry (``view/credentials``): their reads show that caller's view."""
        from capenv.interpreter.view.credentials import other_callers_records, write_credential_names

        names = write_credential_names(self.manifest, self.records, self.read_only, self.ruleset)
        return other_callers_records(list(self.records.values()), names, self.ruleset) if names else frozenset()

    def envelope_judge(self, tool: str, exemplar: Record, events: list[TraceEvent], type_name: str | None = None) -> Any:
        """A function (member, value) -> "array" | "object" | None, by the ``body-envelopes`` table,
        judged once on the exemplar (later calls must be wrapped the same way)."""
        from capenv.interpreter.predicates.body_envelopes import BodyEnvelopeContext
        from capenv.interpreter.view.shapes import holds

        # the judge keeps what it reads, not ``self``: kept in ``self.envelopes``, a judge holding
        # ``self`` would make the whole context cyclic garbage, walked again by the collector
        is_identity_member, ruleset = self.is_identity_member, self.ruleset
        answer = exemplar.response.json_value if exemplar.response.is_json else None
        answer_member, singleton_member = _answer_members(answer, is_identity_member)
        inner = answer
        while answer_member is None and singleton_member is None and (inner := _envelope_object(
                inner, is_identity_member)) is not None:  # the answer's envelope ({"data": {"rows": [{…}]}})
            found = _answer_members(inner, is_identity_member)
            if found != (None, None):  # an entity inside: judged there; else at the top (a document's {"data": {…}})
                answer, (answer_member, singleton_member) = inner, found
        type_fields: list[str] = []
        for held in self.view.state.collections if type_name else ():
            if held.type == type_name:
                for entity in held.entities:
                    type_fields += [k for k in entity.value if k not in type_fields]
        decided: dict[str, Any] = {}

        def judge(member: str, value: Any) -> str | None:
            if member not in decided:
                echoed = (isinstance(answer, dict) and isinstance(value, dict) and value
                          and not any(is_identity_member(k) for k in answer)
                          and isinstance(answer.get(member), dict)
                          and all(k in answer[member] and answer[member][k] == v for k, v in value.items()))
                context = BodyEnvelopeContext(member=member, holds=holds(value), members=1,
                                              answer_member=answer_member, echoed_under=member if echoed else None,
                                              answer_singleton_member=singleton_member,
                                              type_fields=tuple(type_fields),
                                              inner_members=tuple(value) if isinstance(value, dict) else ())
                decision = evaluate(ruleset, "body-envelopes", context, subject=f"{tool} body.{member}")
                events.extend(decision.events)
                decided[member] = decision.yields.get("envelope") if decision.ok else None
            return decided[member]

        return judge

    def other_write_between(self, tool: str, first: int, last: int) -> bool:
        """Whether a write of another tool has an ordinal strictly between ``first`` and ``last``."""
        start = bisect.bisect_right(self.write_ordinals, first)
        for ordinal in self.write_ordinals[start:]:
            if ordinal >= last:
                return False
            if self.tool_of.get(ordinal) != tool:
                return True
        return False

    def type_read_before(self, type_name: str, ordinal: int) -> bool:
        start = self.records[ordinal].started_at
        return any(s.value is not None and self.records[s.ordinal].finished_at <= start
                   for (t, _), sightings in self.timeline.by_entity.items() if t == type_name for s in sightings)

    def type_entities(self, type_name: str, before: int, unlisted: frozenset[str] = frozenset(),
                      completed: bool = False) -> list[dict[str, Any]]:
        """The type's entities as last seen before a call (initial state, then sightings).
        ``unlisted``: fields a list read shows nothing of (volatile ones a listing answers
        otherwise than the item read): after a list read, each keeps its latest value an item
        read, a write's answer or the initial state showed. ``completed``: a list read's entity
        also keeps every field the list does not show as last seen otherwise, since a list of
        ``{id, link}`` rows shows part of each entity, not entities without the rest."""
        latest: dict[str, dict[str, Any]] = {}
        initial: dict[str, dict[str, Any]] = {}
        for collection in self.view.state.collections:
            if collection.type == type_name:
                for entity in collection.entities:
                    latest[str(entity.id)] = initial[str(entity.id)] = entity.value
        for key, seen in self.timeline.reads_before(type_name, before).items():
            if seen.value is None:
                latest.pop(key, None)
            elif unlisted and seen.via == "list":
                latest[key] = self._with_earlier(seen, self.timeline.by_entity[(type_name, key)], unlisted,
                                                 initial.get(key))
            elif completed and seen.via == "list":
                latest[key] = self._completed(seen, self.timeline.by_entity[(type_name, key)], initial.get(key))
            else:
                latest[key] = seen.value
        return list(latest.values())

    @staticmethod
    def _with_earlier(seen: Any, sightings: list[Any], names: frozenset[str],
                      initial: dict[str, Any] | None) -> dict[str, Any]:
        """A list read's entity with each of ``names`` as the latest earlier sighting other than a
        list's (else the initial state) showed it; without it where none did, since the list's
        value is its own projection, not the entity's (as ``view/projected_state`` leaves the state)."""
        value = dict(seen.value)
        for name in names & value.keys():
            earlier = next((s.value[name] for s in reversed(sightings) if s.ordinal < seen.ordinal
                            and s.via != "list" and s.value is not None and name in s.value), _UNSEEN)
            if earlier is _UNSEEN and initial is not None and name in initial:
                earlier = initial[name]
            if earlier is _UNSEEN:
                del value[name]
            else:
                value[name] = earlier
        return value


    @staticmethod
    def _completed(seen: Any, sightings: list[Any], initial: dict[str, Any] | None) -> dict[str, Any]:
        """A list read's entity over the latest earlier sighting other than a list's (else the
        initial state): the fields the list shows as it shows them, the rest as last seen."""
        base = next((s.value for s in reversed(sightings) if s.ordinal < seen.ordinal
                     and s.via != "list" and s.value is not None), initial)
        if not base:
            return seen.value
        value = {name: seen.value.get(name, held) for name, held in base.items()}
        value.update((name, shown) for name, shown in seen.value.items() if name not in value)
        return value


_UNSEEN = object()
"""No sighting but a list's showed the member."""


class IdentityMembers:
    """Whether a member name is an identity's, by the ``manifest-identity-members`` table, once per name."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.decided: dict[str, bool] = {}

    def __call__(self, name: str) -> bool:
        if name not in self.decided:
            decision = evaluate(self.ruleset, IDENTITY_MEMBERS, MemberNameContext(name=name), subject=name)
            self.decided[name] = bool(decision.yields.get("identity"))
        return self.decided[name]


def note(subject: str, outcome: str, reason: str, location: str = "") -> TraceEvent:
    """A plan-building step no rule table decides, traced under the ``plans`` table."""
    return TraceEvent(table="plans", rule_id=None, outcome="miss", subject=subject, reason=f"{outcome}: {reason}",
                      location=location)


def _answer_members(answer: Any, is_identity_member: Any) -> tuple[str | None, str | None]:
    """The member of an answer object holding an object with an identity member (the entity), and
    the member holding it as the one element of an array, each or None."""
    if not isinstance(answer, dict):
        return None, None
    objects = [name for name, value in answer.items() if isinstance(value, dict)]
    answer_member = objects[0] if any(is_identity_member(k) for n in objects for k in answer[n]) else None
    answer_member = next((n for n in objects if len(answer[n]) > 1 and any(is_identity_member(k) for k in answer[n])),
                         answer_member)
    singleton_member = next((n for n, v in answer.items() if isinstance(v, list) and len(v) == 1
                             and isinstance(v[0], dict) and any(is_identity_member(k) for k in v[0])), None)
    return answer_member, singleton_member


def _envelope_object(answer: Any, is_identity_member: Any) -> dict[str, Any] | None:
    """The object an answer wraps, where the answer holds no identity member and one object beside
    scalars only (``{"data": {…}}``, ``{"code": 0, "data": {…}}``); else None."""
    if not isinstance(answer, dict) or any(is_identity_member(k) for k in answer):
        return None
    containers = [v for v in answer.values() if isinstance(v, (dict, list))]
    return containers[0] if len(containers) == 1 and isinstance(containers[0], dict) else None
