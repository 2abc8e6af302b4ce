"""``capenv compare --explore``: reads of the seed state derived from the bundle itself.

No probe file is needed: from the bundle alone come

* every GET the capture recorded before its first write (``RecordedCall.initial``), as recorded, and
  every read-only POST the model answers from the state (a search sent as a body) with its recorded body;
* an item read of each entity the initial state holds (``items_per_collection`` per collection);
* a read of an id no collection holds, per item path (what the application answers for a missing one);
* each list line's learned queries read with other values: an equals filter with values other
  entities hold, a paging parameter with ``page_values``.

All are reads, sent before any write, to the fresh application and to a fresh model: both hold the
seed. A probe file may add its own calls (and lend its ``headers`` and ``minted`` values): they run
after the derived reads, in the same session.

A value the application draws anew at each start (a generated id the initial state holds,
``ToolIndex.initial_generated``) is sent to the live application as the live value of the same
entity, which the session pairs entity by entity from the answers to earlier reads
(``pairing``). A probe needing a value no read paired is **skipped**, saying why: it is never sent
to another entity, nor judged as a difference. The numbers are settings of
rules/compare-explore.yaml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, unquote_plus

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.rule_data import setting_value

from .probes import Probe, ProbeFile
from .call_records import CallResult
from .session import CompareSession
from .values import generated_format

SETTINGS = "compare-explore"
_PLACEHOLDER = "seed{}"


@dataclass(frozen=True)
class Derived:
    """A derived read: its path and query name each value drawn anew at the start by a placeholder,
    ``seeded`` the model's value under each."""

    probe: Probe
    seeded: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Skipped:
    probe: Probe
    reason: str


@dataclass
class Exploration:
    results: list[CallResult]
    skipped: list[Skipped]


def _setting(key: str) -> Any:
    return setting_value(SETTINGS, key)


def derive_probes(bundle: Bundle) -> list[Derived]:
    """The reads of the seed state the bundle suggests, recorded ones first (see the module)."""
    seeded_values = _initial_generated(bundle)
    derived: list[Derived] = []
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()

    def add(name: str, path: str, query: tuple[tuple[str, str], ...] = (), method: str = "GET",
            body: Any = None) -> None:
        suffix = bundle.manifest.format_suffix
        if suffix and bundle.manifest.route(method, path) is None \
                and bundle.manifest.route(method, path + suffix) is not None:
            path += suffix  # as a client sends it: with the format suffix capenv reads paths without (.json)
        key = (method, path, query, dumps(body))
        if key in seen or not path.startswith("/") or "?" in path or "#" in path:
            return
        seen.add(key)
        derived.append(_templated(name, path, query, seeded_values, method, body))

    # read-only POSTs the model answers from the state (a search sent as a body), not those it replays (a
    # login issuing a token: a credential made anew at each call, no read of the seed)
    read_only = {post.tool for post in bundle.view.read_only_posts} & _state_backed(bundle)
    recorded = sorted(((tool, call) for tool, calls in bundle.replay.tools.items() for call in calls
                       if call.initial and (call.method == "GET" or tool in read_only and call.request_is_json)),
                      key=lambda found: found[1].ordinal)
    for _, call in recorded:
        name = f"recorded before any write (#{call.ordinal})"
        if call.method == "GET":
            add(name, call.path, _decoded(call.query))
        else:  # a read-only POST (a search sent as a body) as recorded: it lists what a GET list would
            add(name, call.path, _decoded(call.query), call.method, call.request_body)
    types = {t.name: t for t in bundle.view.types}
    for collection in bundle.view.state.collections:
        entity_type = types.get(collection.type)
        if entity_type is None or not entity_type.item_template or not collection.entities:
            continue
        ids = [entity.id for entity in collection.entities]
        for ident in ids[:_setting("items_per_collection")]:
            path = _item_path(entity_type.item_template, collection.args, ident)
            if path is not None:
                add(f"item {collection.type} {ident}", path)
        path = _item_path(entity_type.item_template, collection.args, _never_held(ids))
        if path is not None:
            add(f"never-held {collection.type}", path)
    for name, path, query in _other_query_values(bundle):
        add(name, path, query)
    return derived[:_setting("max_probes")]


