"""Learn how the application answers an item read of an id it does not hold (issue 16, "The
application's own absence answer"; DESIGN.md §5 "Replay").

Every recorded item read that did not show its entity is weighed by ``view-absence-answers``
with what the capture shows of the id its path names: removed by a successful delete before
the read began (nothing naming it since), never shown by any successful answer or write, or
shown. The first rule that matches makes the read absence evidence. Each item view then takes,
as its absence answer, the latest evidence the capture proves of an absent id (its own, else
another item tool's of the type), else its latest conventional absence (400/404/410 or 2xx
null, the seed's "Missing entities"). The choice is traced with the records that showed it.

A read sent with a query answers in that query's scope (Mistral's ``?namespace=team`` answers
"Workflow not found [workflow_identifier=purge, namespace=team]" where a read without it names
``namespace=``): where reads sent without one show the type's absence, only those are weighed,
and serving answers the learned absence only to a call sending no query parameter its read did
not send (``serving/reads/unrecorded``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import AbsenceAnswer, EntityType, Locator
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.absence_answers import AbsenceReadContext
from capenv.interpreter.predicates.absence_key_paths import AbsenceKeyPathContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .absence_bodies import body_kind, carries_id, entity_place_kind, id_pointers, per_response_pointers, same_layout, worded_alike, id_shape
from .absence_texts import param_values, path_texts
from .id_history import IdHistories
from .recordings import recording_of
from .types import ToolShape

TABLE = "view-absence-answers"
KEY_PATHS = "view-absence-key-paths"


@dataclass(frozen=True)
class Evidence:
    record: Record
    tool: str
    rule_id: str
    proof: str
    id_value: str

    @property
    def queried(self) -> bool:
        return bool(self.record.query)


@dataclass(frozen=True)
class Absences:
    """Per item tool: the learned answer (or None) and the reads that answered an absence."""

    answers: dict[str, AbsenceAnswer | None]
    records: dict[str, tuple[int, ...]]


def learn_absences(shapes: dict[str, ToolShape], types: dict[str, EntityType], records: list[Record],
                   tool_of: dict[int, str], histories: IdHistories, ruleset: RuleSet,
                   traces: list[TraceEvent], per_answer: frozenset[str] = frozenset()) -> Absences:
    """``per_answer``: the top-level members each answer carries anew (``view-answer-members``), which
    say nothing of how the application words a missing id."""
    items = [s for s in shapes.values() if s.kind == "item" and s.type_name in types]
    fields = {s.key_field or types[s.type_name].id_field for s in items}
    shown = histories.shown(fields)
    evidence: dict[str, list[Evidence]] = {}
    for shape in items:
        field = shape.key_field or types[shape.type_name].id_field
        for ordinal in shape.tool.record_ordinals:
            record = _by_ordinal(records, ordinal)
            found = _weigh(shape, field, record, histories, shown.get(field, set()), ruleset, traces)
            if found is not None:
                evidence.setdefault(shape.tool.name, []).append(found)
    answers = {s.tool.name: _choose(s, items, evidence, ruleset, traces, per_answer) for s in items}
    return Absences(answers, {tool: tuple(e.record.ordinal for e in found) for tool, found in evidence.items()})


def _by_ordinal(records: list[Record], ordinal: int) -> Record:
    # records are in ordinal order, 1-based (DESIGN.md §3)
    record = records[ordinal - 1] if 0 < ordinal <= len(records) else None
    if record is not None and record.ordinal == ordinal:
        return record
    return next(r for r in records if r.ordinal == ordinal)


def _weigh(shape: ToolShape, field: str, record: Record, histories: IdHistories, shown: set[str],
           ruleset: RuleSet, traces: list[TraceEvent]) -> Evidence | None:
    """The read's rule when it answered no entity; None when it showed it (or answered nothing)."""
    if record.status == 0 or _shows_entity(record, shape, field):
        return None
    id_value = unquote(split_path(record.path)[-1])
    history = histories.of(record, id_value, field, shown)
    context = AbsenceReadContext(status=record.status, body=entity_place_kind(record, shape.locator),
                                 id_history=history, parent_shown=histories.parent_shown(record))
    decision = evaluate(ruleset, TABLE, context, subject=f"{shape.tool.name} record {record.ordinal}")
    traces.extend(decision.events)
    if not decision.yields.get("absence"):
        return None
    return Evidence(record, shape.tool.name, decision.rule_id or "", decision.yields["proof"], id_value)


