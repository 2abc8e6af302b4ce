"""Learn what a list line's query means, only where the recordings prove it.

A line with a query is proven against a reference: a whole listing of the same collection with
no write to a related path between it and the query read (``query_references``). Names and
values are compared decoded (``filters%5Btitle%5D`` is ``filters[title]``). Each parameter's
candidates come from the ``view-learned-queries`` table (all that match, in table order); a
combination is kept only when its evaluation over the reference's members reproduces every
provable recording of the line, and dropped (traced, with the record that disagrees) otherwise.
Of the kept ones, a line takes the one whose meanings most other lines also reproduce with, so
one parameter has one meaning across the view (``sort=title`` and ``sort=views:desc`` alike).

A parameter a line shows meaning something no candidate reproduces (every combination dropped,
every other parameter of the line learned elsewhere) is *contested*: its values mean more than the
meaning another line proved (ZenML's ``name=prod`` an equality, ``name=contains:ni`` an operator
in the value), so no line keeps a learned meaning for it, and a call with a value never recorded
is refused rather than answered by the narrower meaning.
"""

from __future__ import annotations

import itertools
from typing import Callable

from capenv.interpreter.bundle.filter_expressions import clause_shape, parse_clauses
from capenv.interpreter.bundle.models import ListLine, QuerySpec, ReadView
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.learned_query_ties import LearnedQueryTieContext
from capenv.interpreter.predicates.query_candidates import QueryCandidateContext
from capenv.interpreter.predicates.sort_direction_spellings import SortDirectionSpellingContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate
from capenv.interpreter.bundle.structured_queries import expanded
from capenv.serving.reads.queries import (
    case_decided, decoded, direction_spellings, evaluate_queries, member_kinds, named, sort_directions, sort_fields,
    sorted_ties, value_sort_key as _id_key,
)
from capenv.serving.reads.text_order import collation_dependent
from capenv.serving.reads.render import project

from .query_references import Reference, References

TABLE = "view-learned-queries"
SPELLINGS = "view-sort-direction-spellings"
TIES = "view-learned-query-ties"
STRUCTURED = "view-structured-queries"


SPELLING = ("field", "operator", "index", "separator", "descending_prefix", "direction_separator", "directions",
            "operators", "syntax", "within", "wildcards", "clause_keys", "fields_proven_only", "direction_required")
"""What a matching rule's yields and evidence may tell the learned query about the spelling."""

Combination = tuple[QuerySpec, ...]

NONE_REPRODUCES = "no candidate meaning of its query reproduces the recorded answer"


def learn_queries(view: ReadView, records: list[Record], by_ordinal: dict[int, Record],
                  is_write: Callable[[Record], bool], ruleset: RuleSet, traces: list[TraceEvent],
                  elsewhere: dict[str, tuple[str, ...]] | None = None, id_field: str | None = None) -> ReadView:
    """The view with the meanings its query lines prove. ``elsewhere``: per parameter name, the
    rules the capture's other lists learned it by, which ``view-learned-query-ties`` may prefer
    among the meanings a line's recordings fit equally; ``id_field``: the type's identity member
    (whether a recorded tie was broken otherwise than by it)."""
    if view.kind != "list" or not view.state_backed:
        return view
    # the whole listings: with no query, or with one that only pages and listed less than a page
    # from the start (Nautobot's ?limit=100 listing every location): each shows the collection
    whole = [line for line in view.lines if line.membership == "all" and (not line.query or line.pages_only)]
    if not whole:
        return view
    whole_ordinals = sorted(o for line in whole for o in line.all_record_ordinals)
    references = References(view, whole, whole_ordinals, records, by_ordinal, is_write)
    containers = _containers(view, ruleset, traces)
    found: dict[int, list[Combination] | str] = {}
    for index, line in enumerate(view.lines):
        if line.query and line.membership != "all":
            found[index] = _reproducing(view, line, references, ruleset, traces, containers)
    support = _support(found)
    lines, learned = [], {}
    for index, line in enumerate(view.lines):
        result = found.get(index)
        if result is None:
            lines.append(line)
            continue
        if isinstance(result, str):
            lines.append(line.model_copy(update={"reason": result}))
            continue
        fitting = [c for c in result if not any(s.param in learned and learned[s.param] != s for s in c)]
        if not fitting:
            lines.append(line.model_copy(update={"reason": "its parameters were learned otherwise on another line"}))
            continue
        specs = _chosen(view, line, fitting, support, elsewhere or {}, ruleset, traces)
        learned.update({s.param: s for s in specs})
        traces.append(TraceEvent(table=TABLE, rule_id=None, outcome="match", subject=f"{view.tool} ?{_spelled(line)}",
                                 reason="kept: its evaluation over the reference listing reproduces every recorded answer",
                                 evidence={"kept": [s.rule_id for s in specs],
                                           "records": list(line.record_ordinals)}))
        lines.append(line.model_copy(update={"queries": specs, "state_backed": True, "reason": None,
                                             "record_ordinals": line.record_ordinals}))
    lines, learned = _without_contested(view, lines, learned, found, traces, containers)
    lines, learned = _with_member_kinds(lines, learned)
    lines, learned = _with_proven_fields(lines, learned)
    lines, learned = _with_zero_sizes(lines, learned)
    lines, learned = _with_proven_clauses(lines, learned)
    lines, learned = _with_proven_keys(lines, learned)
    lines, learned = _with_proven_directions(view, lines, learned, ruleset, traces)
    lines, learned = _with_proven_text_order(lines, learned, references)
    lines, learned = _with_proven_text_case(lines, learned, references)
    lines, learned = _with_proven_tie_order(view, lines, learned, references, id_field)
    return view.model_copy(update={"lines": tuple(lines), "learned_queries": tuple(learned.values())})


