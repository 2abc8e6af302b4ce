"""The ETag an item view's answers carry, by the ``view-entity-tags`` table: a recorded tag that
spells one member of the entity each read shows (a version counter) is rendered from the state's
entity; any other (a hash, a tag on some reads only) is left out of answers from the state."""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityTag, ReadView
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.entity_tags import EntityTagContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-entity-tags"
HEADER = "etag"


def with_entity_tag(view: ReadView, records: list[Record], ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    """``records``: the item view's successful JSON answers."""
    if view.kind != "item" or view.locator is None or TABLE not in ruleset.tables or not records:
        return view
    tagged = [(record, record.header(HEADER)) for record in records]
    tagged = [(record, tag) for record, tag in tagged if tag is not None]
    if not tagged:
        return view
    shown = [locate(record.response.json_value, view.locator) for record, _ in tagged]
    if any(entity is MISSING or not isinstance(entity, dict) for entity in shown):
        return view
    for member in shown[0]:
        context = EntityTagContext(member=member, reads=len(records), sightings=tuple(
            (tag, entity.get(member)) for (_, tag), entity in zip(tagged, shown)))
        decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} ETag as {member}")
        if decision.yields.get("tag"):
            traces.extend(decision.events)
            name = next(n for n, _ in tagged[0][0].response_headers if n.lower() == HEADER)
            return view.model_copy(update={"entity_tag": EntityTag(
                header=name, member=member, form=str(decision.evidence["form"]), rule_id=str(decision.rule_id))})
    return view
