"""Infer the manifest: a trie of path segments whose identifier-shaped siblings merge.

A segment becomes a parameter when it varies (two or more identifier-shaped values under
the same prefix, across all methods) and looks like an identifier by the
``manifest-segments`` table, or when its one identifier-shaped value is what a create posted to
its parent path made (``manifest-lone-segments``); otherwise it stays literal. Parameters are named by the
``manifest-param-naming`` table after the segment before them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.bundle.paths import has_trailing_slash, spell_path, split_path
from capenv.interpreter.bundle.text import loose_spelling
from capenv.interpreter.bundle.values import decode_once
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.predicates.lone_segments import LoneSegmentContext
from capenv.interpreter.predicates.text_shapes import SegmentContext, shape_class, token_shape
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .identities import (array_element_values, identity_judge, listed_identities, made_identities, read_back_values,
                         returned_identities)
from .issued import issued_by, sent_in_headers
from .kinds import sibling_kinds
from .listings import listed_siblings
from .models import Manifest, Segment, Tool
from .naming import common_literal_prefix, name_params, tool_name, unique_name
from .overrides import Overrides

SEGMENT_TABLE = "manifest-segments"
LONE_TABLE = "manifest-lone-segments"
PARAM = object()  # the trie key of a merged parameter child


@dataclass
class _Node:
    children: dict[object, "_Node"] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    """For a parameter node: the raw values merged into it."""


@dataclass
class _Classifier:
    ruleset: RuleSet
    identities: set[str]
    read_back: set[str] = field(default_factory=set)
    array_elements: set[str] = field(default_factory=set)
    span_prefixes: set[str] = field(default_factory=set)
    records: list[Record] = field(default_factory=list)
    """Every primary record, for where a lone token came from (``issued``)."""
    cache: dict[str, tuple[bool, object]] = field(default_factory=dict)

    @cached_property
    def is_identity(self) -> Callable[[str], bool]:
        """Whether a member name is an identity member (``manifest-identity-members``)."""
        return identity_judge(self.ruleset)

    @cached_property
    def loose_identities(self) -> set[str]:
        """The returned identities as other spellings share them (``loose_spelling``)."""
        return {loose_spelling(identity) for identity in self.identities}

    def identifier(self, value: str, sibling_shapes: tuple[str, ...] = (),
                   kinds: tuple[int, float | None] = (0, None), prefix: str = "",
                   token_shapes: tuple[str, ...] = (), listed: int = 0,
                   below: tuple[bool, int] = (True, 0)) -> tuple[bool, object]:
        """``below``: whether a record's path ends in the value, and how many values under it are
        read back (``SegmentContext.read_back_below``)."""
        under_span = prefix in self.span_prefixes
        key = (f"{value}\0{'|'.join(sibling_shapes)}\0{kinds}\0{under_span}\0{'|'.join(token_shapes)}\0{listed}"
               f"\0{below}")
        if key not in self.cache:
            # a percent-encoded segment (%40alice%3Aexample.org) names what its decoded spelling does
            decoded = decode_once(value)
            returned = value in self.identities or decoded in self.identities
            context = SegmentContext(value=value, under_span=under_span, returned_as_identity=returned,
                                     read_back=value in self.read_back,
                                     array_element=value in self.array_elements,
                                     spells_identity_otherwise=not returned
                                     and loose_spelling(decoded) in self.loose_identities,
                                     sibling_identity_shapes=list(sibling_shapes),
                                     sibling_token_shapes=list(token_shapes),
                                     sibling_kind_values=kinds[0], sibling_kind_overlap=kinds[1],
                                     lists_siblings=listed, read_itself=below[0], read_back_below=below[1])
            decision = evaluate(self.ruleset, SEGMENT_TABLE, context, subject=f"segment {value!r}")
            self.cache[key] = (decision.yields.get("shape", "literal") != "literal", decision)
        return self.cache[key]


def build_manifest(evidence: Evidence, ruleset: RuleSet, overrides: Overrides | None = None) -> Manifest:
    overrides = overrides or Overrides()
    records = evidence.primary_records
    classifier = _Classifier(ruleset, returned_identities(records, ruleset), read_back_values(records, ruleset),
                             array_element_values(records), span_prefixes={spell_path(s.prefix, False) for s in evidence.path_spans},
                             records=list(records))
    traces: list[TraceEvent] = list(evidence.span_trace)
    forced = [_parse_template(t) for t in overrides.templates]
    root = _Node()
    groups: dict[tuple[str, tuple[Segment, ...]], list[Record]] = {}
    for record in records:
        template = _forced_template(record.path, forced)
        if template is not None:
            groups.setdefault((record.method, template), []).append(record)
            continue
        node = root
        for part in split_path(record.path):
            node = node.children.setdefault(part, _Node())
        node.records.append(record)
    merged = _merge_pass(root, classifier, traces, prefix="")
    for segments, node in _walk(merged, ()):
        for record in node.records:
            groups.setdefault((record.method, segments), []).append(record)
    named = {key: name_params(key[1], ruleset, traces) for key in groups}
    tools = _make_tools(groups, named)
    tools, dropped = _apply_tool_overrides(tools, overrides)
    return Manifest(evidence_id=evidence.evidence_id, rules_revision=ruleset.revision,
                    primary_origin=evidence.primary_origin, tools=tuple(tools), path_spans=evidence.path_spans,
                    unassigned_ordinals=tuple(sorted(dropped)), traces=tuple(evidence.format_trace) + tuple(evidence.colon_trace) + tuple(traces),
                    format_suffix=evidence.format_suffix, colon_actions=evidence.colon_actions)


def _merge_pass(node: _Node, classifier: _Classifier, traces: list[TraceEvent], prefix: str) -> _Node:
    """Merge identifier-shaped children of every node into one parameter child, depth first."""
    keys = [k for k in node.children if isinstance(k, str)]
    # siblings lend their spelling only when a sibling_model rule (a name-like identity) classified
    # them: an id shaped as an integer or a token makes no word beside it (/posts/slug) a parameter
    shapes = tuple(sorted({shape_class(k) for k in keys
                           if classifier.identifier(k, prefix=prefix)[1].yields.get("sibling_model")}))
    # tokens returned as identities lend their length and alphabet (a missing id of their space)
    tokens = tuple(sorted(token_shape(k) for k in keys if k in classifier.identities
                          and classifier.identifier(k, prefix=prefix)[1].yields.get("token_model")))
    # a value whose own read lists entities its siblings name is a view of their collection
    listed = {k: listed_siblings(node.children[k].records, [o for o in keys if o != k]) for k in keys} \
        if len(keys) >= 2 else {}
    # a word under which values are read back as their entity's member names the key those reads look up by
    below = {k: (bool(node.children[k].records),
                 sum(1 for c in node.children[k].children if isinstance(c, str) and c in classifier.read_back))
             for k in keys}
    kinds = _kinds(node, [k for k in keys if classifier.identifier(k, shapes, prefix=prefix,
                                                                     listed=listed.get(k, 0), below=below[k])[0]],
                   classifier)
    identifier_keys, ruled_literal = [], []
    for key in keys:
        is_identifier, decision = classifier.identifier(key, shapes, kinds, prefix, tokens, listed.get(key, 0),
                                                        below[key])
        if is_identifier:
            identifier_keys.append((key, decision))
        elif decision.rule_id is not None:
            ruled_literal.append((key, decision))
    if len(identifier_keys) == 1 and not _lone_parameter(node, identifier_keys[0], classifier, traces, prefix):
        identifier_keys = []
    if identifier_keys:
        param = node.children.pop(PARAM, None) or _Node()
        for key, _ in identifier_keys:
            _absorb(param, node.children.pop(key), key)
        node.children[PARAM] = param
        first_key, first_decision = identifier_keys[0]
        traces.append(TraceEvent(
            table=SEGMENT_TABLE, rule_id=first_decision.rule_id, outcome="match",
            subject=f"{prefix}/{{…}}",
            evidence={"values": len(identifier_keys), "example": first_key, **first_decision.evidence},
            location=first_decision.events[-1].location if first_decision.events else ""))
        # each other rule that made a value a parameter, once, with its first value (a missing id
        # joined by segment.token-sibling says so)
        ruled = {first_decision.rule_id}
        for key, decision in identifier_keys[1:]:
            if decision.rule_id not in ruled:
                ruled.add(decision.rule_id)
                traces.append(TraceEvent(
                    table=SEGMENT_TABLE, rule_id=decision.rule_id, outcome="match", subject=f"{prefix}/{key}",
                    evidence={"parameter": f"{prefix}/{{…}}", **decision.evidence},
                    location=decision.events[-1].location if decision.events else ""))
        for key in node.children:
            if isinstance(key, str):
                _, decision = classifier.identifier(key, shapes, kinds, prefix, tokens, listed.get(key, 0),
                                                    below[key])
                traces.extend(e.model_copy(update={"subject": f"{prefix}/{key}"}) for e in decision.events)
    else:  # values a rule kept literal (words leading to different kinds): say why
        for key, decision in ruled_literal:
            traces.extend(e.model_copy(update={"subject": f"{prefix}/{key}"}) for e in decision.events)
    for key, child in list(node.children.items()):
        label = "{…}" if key is PARAM else str(key)
        node.children[key] = _merge_pass(child, classifier, traces, f"{prefix}/{label}")
    return node


def _lone_parameter(node: _Node, lone: tuple[str, Any], classifier: _Classifier, traces: list[TraceEvent],
                    prefix: str) -> bool:
    """Whether the one identifier-shaped value under ``node`` is a parameter all the same
    (``manifest-lone-segments``): one value does not vary, but a create posted to ``node``'s path
    answering it as what it made, or a read of that path listing it as an entity's identity, shows
    the path to be that entity's item path."""
    key, shaped = lone
    issued, sent = None, []
    if shaped.yields.get("token_model"):  # where a token came from: looked for only for tokens (a scan of answers)
        first = min(r.ordinal for r in _subtree_records(node.children[key]))
        issued, sent = issued_by(key, classifier.records, first), sent_in_headers(key, classifier.records)
    context = LoneSegmentContext(value=key, shape_rule=shaped.rule_id,
                                 created_here=made_identities(node.records, classifier.ruleset),
                                 listed_here=listed_identities(node.records, classifier.ruleset),
                                 issued_by=issued, sent_in_headers=sent)
    decision = evaluate(classifier.ruleset, LONE_TABLE, context, subject=f"{prefix}/{key}")
    if decision.yields.get("parameter"):
        traces.extend(decision.events)
        return True
    return False


