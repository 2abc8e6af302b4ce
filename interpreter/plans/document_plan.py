"""A document write's plan: the document it writes (and the object inside it the body addresses,
its envelope unwrapped by ``body-envelopes``), each member it sent admitted by ``document-members``,
whether a PUT replaces the object (``document-writes``) and the clocks it stamps
(``document_changes``)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import Address, Locator, MemberRule, WritePlan
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.document_members import DocumentMemberContext
from capenv.interpreter.predicates.document_writes import DocumentCopyContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext, note
from .delete_answers import answer_omissions
from .document_changes import changed_members, replaces
from .exemplar import admit_body

DOCUMENT_MEMBERS = "document-members"
DOCUMENT_COPIES = "document-copies"
COPIED = "copied-entity"


def document_plan(exemplar: Record, body: dict[str, Any], calls: list[Record], ctx: PlanContext,
                  base: dict[str, Any], events: list[TraceEvent]) -> WritePlan:
    path = exemplar.path.rstrip("/") if exemplar.path.rstrip("/") in ctx.document_paths else exemplar.path
    held = next((d.value for d in ctx.view.state.documents if d.path == path), None)
    pointer = _object_pointer(held, body, base.get("body_envelope"))
    members = _document_members(base["tool"], exemplar, body, calls, path, ctx, events)
    base["min_members"] = 0 if exemplar.method == "PUT" else 1
    target = held
    for part in [p for p in pointer.split("/") if p]:
        target = target.get(part) if isinstance(target, dict) else None
    answer = exemplar.response.json_value if exemplar.response.is_json else None
    locator = _answer_locator(answer, pointer, body, target)
    if locator is not None:
        # the answer shows the written object: serving renders it from the state after the write,
        # never the recorded body (a later call's values would be answered as this one's)
        base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": locator})
    after = locate(answer, locator) if locator is not None else None
    subject = f"{base['tool']} document {path}{pointer}"
    replace, reason = replaces(ctx.ruleset, exemplar, body, target, after, subject, events)
    # a replace leaves the object holding what the call sent: members it held before and the answer
    # lacks are gone with the replace, not left out of the answer
    omitted = answer_omissions(base["tool"], after, body if replace else target, ctx.ruleset, events,
                               effect="document-write")
    if omitted:
        base["response"] = base["response"].model_copy(update={"omitted": omitted})
    fields, reason = ([], reason) if replace or reason else changed_members(ctx.ruleset, exemplar, body, target,
                                                                            after, base["tool"], events)
    if reason is not None:
        return WritePlan(**base, address=Address(by="document"), document_path=path, document_pointer=pointer,
                         members=members, fields=tuple(fields), build_reason=reason, traces=tuple(events))
    envelope = ctx.envelopes.get(base["tool"])
    for call in calls:
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=envelope is not None,
                             envelope=envelope) if call.succeeded else None
        for name, value in ((verdict.body or {}).items() if verdict else ()):
            if isinstance(target, dict) and name in target and target[name] is not None \
                    and json_kind(target[name]) != json_kind(value):
                events.append(note(base["tool"], "unexplained-change",
                                    f"record {call.ordinal} sent {name!r} as {json_kind(value)}, the document holds "
                                    f"{json_kind(target[name])}: serving would refuse that call"))
                return WritePlan(**base, address=Address(by="document"), document_path=path,
                                 document_pointer=pointer, members=members, build_reason="unexplained-change",
                                 traces=tuple(events))
    if _copied(path, target, ctx, base["tool"], events):
        return WritePlan(**base, address=Address(by="document"), document_path=path, document_pointer=pointer,
                         replace=replace, members=members, fields=tuple(fields), build_reason=COPIED,
                         traces=tuple(events))
    return WritePlan(**base, address=Address(by="document"), document_path=path, document_pointer=pointer,
                     replace=replace, members=members, fields=tuple(fields), traces=tuple(events))


def _copied(path: str, target: Any, ctx: PlanContext, tool: str, events: list[TraceEvent]) -> bool:
    """Whether another document or an entity the state holds shows the written object
    (``document-copies``): the write would leave that copy as it was."""
    if not isinstance(target, dict):
        return False
    state = ctx.view.state
    elsewhere = [{"read": d.path, "value": d.value} for d in state.documents if d.path != path]
    id_fields = {t.name: t.id_field for t in ctx.view.types}
    elsewhere += [{"read": f"{c.path} {e.id}", "value": e.value, "entity": True,
                   "identity": [id_fields.get(c.type, "id"), str(e.id)]}
                  for c in state.collections for e in c.entities]
    context = DocumentCopyContext(path=path, held=target, elsewhere=elsewhere)
    decision = evaluate(ctx.ruleset, DOCUMENT_COPIES, context, subject=f"{tool} document {path}")
    events.extend(decision.events)
    if decision.yields.get("copy"):
        events.append(note(tool, COPIED, f"{decision.rule_id}: {decision.evidence.get('read')} shows the object "
                                         "this write changes", "interpreter/plans/document_plan.py"))
        return True
    return False


def _object_pointer(held: Any, body: dict[str, Any], envelope: str | None = None) -> str:
    """Where in the held document the write merges: the object holding the most members the body
    sent, among the document, its object members and, where none of those holds more, the one
    object a member holding nothing else but scalars and empty objects or arrays holds (``{"data":
    {"profile": {…}}}``, ``{"data": {"data": {…}, "meta": {}}}``), or the object a member holds
    under the name of the body's envelope (``{"appearance": {…}}`` sent, ``{"data": {"appearance":
    {…}, …}}`` held: the document's own envelope around the object the body names); the earlier
    on a tie."""
    if not isinstance(held, dict):
        return ""

    def sent_in(value: dict[str, Any]) -> int:
        return sum(1 for k in body if k in value)

    best, pointer = sent_in(held), ""
    members = [(name, value) for name, value in held.items() if isinstance(value, dict)]
    for name, value in members:
        if sent_in(value) > best:
            best, pointer = sent_in(value), "/" + name
    for name, value in members:
        held_objects = [(k, v) for k, v in value.items() if isinstance(v, (dict, list)) and v]
        if len(held_objects) != 1:  # only an envelope around one object: a map of objects by key is no envelope
            continue
        inner_name, inner = held_objects[0]
        if isinstance(inner, dict) and sent_in(inner) > best:
            best, pointer = sent_in(inner), f"/{name}/{inner_name}"
    for name, value in members:
        named = value.get(envelope) if envelope else None
        if isinstance(named, dict) and sent_in(named) > best:
            best, pointer = sent_in(named), f"/{name}/{envelope}"
    return pointer


def _answer_locator(answer: Any, pointer: str, body: dict[str, Any], target: Any) -> Locator | None:
    """Where the exemplar's answer shows the object the write merged into: under the member the
    document holds it in, or at the root, or in one member of its own there; it shows it when it
    holds a member the body sent or the object held."""
    names = set(body) | (set(target) if isinstance(target, dict) else set())
    member = pointer.strip("/")
    if isinstance(answer, dict) and member and "/" not in member and isinstance(answer.get(member), dict) \
            and names & set(answer[member]):
        return Locator(kind="member", member=member)
    outer, _, inner = member.partition("/")
    if isinstance(answer, dict) and inner and isinstance(answer.get(outer), dict) \
            and isinstance(answer[outer].get(inner), dict) and names & set(answer[outer][inner]):
        return Locator(kind="member", member=inner, within=(outer,))
    if isinstance(answer, dict) and names & set(answer) and (not member or member not in answer):
        return Locator(kind="root")
    wrapping = [name for name, value in answer.items() if isinstance(value, dict) and names & set(value)] \
        if isinstance(answer, dict) and not member else []
    if len(wrapping) == 1:
        # the answer wraps the document's object in one member of its own ({"message", "result"})
        return Locator(kind="member", member=wrapping[0])
    inside = [name for name, value in answer[member].items() if isinstance(value, dict) and names & set(value)] \
        if isinstance(answer, dict) and member and "/" not in member and isinstance(answer.get(member), dict) else []
    if len(inside) == 1:
        # so it does inside the member the document holds it in ({"data": {"message", "result"}})
        return Locator(kind="member", member=inside[0], within=(member,))
    return None


def _document_members(tool: str, exemplar: Record, body: dict[str, Any], calls: list[Record], path: str,
                      ctx: PlanContext,
                      events: list[TraceEvent]) -> tuple[MemberRule, ...]:
    """Each member the tool's successful calls sent (the exemplar's first), admitted by the
    ``document-members`` table (traced like a create's or an update's members), with the JSON
    kind it was first sent as; the gate then holds every call to what the later reads show."""
    sent: dict[str, tuple[Any, dict[str, Any], str]] = {name: (value, body, exemplar.method) for name, value in body.items()}
    always = set(body)  # what every call sent; a member some call went without is not required
    raw_exemplar = admit_body(exemplar, max_bytes=ctx.budgets.max_body_bytes, unwrap=False).body
    for call in calls:
        if call is exemplar or not call.succeeded or call.method != exemplar.method:
            continue
        call_body = _like_exemplar(tool, call, raw_exemplar, body, ctx)
        if call_body is None:
            continue
        always &= set(call_body)
        for name, value in call_body.items():
            sent.setdefault(name, (value, call_body, call.method))
    members = []
    for name, (value, sent_body, method) in sent.items():
        context = DocumentMemberContext(member=name, method=method, body=sent_body)
        decision = evaluate(ctx.ruleset, DOCUMENT_MEMBERS, context, subject=f"document {path} body.{name}")
        events.extend(decision.events)
        members.append(MemberRule(member=name, admission=decision.yields["admission"],
                                  rule_id=decision.rule_id or f"{DOCUMENT_MEMBERS}.default",
                                  required=bool(decision.yields["required"]) and name in always,
                                  kind=decision.evidence.get("kind", json_kind(value)),
                                  reason=decision.yields.get("reason")))
    return tuple(members)


def _like_exemplar(tool: str, call: Record, raw_exemplar: Any, body: dict[str, Any],
                   ctx: PlanContext) -> dict[str, Any] | None:
    """The call's body as the exemplar's was read (``raw_exemplar`` as sent, ``body`` as read):
    unwrapped from the same request envelope when the exemplar's was (a call sent otherwise is one
    serving refuses: None), as sent when not."""
    limit = ctx.budgets.max_body_bytes
    raw = admit_body(call, max_bytes=limit, unwrap=False).body
    if not isinstance(raw, dict) or not isinstance(raw_exemplar, dict):
        return None
    if raw_exemplar == body:  # the exemplar was sent as the document's own members
        return raw
    if set(raw) != set(raw_exemplar):
        return None
    unwrapped = admit_body(call, max_bytes=limit, unwrap=True, envelope=ctx.envelopes.get(tool))
    return unwrapped.body if isinstance(unwrapped.body, dict) else None