def _shows_entity(record: Record, shape: ToolShape, field: str) -> bool:
    if not record.succeeded or not record.response.is_json:
        return False
    located = locate(record.response.json_value, shape.locator or Locator(kind="root"))
    return isinstance(located, dict) and field in located


def _choose(shape: ToolShape, items: list[ToolShape], evidence: dict[str, list[Evidence]],
            ruleset: RuleSet, traces: list[TraceEvent],
            per_answer: frozenset[str] = frozenset()) -> AbsenceAnswer | None:
    """The latest proven evidence of the tool, else of the type's other item tools, else the
    tool's latest conventional absence."""
    name = shape.tool.name
    own = evidence.get(name, [])
    siblings = [e for s in items if s.type_name == shape.type_name and s.tool.name != name
                and evidence.get(s.tool.name) and _borrows(shape, s, ruleset, traces) for e in evidence[s.tool.name]]
    if any(not e.queried for e in own + siblings):  # a queried read's answer is its query's (module doc)
        own, siblings = [e for e in own if not e.queried], [e for e in siblings if not e.queried]
    proven_own = [e for e in own if e.proof != "status"]
    proven_type = sorted((e for e in siblings if e.proof != "status"), key=lambda e: e.record.ordinal)
    chosen = (proven_own or proven_type or own or [None])[-1]
    subject = f"{name} absence answer"
    split = _worded_by_history(proven_own or proven_type, per_answer)
    if split is not None:
        deleted, never = split
        traces.append(TraceEvent(table=TABLE, rule_id=None, outcome="default", subject=subject, reason=(
            f"the application words a missing {shape.type_name} by the id's history: record "
            f"{deleted.record.ordinal} of {deleted.tool} (an id deleted before it) and record "
            f"{never.record.ordinal} of {never.tool} (an id the capture never showed) answer otherwise once "
            "each names its own id, so no one answer fits every missing id: a read of a missing entity is a "
            "tool error saying nothing was recorded for it")))
        return None
    if chosen is None:
        traces.append(TraceEvent(table=TABLE, rule_id=None, outcome="default", subject=subject, reason=(
            f"no recorded read of an id the {shape.type_name} type does not hold: a read of a missing "
            "entity is a tool error saying nothing was recorded for it")))
        return None
    pool = own + siblings
    kind = body_kind(chosen.record)
    body = chosen.record.response.json_value if chosen.record.response.is_json else None
    agreeing = sorted(e.record.ordinal for e in pool if (e.proof != "status" or chosen.proof == "status")
                      and e.record.status == chosen.record.status and body_kind(e.record) == kind
                      and same_layout(_body(e.record), body))
    others = sorted({e.record.status for e in pool if e.proof != "status"} - {chosen.record.status})
    alike = [_body(e.record) for e in pool if e.record.ordinal in agreeing]
    # a text body is one text at the root ("Could not find property mtu"): its path values are found alike
    texts = _path_texts(chosen, _content(chosen.record), [e for e in pool if e.record.ordinal in agreeing], items)
    # a text body holding the id (Jupyter's "file or directory '/x.txt' does not exist") carries it at the root
    pointers = id_pointers(body, chosen.id_value) if kind != "text" else (
        ("",) if carries_id(chosen.record.response.text, chosen.id_value) else ())
    pointers = tuple(p for p in pointers if p not in {t.pointer for t in texts})
    answer = AbsenceAnswer(recording=recording_of(chosen.record), rule_id=chosen.rule_id, proof=chosen.proof,
                           from_tool=chosen.tool, records=tuple(agreeing), id_value=chosen.id_value,
                           id_pointers=pointers, per_response=per_response_pointers(body, alike, pointers),
                           path_texts=texts)
    reason = (f"answers a missing {shape.type_name} as record {chosen.record.ordinal} of {chosen.tool} did "
              f"({chosen.record.status}, body {body_kind(chosen.record)}), id {chosen.id_value!r} "
              f"{_PROOF[chosen.proof]}")
    if others:
        reason += f"; other absences answered {', '.join(map(str, others))}: the latest is served"
    traces.append(TraceEvent(table=TABLE, rule_id=chosen.rule_id, outcome="match", subject=subject, reason=reason,
                             location=ruleset.rule(chosen.rule_id).location,
                             evidence={"status": chosen.record.status, "body": kind, "proof": chosen.proof,
                                       "record": chosen.record.ordinal, "id": chosen.id_value,
                                       "records": list(agreeing), "from_tool": chosen.tool,
                                       "id_pointers": list(pointers), "per_response": list(answer.per_response),
                                       "path_texts": [_shown_text(t) for t in texts]}))
    return answer