def _subtree_records(node: _Node) -> list[Record]:
    """The records of a node and of every node below it."""
    return [*node.records, *(r for child in node.children.values() for r in _subtree_records(child))]


def _kinds(node: _Node, values: list[str], classifier: _Classifier) -> tuple[int, float | None]:
    """How the identifier-shaped sibling values' reads differ in kind (``kinds.sibling_kinds``):
    each value's own reads, else those one segment below it, less the literal sub-paths every
    value shares (``/collections/x/records`` shows the records, not the collection). Like is
    compared with like: where two values or more have reads of their own, only those values are
    compared (an API root's /flows answers the list /flow/{id}'s items come from, one segment
    below a word with no read of its own: no kind of /flow's own)."""
    if len(values) < 2:
        return 0, None
    own_read = [v for v in values if any(r.method == "GET" for r in node.children[v].records)]
    if len(own_read) >= 2:
        values = own_read
    children = [node.children[v].children for v in values]
    shared = {k for k in children[0] if isinstance(k, str) and all(k in c for c in children[1:])
              and not classifier.identifier(k)[0]}
    reads = {}
    for value, below in zip(values, children):
        own = node.children[value].records
        reads[value] = own if any(r.method == "GET" for r in own) else [
            r for k, child in below.items() if k not in shared for r in child.records]
    return sibling_kinds(reads, classifier.is_identity)