def _chosen(view: ReadView, line: ListLine, fitting: list[Combination], support: dict[str, int],
            elsewhere: dict[str, tuple[str, ...]], ruleset: RuleSet, traces: list[TraceEvent]) -> Combination:
    """The combination most of the view's lines agree with; among those, the one with most meanings
    ``view-learned-query-ties`` prefers (traced); then the first, in table order."""
    best = max(sum(support.get(_key(s), 0) for s in c) for c in fitting)
    tied = [c for c in fitting if sum(support.get(_key(s), 0) for s in c) == best]
    if len(tied) == 1 or TIES not in ruleset.tables:
        return tied[0]
    preferred: dict[tuple[str, str | None], bool] = {}
    for param, rule_id in sorted({(s.param, s.rule_id) for c in tied for s in c}, key=str):
        rules = sorted(elsewhere.get(param, ()))
        if not rules or rule_id is None:
            continue
        decision = evaluate(ruleset, TIES, LearnedQueryTieContext(param=param, rule_id=rule_id, elsewhere=rules),
                            subject=f"{view.tool} ?{_spelled(line)} {param} by {rule_id}")
        traces.extend(decision.events)
        preferred[(param, rule_id)] = bool(decision.yields.get("preferred"))
    return max(tied, key=lambda c: sum(preferred.get((s.param, s.rule_id), False) for s in c))  # first of the best


def learned_across_lists(views: list[ReadView], learn: Callable[[ReadView, list[TraceEvent], dict], ReadView],
                         traces: list[TraceEvent]) -> list[ReadView]:
    """Each view learned by ``learn``, then learned again, told the rules each of its parameters
    was learned by on the capture's other lists, where some other list learned one of them by
    another rule (its first learning's traces are then replaced by the second's)."""
    first: list[tuple[ReadView, list[TraceEvent]]] = []
    for view in views:
        own: list[TraceEvent] = []
        first.append((learn(view, own, {}), own))
    by_param: dict[str, list[tuple[int, str]]] = {}
    for index, (view, _) in enumerate(first):
        for spec in view.learned_queries:
            if spec.rule_id is not None:
                by_param.setdefault(spec.param, []).append((index, spec.rule_id))
    result = []
    for index, (view, own) in enumerate(first):
        elsewhere = {param: tuple(sorted({rule for other, rule in found if other != index}))
                     for param, found in by_param.items()}
        elsewhere = {param: rules for param, rules in elsewhere.items() if rules}
        if any(spec.rule_id not in elsewhere.get(spec.param, (spec.rule_id,)) for spec in view.learned_queries):
            own = []
            view = learn(views[index], own, elsewhere)
        traces.extend(own)
        result.append(view)
    return result