def explore(session: CompareSession, derived: list[Derived], probe_file: ProbeFile | None = None) -> Exploration:
    """Send the derived reads, then the probe file's own calls, in one session. A read needing a
    value the live application drew anew waits until every other read was sent (they pair values),
    then is sent or skipped."""
    headers = probe_file.headers if probe_file is not None else {}
    if probe_file is not None:
        session.use_minted(probe_file.minted)
    skipped: list[Skipped] = []
    waiting = [d for d in derived if d.seeded]
    for item in (d for d in derived if not d.seeded):
        session.call(item.probe, headers, detect_sets=True)
    for item in waiting:
        missing = [value for value in item.seeded.values() if value not in session.seeded]
        if missing:
            skipped.append(Skipped(item.probe, _why_unpaired(missing[0])))
            continue
        session.call(item.probe, headers, {"model": dict(item.seeded),
                                           "live": {name: session.seeded[v] for name, v in item.seeded.items()}},
                     detect_sets=True)
    if probe_file is not None:
        for probe in probe_file.probes:
            session.call(probe, headers)
    return Exploration(session.results, skipped)


def _why_unpaired(value: Any) -> str:
    return (f"{value!r} is a value the application draws anew at each start (held by the seed), and no read "
            "before paired it with one live entity alone (no list answer showed an entity agreeing with it on "
            "every member that is not generated, and no other): sent to no entity rather than to another")


def _templated(name: str, path: str, query: tuple[tuple[str, str], ...], seeded_values: frozenset[Any],
               method: str = "GET", body: Any = None) -> Derived:
    """The probe for a concrete read: literal braces escaped, each segment or query value the
    application draws anew a placeholder."""
    seeded: dict[str, Any] = {}

    def text(value: str) -> str:
        if value in seeded_values:
            for placeholder, held in seeded.items():
                if held == value:
                    return "{" + placeholder + "}"
            placeholder = _PLACEHOLDER.format(len(seeded) + 1)
            seeded[placeholder] = value
            return "{" + placeholder + "}"
        return value.replace("{", "{{").replace("}", "}}")

    segments = [text(unquote(segment)) if unquote(segment) in seeded_values else text(segment)
                for segment in path.split("/")]
    fields: dict[str, Any] = {"name": name, "method": method, "path": "/".join(segments),
                              "query": tuple((text(k), text(v)) for k, v in query)}
    if method != "GET":
        fields["body"] = _templated_json(body, text)
    return Derived(Probe(**fields), seeded)


def _templated_json(value: Any, text: Any) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {name: _templated_json(member, text) for name, member in value.items()}
    if isinstance(value, list):
        return [_templated_json(item, text) for item in value]
    return value


def _decoded(query: Any) -> tuple[tuple[str, str], ...]:
    """A recorded query (names and values as sent) form-decoded: the session encodes them again."""
    return tuple((unquote_plus(name), unquote_plus(value)) for name, value in query)


def _item_path(template: str, args: dict[str, str], ident: Any) -> str | None:
    """The item path of ``ident`` in a collection: the type's item template with the collection's own
    path arguments, the one parameter left the id; None when more than one is left (the item path
    names a parent the collection's path does not)."""
    path = template
    for name, value in args.items():  # as the collection's recorded path spells them
        path = path.replace("{" + name + "}", str(value))
    left = re.findall(r"\{[^{}]*\}", path)
    if len(left) != 1:
        return None
    return path.replace(left[0], quote(str(ident), safe=""))


def _never_held(ids: list[Any]) -> Any:
    if all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        return _setting("never_held_number")
    if all(generated_format(i) == "uuid" for i in ids):
        return _setting("never_held_uuid")
    return _setting("never_held_text")


def _other_query_values(bundle: Bundle) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """A list line's learned queries with other values: equals filters with values other entities of
    its type hold, paging parameters with ``page_values``."""
    found = []
    page_kinds = set(_setting("page_kinds"))
    for view in bundle.view.views:
        if view.kind != "list":
            continue
        held: dict[str, list[str]] = {}
        for collection in bundle.view.state.collections:
            if collection.type != view.type:
                continue
            for entity in collection.entities:
                for member, value in entity.value.items():
                    if isinstance(value, bool):
                        text = "true" if value else "false"
                    elif isinstance(value, (str, int)):
                        text = str(value)
                    else:
                        continue
                    if text not in held.setdefault(member, []):
                        held[member].append(text)
        for line in view.lines:
            for query in line.queries:
                others: list[str] = []
                if query.kind == "equals" and query.field in held:
                    others = sorted(held[query.field])[:_setting("other_values_per_query")]
                elif query.kind in page_kinds:
                    others = list(_setting("page_values"))
                for other in others:
                    pairs = tuple((k, other if k == query.param else v) for k, v in _decoded(line.query))
                    found.append((f"{view.tool} {query.param}={other}", line.path, pairs))
    return found


def _state_backed(bundle: Bundle) -> set[str]:
    return {read["tool"] for read in bundle.report.get("reads", []) if read.get("state_backed")}


def _initial_generated(bundle: Bundle) -> frozenset[Any]:
    from .tool_index import ToolIndex

    return ToolIndex(bundle).initial_drawn
