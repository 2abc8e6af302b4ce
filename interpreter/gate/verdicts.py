"""Each plan's verdict from what the gate found, by the ``verdicts`` precedence table."""

from __future__ import annotations

from capenv.interpreter.bundle.models import ViewResult, WritePlan
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.predicates.verdicts import PlanVerdictContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .cascades import Cascade
from .copies import copied_types
from .referrer_counts import Sightings, counted_referrers
from .findings import PlanFindings
from .answer_arguments import answer_addresses, answer_names_arguments
from .held_beneath import held_beneath
from .replay import GateRun
from .sequence_reuse import judged_sequence_rules

TABLE = "verdicts"
NOTHING_CHECKED = ("its calls were applied, but no read the gate checks came after them: a read answered by replay, "
                   "one overlapping the write, or one that only supplied the call's observation checks nothing")


def lacking_fields(plan: WritePlan, view: ViewResult) -> tuple[str, ...] | None:
    """For an update or delete answering with the entity: the fields its recorded answer shows
    (less those its rules write, but an increment's) that the most complete initial entity of the
    type lacks. None when one holds them all, or the plan answers no entity: its entities are
    complete."""
    if plan.effect not in ("update", "action", "delete") or plan.response is None or not plan.response.carries_entity:
        return None
    shown = locate(plan.response.body, plan.response.locator) if plan.response.locator else None
    if not isinstance(shown, dict):
        return None
    written = ({f.field for f in plan.fields if f.op != "increment"} | {name for name, _ in plan.response.added}
               | set(plan.response.held_only))
    needed = set(shown) - written
    entities = [e.value for c in view.state.collections if c.type == plan.type for e in c.entities]
    lacking = [needed - set(entity) for entity in entities]
    if any(not fields for fields in lacking):
        return None
    return tuple(sorted(min(lacking, key=len))) if lacking else tuple(sorted(needed))


def _explanations(plan: WritePlan, found: PlanFindings | None, view: ViewResult) -> dict:
    """What the gate saw, for the verdict's evidence: the difference a contradicting or
    side-effect read showed, why each call added nothing checkable, the reads of the plan's type
    that serving answers by replay (they check nothing), and the fields its entities lack."""
    notes = list(found.notes) if found else []
    side_effect = next((str(n) for n in notes if n.kind == "side-effect"), None)
    by = found.contradicted_by if found else None
    contradiction = next((str(n) for n in notes if n.kind == "contradiction" and n.record == by), None)
    calls = [str(n) for n in notes if n.kind == "call"]
    if found is not None and not found.confirmations:
        calls = calls or [NOTHING_CHECKED]
        if plan.observation is not None and plan.exemplar is not None and plan.observation != plan.exemplar:
            calls.append(f"record {plan.observation} supplied the observation of record {plan.exemplar}, so it "
                         "checks nothing of that call")
    replayed = {v.tool: v.reason or "answered by replay" for v in view.views
                if plan.type and v.type == plan.type and v.kind in ("item", "list") and not v.state_backed}
    lacking = lacking_fields(plan, view)
    return {"contradiction": contradiction, "side_effect": side_effect, "unchecked_calls": tuple(calls),
            "replayed_reads": replayed, "incomplete_entities": lacking is not None, "lacking_fields": lacking or ()}


