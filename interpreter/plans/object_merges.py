"""The objects an update refuses in a member it stores whole (``WritePlan.object_merges``).

An update plan stores a sent object as the member's new value. Applications often merge it into
the object held there instead: Medusa keeps the ``metadata`` keys a call leaves out and drops a key
sent as ""; a JSON merge patch drops one sent as null. The gate proves the plan only on the objects
its recorded calls sent, often over an entity holding nothing there, so the ``update-object-merges``
table names, per accepted object member, the objects no recorded call shows the application
storing whole (one leaving out a held key, one holding an empty text or null); serving refuses
them, state unchanged (``serving/writes/object_merges``). Plans sending no object get no trace, so
their bytes stay as they were.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import MemberRule, ObjectMerge
from capenv.interpreter.predicates.object_merges import ObjectMergesContext, SentObject
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .update_inputs import UpdateCall

TABLE = "update-object-merges"


def object_merges(ruleset: RuleSet, tool: str, members: tuple[MemberRule, ...] | list[MemberRule],
                  calls: list[UpdateCall]) -> tuple[tuple[ObjectMerge, ...], list[TraceEvent]]:
    """The kinds of object each accepted member sent as an object is refused in, with the traces."""
    if TABLE not in ruleset.tables:
        return (), []
    merges: list[ObjectMerge] = []
    events: list[TraceEvent] = []
    for rule in members:
        member = rule.member
        if rule.admission != "accepted" or not any(isinstance(c.body.get(member), dict) for c in calls):
            continue
        decision = evaluate(ruleset, TABLE, ObjectMergesContext(member=member, calls=[
            _sent(call, member) for call in calls if member in call.body]), subject=f"{tool} body.{member}")
        matched = [e for e in decision.events if e.outcome == "match"]
        if matched:
            events.extend(decision.events)
            merges.extend(ObjectMerge(member=member, rule_id=str(e.rule_id), check=e.evidence["check"],
                                      values=tuple(e.evidence["values"]), described=e.evidence["described"])
                          for e in matched)
    return tuple(merges), events


def _sent(call: UpdateCall, member: str) -> SentObject:
    """The call as the table reads it: a before that writes since its sighting may have changed
    at the member is unknown."""
    stale = bool(call.before_stale_by) and member not in call.before_sure
    before_known = call.before is not None and not stale
    after_known = call.after is not None and member in call.after
    return SentObject(ordinal=call.ordinal, sent=call.body.get(member),
                      before=call.before.get(member) if before_known and call.before is not None else None,
                      before_known=before_known, after=call.after.get(member) if after_known and call.after else None,
                      after_known=after_known)