def _absorb(target: _Node, source: _Node, value: str) -> None:
    target.records.extend(source.records)
    target.values.append(value)
    target.values.extend(source.values)
    for key, child in source.children.items():
        if key in target.children:
            _absorb(target.children[key], child, "")
        else:
            target.children[key] = child


def _walk(node: _Node, path: tuple[object, ...]):
    if node.records:
        yield tuple(Segment(param="") if k is PARAM else Segment(literal=str(k)) for k in path), node
    for key in sorted(node.children, key=lambda k: (k is PARAM, str(k))):
        yield from _walk(node.children[key], path + (key,))


def _parse_template(template: str) -> tuple[Segment, ...]:
    segments = []
    for part in split_path(template):
        match = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", part)
        segments.append(Segment(param=match.group(1)) if match else Segment(literal=part))
    return tuple(segments)


def _forced_template(path: str, forced: list[tuple[Segment, ...]]) -> tuple[Segment, ...] | None:
    parts = split_path(path)
    for template in forced:
        if len(template) == len(parts) and all(
                s.is_param and p != "" or s.literal == p for s, p in zip(template, parts)):
            return template
    return None


def _template_text(segments: tuple[Segment, ...], trailing_slash: bool = False) -> str:
    return spell_path([s.text() for s in segments], trailing_slash)