def apply_verdicts(plans: list[WritePlan], run: GateRun, view: ViewResult, ruleset: RuleSet,
                   cascades: dict[str, Cascade] | None = None, shown: Sightings | None = None) -> list[WritePlan]:
    """Each plan's verdict; ``cascades`` (``gate/cascades``) names, per tool, the read that showed a
    recorded call changing state the plan does not write; ``shown``: the capture's reads around the
    recorded writes, for the counts a write changes (``gate/referrer_counts``)."""
    result = []
    cascades = cascades or {}
    copies = copied_types(view, ruleset)
    counts = counted_referrers(view, ruleset, shown)
    for plan in plans:
        found = run.findings.get(plan.tool)
        copied, copy_events = copies.get(plan.type or "", ((), ()))
        counted_by, count_events = _counted_by(plan, counts)
        cascade = cascades.get(plan.tool)
        build_reason = plan.build_reason or ("unexplained-change" if found and found.unexplained_by else None)
        context = PlanVerdictContext(
            build_reason=build_reason, answered_held=plan.answered_held,
            key=", ".join(plan.key.members) if plan.key is not None and plan.key.branch == "get" else None,
            key_confirmations=len(found.key_confirmations) if found else 0,
            contradicted_by=found.contradicted_by if found else None,
            side_effect_by=found.side_effect_by if found else None,
            confirmations=len(found.confirmations) if found else 0, copies=copied, copies_refused_per_call=plan.copy_holders,
            counted_by=counted_by,
            ids_per_collection=_ids_per_collection(plan, view),
            refused_held=tuple(found.refused_held) if found else (),
            refused_held_as_exemplar=tuple(found.refused_held_as_exemplar) if found else (),
            refused_shown=tuple(found.refused_shown) if found else (),
            refused_where_accepted=tuple(found.refused_where_accepted) if found else (),
            refused_create_values=tuple(found.refused_create_values) if found else (),
            refused_serving_accepts=tuple(found.refused_serving_accepts) if found else (),
            held_beneath=held_beneath(plan, view),
            cascade_by=cascade.read if cascade else None, cascade=cascade.shown if cascade else None,
            constants_holding_generated=_constants_holding_generated(plan),
            answer_names_arguments=answer_names_arguments(plan),
            answer_status=plan.response.status if plan.response is not None else None,
            answer_addresses=answer_addresses(plan),
            member_rules=tuple((m.member, m.rule_id) for m in plan.members if m.admission != "not-accepted"),
            materialized_references=tuple(r.member for r in plan.references if r.dangling == "materialized"),
            **_explanations(plan, found, view))
        decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} verdict")
        served = bool(decision.yields.get("served"))
        reason_kind = decision.yields.get("reason")
        reason = None if served else (build_reason if reason_kind == "build" else str(reason_kind))
        # a later list placed the create by another of its insert candidates: serving places by it
        insert = run.insert_rules.get(plan.tool, plan.insert)
        fields, reuse_events = judged_sequence_rules(plan, found, ruleset)
        result.append(plan.model_copy(update={
            "served": served, "reason": reason, "insert": insert, "fields": fields,
            "contradicted_by": _contradicting_read(found, reason, cascade),
            "checked_record_ordinals": tuple(sorted(set(found.confirmations) | set(found.key_confirmations)))
            if found else (),
            "traces": plan.traces + copy_events + count_events + (cascade.events if cascade else ()) + reuse_events
            + decision.events}))
    return result


def _ids_per_collection(plan: WritePlan, view: ViewResult) -> tuple[str, ...]:
    """A shallow type's create's identity fields its sequence numbers per collection."""
    entity_type = next((t for t in view.types if t.name == plan.type), None)
    # a collection path with no parameter is one collection (an item path in the singular beside
    # its list, /alert/{id} and /alerts): numbering per collection is numbering across them
    if plan.effect != "create" or entity_type is None or not entity_type.shallow_items \
            or "{" not in entity_type.collection_template:
        return ()
    return tuple(f.field for f in plan.fields if f.field == entity_type.id_field
                 and f.params.get("format") == "sequence" and f.params.get("scope", "collection") == "collection")


def _constants_holding_generated(plan: WritePlan) -> tuple[str, ...]:
    """A create's constant fields whose strings hold a value it generated (``field.constant``'s evidence)."""
    if plan.effect != "create":
        return ()
    return tuple(f.field for f in plan.fields if f.op == "constant" and f.evidence.get("held_generated"))


def _contradicting_read(found: PlanFindings | None, reason: str | None, cascade: Cascade | None) -> int | None:
    """The first read that contradicted the plan; for a side-effect verdict, the read that showed
    the change no write it checks explains (it contradicts the plan as side-effect), else the read
    that showed a cascade."""
    contradicted = found.contradicted_by if found else None
    if contradicted is None and reason == "side-effect":
        side_effect = found.side_effect_by if found else None
        return side_effect if side_effect is not None else (cascade.read if cascade else None)
    return contradicted


def _counted_by(plan: WritePlan, counts: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[TraceEvent, ...]]]
                ) -> tuple[tuple[str, ...], tuple[TraceEvent, ...]]:
    """The counts (``referrer-counts``) a plan's write changes: it makes or removes entities of a counted
    type, or updates a member by which they name the counted entity; with the decisions."""
    found = counts.get(plan.type or "")
    if found is None:
        return (), ()
    counted, members, events = found
    accepted = {m.member for m in plan.members if m.admission != "not-accepted"}
    if plan.effect in ("create", "delete", "bulk") or (plan.effect == "update" and accepted & set(members)):
        return counted, events
    return (), ()
