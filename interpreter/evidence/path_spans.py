"""Find path parameters that span segments, and fold the recorded paths (``bundle.path_spans``).

Evidence: an answer member whose value equals the whole path tail after a prefix, decoded and
joined by ``/`` (``path: "data/raw/x.csv"`` for ``/api/contents/data/raw/x.csv``), at several
depths (``manifest-path-spans``). The tails so proven are values; a segment following several
of them, in paths no answer proves a value, is a literal sub-path (``manifest-span-words``).
"""

from __future__ import annotations

from typing import Any, Iterable
from urllib.parse import unquote

from capenv.interpreter.bundle.path_spans import PathSpan, fold_path
from capenv.interpreter.bundle.paths import spell_path, split_path
from capenv.interpreter.bundle.trace_event import TraceEvent

from .records import Record

SPANS = "manifest-path-spans"
WORDS = "manifest-span-words"


def _strings(body: Any) -> dict[str, set[str]]:
    """String members of an answer object and of its object members (an envelope), by name."""
    found: dict[str, set[str]] = {}
    if not isinstance(body, dict):
        return found
    for container in [body] + [m for m in body.values() if isinstance(m, dict)]:
        for name, value in container.items():
            if isinstance(value, str) and value:
                found.setdefault(name, set()).add(value)
    return found


def _proofs(records: Iterable[Record]) -> dict[tuple[str, ...], dict[str, dict[int, set[str]]]]:
    """prefix -> member -> depth -> the tails (decoded) it equalled."""
    proofs: dict[tuple[str, ...], dict[str, dict[int, set[str]]]] = {}
    for record in records:
        if not record.succeeded or not record.response.is_json:
            continue
        strings = _strings(record.response.json_value)
        if not strings:
            continue
        parts = split_path(record.path)
        for start in range(1, len(parts)):
            tail = "/".join(unquote(p) for p in parts[start:])
            for name, values in strings.items():
                if tail in values:
                    depth = len(parts) - start
                    proofs.setdefault(tuple(parts[:start]), {}).setdefault(name, {}).setdefault(depth, set()).add(tail)
    return proofs


def find_spans(records: tuple[Record, ...], ruleset: Any) -> tuple[tuple[PathSpan, ...], tuple[TraceEvent, ...]]:
    """The spanning prefixes the tables accept, with their literal words, and the decisions
    (``ruleset`` None: the packaged rules)."""
    from capenv.interpreter.predicates.path_spans import PathSpanContext
    from capenv.interpreter.rules_engine import evaluate, load_rules

    ruleset = ruleset if ruleset is not None else load_rules()
    events: list[TraceEvent] = []
    spans = []
    primary = [r for r in records if r.primary]
    for prefix, members in sorted(_proofs(primary).items()):
        if not any(depth >= 2 for depths in members.values() for depth in depths):
            continue
        member = max(sorted(members), key=lambda m: (len(members[m]), sum(len(v) for v in members[m].values())))
        values = {tail for tails in members[member].values() for tail in tails}
        context = PathSpanContext(prefix=spell_path(prefix, False), member=member, depths=sorted(members[member]),
                                  values=len(values))
        decision = evaluate(ruleset, SPANS, context, subject=f"{context.prefix}/{{…}}")
        events.extend(decision.events)
        if decision.yields.get("spans"):
            words, word_events = _words(prefix, values, primary, ruleset)
            events.extend(word_events)
            spans.append(PathSpan(prefix=prefix, words=words, rule_id=decision.rule_id or ""))
    return tuple(spans), tuple(events)


def _words(prefix: tuple[str, ...], values: set[str], records: list[Record],
           ruleset: Any) -> tuple[tuple[str, ...], list[TraceEvent]]:
    from capenv.interpreter.predicates.path_spans import SpanWordContext
    from capenv.interpreter.rules_engine import evaluate

    follows: dict[str, set[str]] = {}
    for record in records:
        parts = split_path(record.path)
        if len(parts) <= len(prefix) + 1 or tuple(parts[:len(prefix)]) != prefix:
            continue
        tail = [unquote(p) for p in parts[len(prefix):]]
        if "/".join(tail) in values:
            continue
        for j in range(1, len(tail)):
            if "/".join(tail[:j]) in values:
                follows.setdefault(parts[len(prefix) + j], set()).add("/".join(tail[:j]))
    words, events = [], []
    ends = {value.rsplit("/", 1)[-1] for value in values}
    for word in sorted(follows):
        context = SpanWordContext(prefix=spell_path(prefix, False), word=word, follows=len(follows[word]),
                                  is_value_end=unquote(word) in ends)
        decision = evaluate(ruleset, WORDS, context, subject=f"{context.prefix}/{{…}}/{word}")
        events.extend(decision.events)
        if decision.yields.get("literal"):
            words.append(word)
    return tuple(words), events


def fold_records(records: tuple[Record, ...], spans: tuple[PathSpan, ...]) -> tuple[Record, ...]:
    """Records whose spanning values are folded into one segment (``%2F`` inside)."""
    if not spans:
        return records
    return tuple(r.model_copy(update={"path": folded}) if (folded := fold_path(r.path, spans)) != r.path else r
                 for r in records)
