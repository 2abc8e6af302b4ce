"""Infer the manifest: a trie of path segments whose identifier-shaped siblings merge.

A segment becomes a parameter when it varies (two or more identifier-shaped values under
the same prefix, across all methods) and looks like an identifier by the
``manifest-segments`` table; otherwise it stays literal. Parameters are named by the
``manifest-param-naming`` table after the segment before them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.bundle.paths import has_trailing_slash, spell_path, split_path
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.predicates.names import ParamNamingContext
from capenv.interpreter.predicates.text_shapes import SegmentContext, shape_class
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .identities import read_back_values, returned_identities
from .models import Manifest, Segment, Tool
from .overrides import Overrides

SEGMENT_TABLE = "manifest-segments"
NAMING_TABLE = "manifest-param-naming"
PARAM = object()  # the trie key of a merged parameter child
MAX_TOOL_NAME = 64


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
    cache: dict[str, tuple[bool, object]] = field(default_factory=dict)

    def identifier(self, value: str, sibling_shapes: tuple[str, ...] = ()) -> tuple[bool, object]:
        key = value if not sibling_shapes else f"{value}\0{'|'.join(sibling_shapes)}"
        if key not in self.cache:
            context = SegmentContext(value=value, returned_as_identity=value in self.identities,
                                     read_back=value in self.read_back,
                                     sibling_identity_shapes=list(sibling_shapes))
            decision = evaluate(self.ruleset, SEGMENT_TABLE, context, subject=f"segment {value!r}")
            self.cache[key] = (decision.yields.get("shape", "literal") != "literal", decision)
        return self.cache[key]


def build_manifest(evidence: Evidence, ruleset: RuleSet, overrides: Overrides | None = None) -> Manifest:
    overrides = overrides or Overrides()
    records = evidence.primary_records
    classifier = _Classifier(ruleset, returned_identities(records, ruleset), read_back_values(records))
    traces: list[TraceEvent] = []
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
    named = {key: _name_params(key[1], ruleset, traces) for key in groups}
    tools = _make_tools(groups, named)
    tools, dropped = _apply_tool_overrides(tools, overrides)
    return Manifest(evidence_id=evidence.evidence_id, rules_revision=ruleset.revision,
                    primary_origin=evidence.primary_origin, tools=tuple(tools),
                    unassigned_ordinals=tuple(sorted(dropped)), traces=tuple(traces))


def _merge_pass(node: _Node, classifier: _Classifier, traces: list[TraceEvent], prefix: str) -> _Node:
    """Merge identifier-shaped children of every node into one parameter child, depth first."""
    keys = [k for k in node.children if isinstance(k, str)]
    # siblings lend their spelling only when a sibling_model rule (a name-like identity) classified
    # them: an id shaped as an integer or a token makes no word beside it (/posts/slug) a parameter
    shapes = tuple(sorted({shape_class(k) for k in keys
                           if classifier.identifier(k)[1].yields.get("sibling_model")}))
    identifier_keys = []
    for key in keys:
        is_identifier, decision = classifier.identifier(key, shapes)
        if is_identifier:
            identifier_keys.append((key, decision))
    if len(identifier_keys) >= 2:
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
        for key in node.children:
            if isinstance(key, str):
                _, decision = classifier.identifier(key, shapes)
                traces.extend(e.model_copy(update={"subject": f"{prefix}/{key}"}) for e in decision.events)
    for key, child in list(node.children.items()):
        label = "{…}" if key is PARAM else str(key)
        node.children[key] = _merge_pass(child, classifier, traces, f"{prefix}/{label}")
    return node


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


def _name_params(segments: tuple[Segment, ...], ruleset: RuleSet, traces: list[TraceEvent]) -> tuple[Segment, ...]:
    result: list[Segment] = []
    used: set[str] = set()
    for index, segment in enumerate(segments):
        if not segment.is_param or segment.param:
            result.append(segment)
            if segment.param:
                used.add(segment.param)
            continue
        previous = result[index - 1].literal or result[index - 1].param if index else None
        decision = evaluate(ruleset, NAMING_TABLE, ParamNamingContext(previous=previous),
                            subject=f"parameter after {previous!r}")
        name = _apply_naming(previous or "", decision.yields)
        base, counter = name, 2
        while name in used:
            name, counter = f"{base}_{counter}", counter + 1
        used.add(name)
        result.append(Segment(param=name))
        traces.extend(decision.events)
    return tuple(result)


def _apply_naming(previous: str, yields: dict) -> str:
    if yields.get("fixed"):
        return str(yields["fixed"])
    strip = int(yields.get("strip", 0))
    stem = previous[:-strip] if strip else previous
    name = _identifier(stem + str(yields.get("append", "")) + str(yields.get("suffix", "")))
    return name or "id"


def _identifier(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")


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
    first record's on a tie), and whether they show both spellings (each answered as recorded)."""
    slashed = sum(1 for r in records if has_trailing_slash(r.path))
    plain = len(records) - slashed
    first = min(records, key=lambda r: r.ordinal)
    trailing = slashed > plain or (slashed == plain and has_trailing_slash(first.path))
    return trailing, bool(slashed and plain)


def _make_tools(groups: dict[tuple[str, tuple[Segment, ...]], list[Record]],
                named: dict[tuple[str, tuple[Segment, ...]], tuple[Segment, ...]]) -> list[Tool]:
    keys = sorted(groups, key=lambda k: min(r.ordinal for r in groups[k]))
    prefix = _common_literal_prefix([(named[k], _spelling(groups[k])[0]) for k in keys])
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
        name = _unique(_tool_name(method, segments[prefix:]), taken)
        trailing, either = _spelling(records)
        tools.append(Tool(name=name, method=method, template=_template_text(segments, trailing), segments=segments,
                          trailing_slash=trailing, either_slash=either,
                          params=tuple(s.param for s in segments if s.param), query_names=tuple(query_names),
                          record_ordinals=tuple(r.ordinal for r in records),
                          changes_state=method not in ("GET", "HEAD", "OPTIONS")))
    return tools


def _common_literal_prefix(templates: list[tuple[tuple[Segment, ...], bool]]) -> int:
    """Leading literal segments every template shares (``api``, ``v1``): left out of names. Each
    template keeps a segment past them, but the API's root spelled with a trailing slash (``/v1/``,
    then named ``root``)."""
    if len(templates) < 2:
        return 0
    count = 0
    while all((len(t) > count + 1 or len(t) == count + 1 and slashed) and not t[count].is_param
              and t[count].literal == templates[0][0][count].literal
              for t, slashed in templates):
        count += 1
    return count


def _tool_name(method: str, segments: tuple[Segment, ...]) -> str:
    """``get_posts``, ``get_posts_by_post_id``: literal words, and the last segment's parameter."""
    words = [method.lower()]
    for index, segment in enumerate(segments):
        if segment.is_param:
            if index == len(segments) - 1:
                words.append(f"by_{segment.param}")
            continue
        word = _identifier(segment.literal or "")
        if word:
            words.append(word)
    if len(words) == 1:
        words.append("root")
    name = "_".join(words)
    if len(name) > MAX_TOOL_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:6]
        name = name[: MAX_TOOL_NAME - 7].rstrip("_") + "_" + digest
    return name


def _unique(name: str, taken: set[str]) -> str:
    candidate, counter = name, 2
    while candidate in taken:
        suffix = f"_{counter}"
        candidate = name[: MAX_TOOL_NAME - len(suffix)] + suffix
        counter += 1
    taken.add(candidate)
    return candidate


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