def _contested(view: ReadView, learned: dict[str, QuerySpec], found: dict[int, list[Combination] | str],
               containers: dict[str, str]) -> dict[str, str]:
    """The learned parameters some line shows meaning otherwise: a line no candidate combination
    reproduces, each of whose other parameters has a learned meaning (so the failure is this
    parameter's), named by the line's spelled query."""
    contested: dict[str, str] = {}
    for index, result in found.items():
        if result != NONE_REPRODUCES:
            continue
        line = view.lines[index]
        names = [name for name, _ in _pairs(line.query, containers)]
        for name in names:
            if name in learned and all(other in learned for other in names if other != name):
                contested.setdefault(name, _spelled(line))
    return contested


def _without_contested(view: ReadView, lines: list[ListLine], learned: dict[str, QuerySpec],
                       found: dict[int, list[Combination] | str], traces: list[TraceEvent],
                       containers: dict[str, str]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """The lines and learned meanings less every contested parameter's: a line that took one keeps
    its recording only (served as replay, refused once the state has left it behind)."""
    contested = _contested(view, learned, found, containers)
    if not contested:
        return lines, learned
    for name, where in sorted(contested.items()):
        traces.append(TraceEvent(table=TABLE, rule_id=None, outcome="miss", subject=f"{view.tool} ?{name}",
                                 reason=f"contested: no meaning reproduces the line ?{where}, so the meaning "
                                        f"another line proved does not hold for every value",
                                 evidence={"param": name, "line": where}))
    kept_lines = []
    for line, before in zip(lines, view.lines):
        spoiled = sorted({q.param for q in line.queries} & set(contested))
        if spoiled:
            line = before.model_copy(update={
                "reason": f"query parameter {spoiled[0]!r} means something no learned meaning reproduces on the "
                          f"line ?{contested[spoiled[0]]}"})
        kept_lines.append(line)
    return kept_lines, {name: spec for name, spec in learned.items() if name not in contested}


def _with_proven_clauses(lines: list[ListLine], learned: dict[str, QuerySpec]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned expression with the comparisons its lines' recorded values make (operator and
    literal kind): serving evaluates only those, as the recordings proved them."""
    shapes: dict[str, set[str]] = {}
    for line in lines:
        for name, value in named(tuple(learned.values()), line.query):
            spec = learned.get(name)
            if spec is None or spec.kind != "expression" or not line.state_backed \
                    or not any(q.param == name for q in line.queries):
                continue  # only the lines that proved the expression prove its clauses
            clauses = parse_clauses(value, spec.syntax, spec.separator or "", spec.operators or {}, spec.within,
                                    spec.clause_keys) or []
            shapes.setdefault(name, set()).update(clause_shape(c, spec.syntax) for c in clauses)
    if not shapes:
        return lines, learned
    updated = {name: learned[name].model_copy(update={"proven_clauses": tuple(sorted(found))})
               for name, found in shapes.items()}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) if q.kind == "expression" else q
                                                      for q in line.queries)}) if line.queries else line
             for line in lines]
    return lines, {**learned, **updated}


def _with_proven_keys(lines: list[ListLine], learned: dict[str, QuerySpec]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned sort that may list several keys with the most keys one of the values that
    proved it lists, and each keyed sort (``$sort[views]``) with the most keyed sort parameters one
    proving line sent: serving sorts by no more, since the recordings show nothing of the rest.
    A sort one of whose proving values sent a key with spaces around it is marked
    ``spaced_keys_proven``: serving refuses such a key otherwise."""
    most: dict[str, int] = {}
    spaced: set[str] = set()
    for line in lines:
        pairs = named(tuple(learned.values()), line.query)
        keyed = [name for name, _ in pairs if (spec := learned.get(name)) is not None
                 and spec.kind == "sort" and spec.field is not None and line.state_backed
                 and any(q.param == name for q in line.queries)]
        for name in keyed:  # a keyed sort: the most keyed sort parameters one proving line sent
            most[name] = max(most.get(name, 0), len(keyed))
        for name, value in pairs:
            spec = learned.get(name)
            if spec is None or spec.kind != "sort" or not line.state_backed \
                    or not any(q.param == name for q in line.queries):
                continue
            keys = value.split(spec.separator) if spec.separator else [value]
            if any(key != key.strip() for key in keys):  # a key sent with spaces around it, proven read
                spaced.add(name)
            if spec.separator:
                most[name] = max(most.get(name, 0), len(keys))
    lines, learned = _marked_proven(lines, learned, spaced, "spaced_keys_proven")
    if not most:
        return lines, learned
    updated = {name: learned[name].model_copy(update={"proven_keys": count}) for name, count in most.items()}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) if q.kind == "sort" else q
                                                      for q in line.queries)}) if line.queries else line
             for line in lines]
    return lines, {**learned, **updated}