def _spelling(records: list[Record]) -> tuple[bool, bool]:
    """``(trailing_slash, either_slash)`` of a tool: the spelling most of its records use (the
    first record's on a tie), and whether the application routed both spellings: each answered
    some call successfully. A spelling only ever answered with a failure (``/tiddlers/Welcome/``
    404 beside ``/tiddlers/Welcome`` 200) is one the application does not route, not the same read."""
    slashed = sum(1 for r in records if has_trailing_slash(r.path))
    plain = len(records) - slashed
    first = min(records, key=lambda r: r.ordinal)
    trailing = slashed > plain or (slashed == plain and has_trailing_slash(first.path))
    routed = {has_trailing_slash(r.path) for r in records if r.succeeded}
    either = bool(slashed and plain) and (len(routed) == 2 or not routed)
    return trailing, either


def _make_tools(groups: dict[tuple[str, tuple[Segment, ...]], list[Record]],
                named: dict[tuple[str, tuple[Segment, ...]], tuple[Segment, ...]]) -> list[Tool]:
    keys = sorted(groups, key=lambda k: min(r.ordinal for r in groups[k]))
    prefix = common_literal_prefix([(named[k], _spelling(groups[k])[0]) for k in keys])
    tools, taken = [], set()
    for key in keys:
        method, _ = key
        segments = named[key]
        records = sorted(groups[key], key=lambda r: r.ordinal)
        query_names: list[str] = []
        for record in records:
            for name, _ in record.query:
                if name not in query_names:
                    query_names.append(name)
        name = unique_name(tool_name(method, segments[prefix:]), taken)
        trailing, either = _spelling(records)
        suffixes = Counter(r.format_suffix for r in records)
        tools.append(Tool(name=name, method=method, template=_template_text(segments, trailing), segments=segments,
                          trailing_slash=trailing, either_slash=either,
                          format_suffix=max(suffixes, key=lambda s: (suffixes[s], s)),
                          params=tuple(s.param for s in segments if s.param), query_names=tuple(query_names),
                          record_ordinals=tuple(r.ordinal for r in records),
                          changes_state=method not in ("GET", "HEAD", "OPTIONS")))
    return tools


def _apply_tool_overrides(tools: list[Tool], overrides: Overrides) -> tuple[list[Tool], list[int]]:
    known = {t.name for t in tools}
    unknown = sorted(set(overrides.tools) - known)
    if unknown:
        raise UserError(f"overrides name tools that do not exist: {', '.join(unknown)} "
                        f"(tools: {', '.join(sorted(known))})")
    kept, dropped = [], []
    for tool in tools:
        change = overrides.tools.get(tool.name)
        if change and change.drop:
            dropped.extend(tool.record_ordinals)
            continue
        if change and change.rename:
            tool = tool.model_copy(update={"name": change.rename})
        kept.append(tool)
    names = [t.name for t in kept]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise UserError(f"overrides give two tools the name {duplicates[0]!r}")
    return kept, dropped
