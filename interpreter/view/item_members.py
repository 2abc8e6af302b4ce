"""What each member beside an item view's entity is (the ``view-item-members`` table).

An item answer may carry, beside its entity, values that follow the entity it names: Datasette's
row page repeats the row's key as ``primary_key_values: ["5"]``. Rendered from the base recording
alone, every other row would answer with the base row's key. The view's successful reads are the
evidence (each member's value beside the path value the read named); a member the table gives a
role is rendered for each answer (``serving.reads.answers``), the others show the base recording.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import ItemMember, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import spell
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.item_members import ItemMemberContext, ItemMemberSighting
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-item-members"


def with_item_members(view: ReadView, records: list[Record], ruleset: RuleSet,
                      traces: list[TraceEvent], *, by_identity_alone: bool = True) -> ReadView:
    """The item view with the members its table gives a role (``records``: its successful JSON
    answers, absences left out). ``by_identity_alone``: the path names the entity by its identity
    only; otherwise a path value may be another key's, so none is rendered as a number."""
    if view.kind != "item" or view.locator is None or view.locator.kind == "root" or TABLE not in ruleset.tables:
        return view
    seen: dict[str, list[ItemMemberSighting]] = {}
    within = view.locator.within
    for record in records:
        body = record.response.json_value
        for name in within:  # the object holding the entity's member, inside its envelopes
            body = body.get(name) if isinstance(body, dict) else None
        parts = split_path(record.path)
        if not isinstance(body, dict) or not parts:
            continue
        for name, value in body.items():
            if name != view.locator.member and (spell((*within, name)) if within else name) \
                    not in view.per_response_members:
                seen.setdefault(name, []).append(ItemMemberSighting(value=value, path_value=unquote(parts[-1])))
    members = []
    for name, sightings in seen.items():
        decision = evaluate(ruleset, TABLE, ItemMemberContext(member=name, sightings=tuple(sightings)),
                            subject=f"{view.tool} member {name}")
        traces.extend(decision.events)
        number = decision.evidence.get("form") == "number"
        if decision.yields.get("role") == "path-value" and (by_identity_alone or not number):
            members.append(ItemMember(member=name, role="path-value", form=str(decision.evidence.get("form")),
                                      rule_id=decision.rule_id, within=within))
    return view.model_copy(update={"item_members": tuple(members)}) if members else view