def _with_proven_directions(view: ReadView, lines: list[ListLine], learned: dict[str, QuerySpec], ruleset: RuleSet,
                            traces: list[TraceEvent]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned sort and order with the direction spellings its proving lines sent, exactly
    (``desc``, ``DESC``, ``-``, ``-1``), and those ``view-sort-direction-spellings`` accepts beside
    them (``asc`` beside ``desc``): serving refuses another spelling (``Desc``, ``descending``, a
    ``-`` no recording led a key with), which the application may refuse or ignore."""
    spelled: dict[str, set[str]] = {name: set() for name, spec in learned.items() if spec.kind in ("sort", "order")}
    for line in lines:
        for name, value in named(tuple(learned.values()), line.query):
            spec = learned.get(name)
            if name in spelled and line.state_backed and any(q.param == name for q in line.queries):
                spelled[name].update(direction_spellings(spec, value))
    if not spelled:
        return lines, learned
    updated = {name: learned[name].model_copy(update={
        "proven_directions": tuple(sorted(found | _accepted_beside(view, learned[name], found, ruleset, traces)))})
        for name, found in spelled.items()}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) for q in line.queries)})
             if line.queries else line for line in lines]
    return lines, {**learned, **updated}


def _accepted_beside(view: ReadView, spec: QuerySpec, recorded: set[str], ruleset: RuleSet,
                     traces: list[TraceEvent]) -> set[str]:
    """The direction words of ``spec`` (lower and upper case) no proving line sent that
    ``view-sort-direction-spellings`` accepts beside one that did."""
    if SPELLINGS not in ruleset.tables:
        return set()
    candidates = sorted({spelled for word in spec.directions for spelled in (word, word.upper())} - recorded)
    accepted = set()
    for candidate in candidates:
        for sent in sorted(recorded):
            decision = evaluate(ruleset, SPELLINGS, SortDirectionSpellingContext(
                recorded=sent, candidate=candidate, directions=dict(spec.directions)),
                subject=f"{view.tool} ?{spec.param} {candidate!r} beside {sent!r}")
            traces.extend(decision.events)
            if decision.yields.get("accepted"):
                accepted.add(candidate)
                break
    return accepted


def with_directions_of_other_lists(views: list[ReadView], ruleset: RuleSet,
                                   traces: list[TraceEvent]) -> list[ReadView]:
    """Each list view's learned sorts and orders with the direction spellings
    ``view-sort-direction-spellings`` accepts from the capture's other lists (the same parameter
    learned by the same rule: Medusa's ``order=-title`` proven on collections, ``order=name`` alone
    on product categories)."""
    if SPELLINGS not in ruleset.tables:
        return views
    pooled: dict[tuple[str, str | None], list[tuple[int, set[str]]]] = {}
    for index, view in enumerate(views):
        for spec in view.learned_queries:
            if spec.proven_directions is not None:
                pooled.setdefault((spec.param, spec.rule_id), []).append((index, set(spec.proven_directions)))
    result = []
    for index, view in enumerate(views):
        updated = {}
        for spec in view.learned_queries:
            if spec.proven_directions is None:
                continue
            own = set(spec.proven_directions)
            elsewhere = sorted({s for other, found in pooled[(spec.param, spec.rule_id)] if other != index
                                for s in found} - own)
            accepted = set()
            for candidate in elsewhere:
                decision = evaluate(ruleset, SPELLINGS, SortDirectionSpellingContext(
                    recorded=min(own, default=""), candidate=candidate, directions=dict(spec.directions),
                    elsewhere=elsewhere), subject=f"{view.tool} ?{spec.param} {candidate!r} from another list")
                traces.extend(decision.events)
                if decision.yields.get("accepted"):
                    accepted.add(candidate)
            if accepted:
                updated[spec.param] = spec.model_copy(update={"proven_directions": tuple(sorted(own | accepted))})
        if not updated:
            result.append(view)
            continue
        lines = tuple(line.model_copy(update={"queries": tuple(updated.get(q.param, q) for q in line.queries)})
                      if line.queries else line for line in view.lines)
        result.append(view.model_copy(update={
            "lines": lines, "learned_queries": tuple(updated.get(s.param, s) for s in view.learned_queries)}))
    return result


def _key(spec: QuerySpec) -> str:
    return spec.model_dump_json()


def _support(found: dict[int, list[Combination] | str]) -> dict[str, int]:
    """How many lines some reproducing combination of reads each (parameter, meaning) in: a line
    keeps the meanings most other lines agree with, so one spelling serves them all."""
    support: dict[str, int] = {}
    for result in found.values():
        if isinstance(result, str):
            continue
        for key in {_key(s) for combination in result for s in combination}:
            support[key] = support.get(key, 0) + 1
    return support


def _spelled(line: ListLine) -> str:
    return "&".join(f"{name}={value}" for name, value in decoded(line.query))


def _pairs(query: tuple[tuple[str, str], ...], containers: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The query decoded, each container split into its members (``q.order_column``); as decoded
    when a container's value is no object of its syntax."""
    pairs = decoded(query)
    split = expanded(pairs, containers)
    return pairs if split is None else split[0]


