"""Learn projection queries (``fields=id,title``) of item and list views, only where recordings prove them.

A parameter the ``view-projection-queries`` table proposes is proven by the view's reads sent with
it and no other parameter: each is compared with a reference, a read of the same path without a
query with no write to a related path between them (before it, else after it). The projected
answer must list the same entities in the same order, with the same body around them, each
holding every member named that its reference holds, with the reference's value (volatile
members aside), and otherwise only members the reference holds with the same values: those are
the members the application keeps (``id``); the reference's others, left out, are dropped. When
the entities hold none of the members named but one object member of each holds them all (JSON:API's
``attributes``), the same holds inside it, the rest of the entity as the plain read's. A
value the table calls a wildcard must answer every member. One disagreeing read, or a member
kept by one read and dropped by another, and the projection is not learned (traced with the
record). Serving projects through ``serving/reads/projection`` as the recordings were compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.models import EntityType, Locator, Projection, ReadView
from capenv.interpreter.bundle.values import MISSING, locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import related_paths
from capenv.interpreter.predicates.projection_queries import ProjectionCandidateContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .projection_candidates import type_words

TABLE = "view-projection-queries"


@dataclass
class _Candidate:
    """One proposed spelling of a view, and what its reads proved so far."""

    rule_id: str
    root: str
    form: str
    param: str
    separator: str | None
    wildcards: tuple[str, ...]
    min_records: int
    proofs: list[int] = field(default_factory=list)
    kept: dict[str, None] = field(default_factory=dict)
    dropped: dict[str, None] = field(default_factory=dict)
    wildcards_used: dict[str, None] = field(default_factory=dict)
    members: dict[str, None] = field(default_factory=dict)
    inside: str | None = None
    refuted: str | None = None
    repeated: bool = False
    """A proving read sent the parameter more than once."""

    def sends(self, name: str) -> bool:
        if self.form != "indexed":
            return name == self.param
        root, _, tail = name.partition("[")
        return root == self.root and tail.endswith("]") and tail[:-1].isdigit()


def learn_projections(views: list[ReadView], records: dict[int, Record], types: dict[str, EntityType],
                      is_write: Callable[[Record], bool], ruleset: RuleSet, traces: list[TraceEvent]) -> list[ReadView]:
    writes = sorted(o for o, r in records.items() if is_write(r))
    views = [_learned(v, records, types[v.type], writes, ruleset, traces)
             if v.kind in ("item", "list") and v.type in types else v for v in views]
    return _pooled(views, traces)


def _pooled(views: list[ReadView], traces: list[TraceEvent]) -> list[ReadView]:
    """Each view's projection with what the type's other views learned of the same spelling (the
    application reads one parameter alike for a type's lists and items): a member one view's reads
    always named, another's show kept or dropped. Views whose members' fates disagree keep their own."""
    pooled: dict[tuple, tuple[dict[str, None], dict[str, None]]] = {}
    for view in views:
        for p in view.projections:
            kept, dropped = pooled.setdefault((view.type, p.root, p.form, p.param, p.inside), ({}, {}))
            kept.update(dict.fromkeys(p.kept))
            dropped.update(dict.fromkeys(p.dropped))
    agreed = {key: (tuple(kept), tuple(dropped)) for key, (kept, dropped) in pooled.items()
              if not any(name in dropped for name in kept)}
    result = []
    for view in views:
        projections = []
        for p in view.projections:
            found = agreed.get((view.type, p.root, p.form, p.param, p.inside))
            if found is not None and (found[0], found[1]) != (p.kept, p.dropped):
                traces.append(TraceEvent(table=TABLE, rule_id=p.rule_id, outcome="match", subject=f"{view.tool} ?{p.param}",
                                         reason="members' fates pooled with the other reads of the type sent with it",
                                         evidence={"kept": list(found[0]), "dropped": list(found[1])}))
                p = p.model_copy(update={"kept": found[0], "dropped": found[1]})
            projections.append(p)
        result.append(view.model_copy(update={"projections": tuple(projections)}) if projections else view)
    return result


def _learned(view: ReadView, records: dict[int, Record], entity_type: EntityType, writes: list[int],
             ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    usable = [records[o] for o in view.record_ordinals if o in records and _answered(records[o], view)]
    queried = [r for r in usable if r.query]
    if not queried:
        return view
    candidates: dict[tuple[str, str], _Candidate] = {}
    words = type_words(entity_type)
    seen: set[tuple[str, str]] = set()
    for record in queried:
        found = []
        for name, value in decoded(record.query):
            decision = evaluate(ruleset, TABLE, ProjectionCandidateContext(param=name, value=value, type_words=words),
                                subject=f"{view.tool} ?{name}={value}")
            rule_id = decision.matched[0] if decision.matched else None
            if rule_id is not None and (name, rule_id) not in seen:  # one trace per spelling, not per read
                seen.add((name, rule_id))
                traces.extend(decision.events)
            if rule_id is not None:
                found.append(_candidate(rule_id, decision.yields, decision.evidence))
        if not found:
            continue
        keys = {(c.rule_id, c.param) for c in found}
        if len(keys) > 1:
            _trace(traces, view, record, "miss", "not proof: it sends two projection parameters", {})
            continue
        key = next(iter(keys))
        candidate = candidates.setdefault(key, found[0])
        if candidate.refuted is None:
            _prove(view, record, candidate, usable, records, writes, traces)
    if not candidates:
        return view
    learned = []
    for candidate in candidates.values():
        reason = _verdict(candidate)
        evidence = {"records": candidate.proofs, "kept": list(candidate.kept), "dropped": list(candidate.dropped)}
        traces.append(TraceEvent(table=TABLE, rule_id=candidate.rule_id, outcome="match" if reason is None else "miss",
                                 subject=f"{view.tool} ?{candidate.param}", evidence=evidence,
                                 location=ruleset.rule(candidate.rule_id).location,
                                 reason=reason or "kept: every read sent with it answers the members it names and "
                                                  "those the application keeps, as a plain read of the same path"))
        if reason is None:
            learned.append(Projection(root=candidate.root, form=candidate.form, param=candidate.param,
                                      separator=candidate.separator, kept=tuple(candidate.kept),
                                      dropped=tuple(candidate.dropped), wildcards=tuple(candidate.wildcards_used),
                                      inside=candidate.inside, members=tuple(candidate.members),
                                      record_ordinals=tuple(candidate.proofs), repeats_proven=candidate.repeated,
                                      rule_id=candidate.rule_id))
    return view.model_copy(update={"projections": tuple(learned)}) if learned else view


def _verdict(candidate: _Candidate) -> str | None:
    if candidate.refuted is not None:
        return candidate.refuted
    if len(candidate.proofs) < candidate.min_records:
        return (f"not learned: {len(candidate.proofs)} read(s) prove it, fewer than {candidate.min_records} (a read sent"
                f" with no other parameter, beside a plain read of the same path with no write between)")
    both = [name for name in candidate.kept if name in candidate.dropped]
    if both:
        return f"not learned: {both[0]!r} is kept by one read and left out by another"
    return None


def _candidate(rule_id: str, yields: dict[str, Any], evidence: dict[str, Any]) -> _Candidate:
    return _Candidate(rule_id=rule_id, root=evidence["root"], form=yields["form"], param=evidence["param"],
                      separator=yields.get("separator"), wildcards=tuple(yields.get("wildcards", ())),
                      min_records=int(yields["min_records"]))


def _prove(view: ReadView, record: Record, candidate: _Candidate, usable: list[Record], records: dict[int, Record],
           writes: list[int], traces: list[TraceEvent]) -> None:
    pairs = decoded(record.query)
    rest = [name for name, _ in pairs if not candidate.sends(name)]
    if rest:
        _trace(traces, view, record, "miss", f"not proof: it is sent with {rest[0]!r} too", {})
        return
    values = [value for _, value in pairs]
    reference = _reference(record, usable, records, writes)
    if reference is None:
        _trace(traces, view, record, "miss", "not proof: no read of the same path without a query, with no write "
                                             "between, to compare it with", {})
        return
    problem = _compare(view, record, reference, candidate, values)
    if problem is None:
        candidate.proofs.append(record.ordinal)
        candidate.repeated = candidate.repeated or len(values) > 1
        return
    if problem.startswith("not proof"):
        _trace(traces, view, record, "miss", problem, {"reference": reference.ordinal})
        return
    candidate.refuted = f"not learned: record {record.ordinal} {problem} (reference record {reference.ordinal})"


def _compare(view: ReadView, record: Record, reference: Record, candidate: _Candidate,
             values: list[str]) -> str | None:
    """None when the read proves the projection; a reason starting "not proof" when it says nothing
    (a value naming no member its reference holds); else why it refutes it."""
    where = view.locator or Locator(kind="root")
    answered, plain = locate(record.response.json_value, where), locate(reference.response.json_value, where)
    if answered is MISSING or plain is MISSING:
        return "answers no entity where the view reads them"
    around = set(view.per_response_members)
    if not same_json(_around(record.response.json_value, where, around), _around(reference.response.json_value, where,
                                                                                 around)):
        return "answers another body around its entities than the plain read"
    if view.kind == "list":
        if not isinstance(answered, list) or not isinstance(plain, list) or len(answered) != len(plain):
            return "lists another number of entities than the plain read"
        pairs = list(zip(answered, plain))
    else:
        pairs = [(answered, plain)]
    if not all(isinstance(a, dict) and isinstance(p, dict) for a, p in pairs):
        return "answers an entity that is no object"
    wildcard = next((v for v in values if v in candidate.wildcards), None)
    named: set[str] = set()
    inside = None
    if wildcard is None:
        for value in values:
            named.update(value.split(candidate.separator) if candidate.separator else [value])
        held = {k for _, p in pairs for k in p}
        if not named & held:
            inside = _holder(named, [p for _, p in pairs])
            held = {k for _, p in pairs for k in p.get(inside, {})} if inside is not None else held
        unknown = sorted(n for n in named if n not in held)
        if unknown:
            return f"not proof: it names {unknown[0]!r}, which its reference does not show"
    if wildcard is None and candidate.proofs and inside != candidate.inside:
        return f"names members {'inside ' + repr(inside) if inside else 'of the entity'}, as no other read did"
    volatile = set(view.volatile_fields)
    kept: list[str] = []
    dropped: list[str] = []
    for answer, reference_entity in pairs:
        if inside is not None:  # the members around the one holding the named ones are as the plain read's
            if answer.keys() != reference_entity.keys() or not isinstance(answer[inside], dict) or any(
                    k not in volatile and not same_json(v, reference_entity[k]) for k, v in answer.items() if k != inside):
                return f"answers otherwise than the plain read around {inside!r}"
            answer, reference_entity = answer[inside], reference_entity[inside]
        for key, value in answer.items():
            if key not in reference_entity:
                return f"answers {key!r}, which the plain read does not"
            if key not in volatile and not same_json(value, reference_entity[key]):
                return f"answers {key!r} otherwise than the plain read"
            if wildcard is None and key not in named:
                kept.append(key)
        for key in reference_entity:
            if key in answer:
                continue
            if wildcard is not None or key in named:
                return f"leaves out {key!r}, which it names"
            dropped.append(key)
        candidate.members.update(dict.fromkeys(reference_entity))
    if wildcard is not None:
        candidate.wildcards_used[wildcard] = None
    candidate.inside = inside if wildcard is None else candidate.inside
    candidate.kept.update(dict.fromkeys(kept))
    candidate.dropped.update(dict.fromkeys(dropped))
    return None


def _holder(named: set[str], references: list[dict[str, Any]]) -> str | None:
    """The one object member of every reference entity holding each member named (JSON:API's
    ``attributes``), when the entities themselves hold none of them."""
    found = {k for k, v in references[0].items() if isinstance(v, dict) and named <= v.keys()} if references else set()
    found = {k for k in found if all(isinstance(r.get(k), dict) and named <= r[k].keys() for r in references)}
    return next(iter(found)) if len(found) == 1 else None


def _around(body: Any, where: Locator, per_response: set[str]) -> Any:
    """The body less its entities (what a projection must leave as the plain read has it)."""
    if where.kind == "root" or not isinstance(body, dict):
        return None
    return {k: v for k, v in body.items() if k != where.member and k not in per_response}


def decoded(query: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Names and values form-decoded, as serving reads a call's (``reads/queries.decoded``)."""
    return tuple((unquote_plus(name), unquote_plus(value)) for name, value in query)


def _reference(record: Record, usable: list[Record], records: dict[int, Record], writes: list[int]) -> Record | None:
    """The read of the same path without a query nearest the record, with no related write between."""
    plain = [r for r in usable if r.path == record.path and not r.query]
    before = [r for r in plain if r.finished_at <= record.started_at]
    if before and not _written_between(before[-1], record, records, writes):
        return before[-1]
    after = [r for r in plain if r.started_at >= record.finished_at]
    if after and not _written_between(record, after[0], records, writes):
        return after[0]
    return None


def _written_between(first: Record, last: Record, records: dict[int, Record], writes: list[int]) -> bool:
    return any(first.ordinal < o < last.ordinal and related_paths(records[o].path, first.path) for o in writes)


def _answered(record: Record, view: ReadView) -> bool:
    return (record.succeeded and record.response.is_json and record.ordinal not in view.absence_records
            and record.ordinal not in view.other_shape_records and record.response.json_value is not None)


def _trace(traces: list[TraceEvent], view: ReadView, record: Record, outcome: str, reason: str,
           evidence: dict[str, Any]) -> None:
    traces.append(TraceEvent(table=TABLE, rule_id=None, outcome=outcome, subject=f"{view.tool} record {record.ordinal}",
                             reason=reason, evidence={"record": record.ordinal, **evidence}))
