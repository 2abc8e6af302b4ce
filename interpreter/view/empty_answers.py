"""What proves how each list view's application answers an empty listing (``view-empty-answers``).

A list the state leaves empty is rendered from its base recording with nothing listed; that is the
application's answer only where a recorded empty answer shows the envelope holding as it is (the
view's own, or a sibling list's whose envelope is the same). ``ReadView.empty_answer`` records the
proof, traced; serving refuses an empty listing without one.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EmptyAnswer, Locator, ReadView
from capenv.interpreter.bundle.pointers import spell
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.interpreter.predicates.empty_answers import EmptyAnswerContext, ListEnvelope
from capenv.interpreter.rules_engine import RuleSet, evaluate

EMPTY_ANSWERS_TABLE = "view-empty-answers"


def with_empty_answers(views: list[ReadView], by_ordinal: dict[int, Any], ruleset: RuleSet,
                       traces: list) -> list[ReadView]:
    """The views, each list view with what proves its empty answer (None where nothing does)."""
    if EMPTY_ANSWERS_TABLE not in ruleset.tables:
        return views
    envelopes = {view.tool: _envelope(view, by_ordinal) for view in views if view.kind == "list" and view.locator}
    result = []
    for view in views:
        own = envelopes.get(view.tool)
        if own is None:
            result.append(view)
            continue
        context = EmptyAnswerContext(own=own, siblings=[e for tool, e in envelopes.items() if tool != view.tool])
        decision = evaluate(ruleset, EMPTY_ANSWERS_TABLE, context, subject=f"{view.tool} empty listing")
        traces.extend(decision.events)
        if not decision.yields.get("proven"):
            result.append(view)
            continue
        proof = EmptyAnswer(rule=decision.rule_id or "", tool=str(decision.evidence.get("tool", view.tool)),
                            records=tuple(decision.evidence.get("records", ())))
        result.append(view.model_copy(update={"empty_answer": proof}))
    return result


def _envelope(view: ReadView, by_ordinal: dict[int, Any]) -> ListEnvelope:
    """The view's answers' envelopes: listing and empty ones apart, and its page arithmetic."""
    locator = view.locator or Locator(kind="root")
    skipped = set(view.absence_records) | set(view.other_shape_records)
    listing: list[list[str]] = []
    empty: list[int] = []
    empty_members: list[list[str]] = []
    for ordinal in view.record_ordinals:
        record = by_ordinal.get(ordinal)
        if ordinal in skipped or record is None or not record.succeeded or not record.response.is_json:
            continue
        body = record.response.json_value
        listed = locate(body, locator)
        if listed is MISSING or not isinstance(listed, list):
            continue
        members = _beside(body, locator)
        if listed:
            listing.append(members)
        else:
            empty.append(ordinal)
            empty_members.append(members)
    arithmetic = [f"{member.pointer} {member.role}" for member in view.envelope_members]
    return ListEnvelope(tool=view.tool, listing=listing, arithmetic=arithmetic, empty=empty,
                        empty_members=empty_members)


def _beside(body: Any, locator: Locator) -> list[str]:
    """The members an answer holds beside its list, as JSON pointers (those of the objects leading
    to it included)."""
    if locator.kind == "root":
        return []
    path = (*locator.within, locator.member or "")
    names: list[str] = []
    holder = body
    for depth, step in enumerate(path):
        if not isinstance(holder, dict):
            break
        names += [spell((*path[:depth], name)) for name in holder if name != step]
        holder = holder.get(step)
    return names