def _containers(view: ReadView, ruleset: RuleSet, traces: list[TraceEvent]) -> dict[str, str]:
    """The query parameters of the view's lines that ``view-structured-queries`` reads as containers
    of named members on every line that sent them, with their syntax (traced)."""
    if STRUCTURED not in ruleset.tables:
        return {}
    syntaxes: dict[str, set[str | None]] = {}
    for line in view.lines:
        if not line.query or line.membership == "all":
            continue
        for name, value in decoded(line.query):
            decision = evaluate(ruleset, STRUCTURED, QueryCandidateContext(param=name, value=value),
                                subject=f"{view.tool} ?{name}={value}")
            traces.extend(decision.events)
            syntaxes.setdefault(name, set()).add(decision.yields.get("syntax") if decision.matched else None)
    return {name: found.pop() for name, found in sorted(syntaxes.items()) if len(found) == 1 and None not in found}


def _with_member_kinds(lines: list[ListLine], learned: dict[str, QuerySpec]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned container member with the kinds its proving lines sent it as: serving refuses
    another (a page number sent as text where every recording sent a number)."""
    kinds: dict[str, set[str]] = {}
    for line in lines:
        if not line.state_backed or not line.queries:
            continue
        for name, kind in (member_kinds(line.queries, line.query) or {}).items():
            if name in learned and any(q.param == name for q in line.queries):
                kinds.setdefault(name, set()).add(kind)
    return _updated(lines, learned, {name: {"member_kinds": tuple(sorted(found))} for name, found in kinds.items()})


def _with_proven_fields(lines: list[ListLine], learned: dict[str, QuerySpec]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned sort whose rule sorts only by proven fields with the fields its proving lines
    sorted by: serving refuses another."""
    fields: dict[str, set[str]] = {}
    for line in lines:
        sorts = [q for q in line.queries if q.kind == "sort" and q.fields_proven_only]
        if not sorts or not line.state_backed:
            continue
        for spec in sorts:
            fields.setdefault(spec.param, set()).update(sort_fields([spec], line.query))
    return _updated(lines, learned, {name: {"proven_fields": tuple(sorted(found))} for name, found in fields.items()})


def _with_zero_sizes(lines: list[ListLine], learned: dict[str, QuerySpec]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned page size one of whose proving lines sent 0: serving answers 0 as it proved."""
    zero: set[str] = set()
    for line in lines:
        if not line.state_backed:
            continue
        for name, value in named(line.queries, line.query):
            spec = learned.get(name)
            if spec is not None and spec.kind == "limit" and any(q.param == name for q in line.queries) \
                    and value.isascii() and value.isdigit() and not value.strip("0"):
                zero.add(name)
    return _updated(lines, learned, {name: {"zero_size_proven": True} for name in zero})


def _updated(lines: list[ListLine], learned: dict[str, QuerySpec],
             changes: dict[str, dict]) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """The learned queries named in ``changes`` updated so, in ``learned`` and in every line."""
    if not changes:
        return lines, learned
    updated = {name: learned[name].model_copy(update=change) for name, change in changes.items() if name in learned}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) for q in line.queries)})
             if line.queries else line for line in lines]
    return lines, {**learned, **updated}


def _reproducing(view: ReadView, line: ListLine, references: References, ruleset: RuleSet,
                 traces: list[TraceEvent], containers: dict[str, str]) -> list[Combination] | str:
    """Every combination of candidate meanings that reproduces each provable recording of the
    line (in table order), or why none is kept."""
    proofs = []
    for ordinal in line.record_ordinals:
        record = references.by_ordinal[ordinal]
        reference = references.reference(record, line)
        if reference is not None:
            proofs.append((record, reference))
    if not proofs:
        return "no whole listing of the collection, with no write between, to prove its query against"
    fields = sorted({k for _, ref in proofs for m in ref.members for k in m})
    structured = sorted({k for _, ref in proofs for m in ref.members for k, v in m.items() if isinstance(v, (dict, list))})
    options = []
    for name, value in _pairs(line.query, containers):
        container = next((c for c in containers if name.startswith(f"{c}.")), None)
        member = name[len(container) + 1:] if container is not None else name  # a member is read by its own name
        decision = evaluate(ruleset, TABLE, QueryCandidateContext(param=member, value=value, fields=fields,
                                                                 structured_fields=structured),
                            subject=f"{view.tool} ?{name}={value}")
        traces.extend(decision.events)
        specs = [_spec(ruleset, decision, rule_id, name) for rule_id in decision.matched]
        if container is not None:
            specs = [s.model_copy(update={"container": container, "container_syntax": containers[container],
                                          **({"field": member} if s.kind == "equals" and s.field == name else {})})
                     for s in specs]
        if not specs:
            return f"query parameter {name!r} has no learned meaning"
        options.append(specs)
    most = ruleset.setting("budgets", "max_query_combinations")
    combinations = list(itertools.islice(itertools.product(*options), most + 1))
    if len(combinations) > most:
        return "too many candidate meanings to prove"
    kept = []
    for combination in combinations:
        disagreeing = next((r.ordinal for r, ref in proofs if not _reproduces(view, r, ref, combination)), None)
        if disagreeing is None:
            kept.append(tuple(combination))
        else:
            traces.append(TraceEvent(table=TABLE, rule_id=None, outcome="miss", subject=f"{view.tool} ?{_spelled(line)}",
                                     reason=f"dropped: its evaluation differs from record {disagreeing}",
                                     evidence={"candidates": [s.rule_id for s in combination]}))
    return kept or NONE_REPRODUCES


def _spec(ruleset: RuleSet, decision, rule_id: str, name: str) -> QuerySpec:
    rule = ruleset.rule(rule_id)
    evidence = {}
    for event in decision.events:
        if event.rule_id == rule_id:
            evidence.update(event.evidence)
    spelling = {key: rule.yields[key] for key in SPELLING if key in rule.yields}
    spelling.update({key: evidence[key] for key in SPELLING if key in evidence})
    kind = rule.yields["kind"]
    if kind == "equals" and "field" not in evidence:
        spelling["field"] = name
    if kind == "expression" or kind == "sort" and "field" not in evidence:
        spelling.pop("field", None)  # the value names the field on each call (a keyed sort's name names it)
    return QuerySpec(param=name, kind=kind, rule_id=rule_id, **spelling)


def _reproduces(view: ReadView, record: Record, reference: Reference, specs: Combination) -> bool:
    answered = evaluate_queries(reference.members, specs, record.query)
    recorded = locate(record.response.json_value, view.locator)
    if not isinstance(recorded, list):
        return False
    rendered = [project(m, view.shown_fields) for m in answered]
    volatile = set(view.volatile_fields)
    return len(rendered) == len(recorded) and all(
        same_json({k: v for k, v in a.items() if k not in volatile}, {k: v for k, v in b.items() if k not in volatile})
        for a, b in zip(rendered, recorded))


def _with_proven_text_order(lines: list[ListLine], learned: dict[str, QuerySpec],
                            references: References) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned sort one of whose proving lines sorted texts whose order depends on the
    collation (its reference listing held them in the sorted field): the recording showed them in
    the order serving gives them, so serving sorts such texts as well."""
    proven: set[str] = set()
    for line in lines:
        sorts = [q for q in line.queries if q.kind == "sort"]
        if not sorts or not line.state_backed:
            continue
        fields = sort_fields(sorts, line.query)
        for ordinal in line.record_ordinals:
            reference = references.reference(references.by_ordinal[ordinal], line)
            if reference is None:
                continue
            if any(collation_dependent(m[f] for m in reference.members if isinstance(m.get(f), str))
                   for f in fields):
                proven.update(q.param for q in sorts)
    return _marked_proven(lines, learned, proven, "text_order_proven")


def _with_proven_tie_order(view: ReadView, lines: list[ListLine], learned: dict[str, QuerySpec],
                           references: References, id_field: str | None
                           ) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned sort one of whose proving recordings listed entities equal in every sort key
    (on its page), reproduced in the order serving keeps them (the listing's): the application
    breaks such ties as serving does, in that direction (``QuerySpec.tie_order_proven``); where
    such a run was not in its ``id_field`` order, the recording showed the held order, not the
    identities', deciding (``QuerySpec.tie_order_unlike_ids``)."""
    proven: dict[str, set[str]] = {}
    unlike: dict[str, set[str]] = {}
    for line in lines:
        sorts = [q for q in line.queries if q.kind == "sort"]
        if not sorts or not line.state_backed:
            continue
        for ordinal in line.record_ordinals:
            record = references.by_ordinal[ordinal]
            reference = references.reference(record, line)
            runs = sorted_ties(line.queries, record.query, reference.members)[0] if reference is not None else []
            if not runs or not _reproduces(view, record, reference, line.queries):
                continue
            direction = sort_directions(line.queries, record.query)
            held_first = id_field is not None and any(
                [m.get(id_field) for m in run] != [m.get(id_field) for m in sorted(run, key=lambda m: _id_key(
                    m.get(id_field)))] for run in runs)
            for q in sorts:
                proven.setdefault(q.param, set()).add(direction)
                if held_first:
                    unlike.setdefault(q.param, set()).add(direction)
    if not proven:
        return lines, learned
    updated = {name: learned[name].model_copy(update={"tie_order_proven": tuple(sorted(proven[name])),
                                                      "tie_order_unlike_ids": tuple(sorted(unlike.get(name, ())))})
               for name in proven if name in learned}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) for q in line.queries)})
             if line.queries else line for line in lines]
    return lines, {**learned, **updated}