def _borrows(shape: ToolShape, sibling: ToolShape, ruleset: RuleSet, traces: list[TraceEvent]) -> bool:
    """Whether ``shape``, with no absence of its own, takes ``sibling``'s (``view-absence-key-paths``)."""
    context = AbsenceKeyPathContext(template=shape.tool.template, key_member=shape.key_field or "",
                                    sibling_template=sibling.tool.template,
                                    sibling_key_member=sibling.key_field or "")
    decision = evaluate(ruleset, KEY_PATHS, context, subject=f"{shape.tool.name} absence from {sibling.tool.name}")
    traces.extend(decision.events)
    return bool(decision.yields.get("borrows"))


def _worded_by_history(proven: list[Evidence], per_answer: frozenset[str] = frozenset()
                      ) -> tuple[Evidence, Evidence] | None:
    """A deleted id's and a never-shown id's evidence of one status and id shape that answered
    otherwise once each body's own path values are put aside (per-response values too), or None
    when every such pair reads alike. Ids of different shapes (a slug where ids are integers) may be
    refused as malformed, which serving weighs apart (``refuse_unshaped_id``)."""
    deleted = [e for e in proven if e.proof == "deleted"]
    never = [e for e in proven if e.proof == "never-shown"]
    for one in deleted:
        for other in never:
            if one.record.status != other.record.status or id_shape(one.id_value) != id_shape(other.id_value):
                continue
            ours, theirs = _differing_values(one.record.path, other.record.path)
            if not worded_alike(_without(_body(one.record), per_answer), ours,
                                _without(_body(other.record), per_answer), theirs):
                return one, other
    return None


def _differing_values(a: str, b: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The percent-decoded path segments where two paths differ: each read's own path values."""
    first, second = [unquote(x) for x in split_path(a)], [unquote(x) for x in split_path(b)]
    if len(first) != len(second):
        return (unquote(split_path(a)[-1]),), (unquote(split_path(b)[-1]),)
    pairs = [(x, y) for x, y in zip(first, second) if x != y]
    return tuple(x for x, _ in pairs), tuple(y for _, y in pairs)


def _path_texts(chosen: Evidence, body: Any, agreeing: list[Evidence], items: list[ToolShape]):
    """The chosen body's texts naming path values, proven against the same tool's other absences."""
    tool = next((s.tool for s in items if s.tool.name == chosen.tool), None)
    if tool is None:
        return ()
    others = [(_content(e.record), param_values(tool, e.record.path)) for e in agreeing
              if e.tool == chosen.tool and e.record.ordinal != chosen.record.ordinal]
    return path_texts(body, param_values(tool, chosen.record.path), chosen.id_value, others)


def _shown_text(text) -> str:
    template = "".join(f"{{segment {p}}}" if isinstance(p, int) else p for p in text.parts)
    return f"{text.pointer}: {template!r} ({'proven' if text.proven else 'unproven: answered only as recorded'})"


def _body(record: Record) -> Any:
    return record.response.json_value if record.response.is_json else None


def _content(record: Record) -> Any:
    """The JSON body, or a text body as one string (at the root pointer)."""
    return record.response.json_value if record.response.is_json else record.response.text


def _without(body: Any, members: frozenset[str]) -> Any:
    """An object body without the members each answer carries anew (privacyIDEA's time and signature)."""
    return {k: v for k, v in body.items() if k not in members} if members and isinstance(body, dict) else body


_PROOF = {"deleted": "had been deleted", "never-shown": "was never shown by the capture",
          "status": "(a conventional absence status; the capture does not prove the id absent)"}