def _with_proven_text_case(lines: list[ListLine], learned: dict[str, QuerySpec],
                           references: References) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """Each learned text filter one of whose proving lines filtered by a text whose letter case
    decided whether a text its reference listing held matched: the recording showed the case
    reading serving gives, so serving answers such texts as well."""
    proven: set[str] = set()
    for line in lines:
        texts = [q for q in line.queries if q.kind == "text" and q.field and q.operator]
        if not texts or not line.state_backed:
            continue
        values = dict(named(tuple(learned.values()), line.query))
        for ordinal in line.record_ordinals:
            reference = references.reference(references.by_ordinal[ordinal], line)
            if reference is None:
                continue
            proven.update(q.param for q in texts if q.param in values and case_decided(
                q.operator, values[q.param], [m.get(q.field) for m in reference.members]) is not None)
    return _marked_proven(lines, learned, proven, "text_case_proven")


def _marked_proven(lines: list[ListLine], learned: dict[str, QuerySpec], proven: set[str],
                   flag: str) -> tuple[list[ListLine], dict[str, QuerySpec]]:
    """The learned queries named in ``proven`` with ``flag`` set, in ``learned`` and in every line."""
    if not proven:
        return lines, learned
    updated = {name: learned[name].model_copy(update={flag: True}) for name in proven if name in learned}
    lines = [line.model_copy(update={"queries": tuple(updated.get(q.param, q) for q in line.queries)})
             if line.queries else line for line in lines]
    return lines, {**learned, **updated}
