"""What the bundle says about a call: its tool, whether the model serves that tool, whether
the call writes, and which paths a write changes (its *scope*).

"Served" is the bundle report's word: a read tool answered from the state
(``reads[].state_backed``) or a write tool whose plan is served (``writes[].served``).
Anything else answers by replay or not at all, and may disagree with the live application.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.manifest.models import Tool

from .values import drawn_format, generated_format

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class CallTool:
    name: str | None
    served: bool
    writes: bool


class ToolIndex:
    def __init__(self, bundle: Bundle) -> None:
        self._manifest = bundle.manifest
        report = bundle.report
        self._served = {r["tool"] for r in report.get("reads", []) if r.get("state_backed")}
        self._served |= {w["tool"] for w in report.get("writes", []) if w.get("served")}
        self._read_only_posts = {p["tool"] for p in report.get("read_only_posts", [])}
        self._collections = {t.collection_template for t in bundle.view.types}
        self._items = {t.item_template for t in bundle.view.types if t.item_template}
        self._collection_segments = [segments(t) for t in self._collections]
        # the paths GET tools answer: a write under one that no type owns changes what it reads
        self._read_segments = [segments(t.template) for t in bundle.manifest.tools if t.method == "GET"]
        # a create read back under another collection than its path (a linked create) writes there
        self._creates_in = {w.tool: w.collection for w in bundle.view.writes if w.collection}
        # shallow nesting (EntityType.shallow_items): the parents' lists and the item path show one entity
        self._shallow = [(segments(t.collection_template), segments(t.item_template or ""))
                         for t in bundle.view.types if t.shallow_items and t.item_template]
        # members the build saw change with no write (view-volatile-members), per state-backed read
        self._volatile = {v.tool: frozenset(v.volatile_fields) for v in bundle.view.views
                          if v.state_backed and v.volatile_fields}
        # generated-looking values the state held before the capture's first call (made at the
        # application's start or by its seed, drawn anew at every start)
        self.initial_generated = frozenset(
            value for value in _scalars_of([*(e.value for c in bundle.view.state.collections for e in c.entities),
                                            *(d.value for d in bundle.view.state.documents)])
            if generated_format(value) is not None)
        # those and the texts holding one (``values.drawn_format``), in the state or in an answer recorded
        # before the capture's first write (a replayed read's too) but for one a call sent before any
        # answer showed it (the client chose it: a never-held id): what reads before any write pair
        self.initial_drawn = frozenset(
            value for value in _answered_first(bundle, _scalars_of(
                [*(e.value for c in bundle.view.state.collections for e in c.entities),
                 *(d.value for d in bundle.view.state.documents)]))
            if drawn_format(value) is not None)

    def tool(self, method: str, path: str) -> CallTool:
        found = self._manifest.route("GET" if method == "HEAD" else method, path)
        if found is None:
            return CallTool(None, False, method not in READ_METHODS)
        tool = found[0]
        writes = tool.changes_state and tool.name not in self._read_only_posts
        return CallTool(tool.name, tool.name in self._served, writes)

    def write_target(self, method: str, path: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
        """The values of a write's last path parameter (the entity it addresses; of a parameter of many
        segments, ``{path...}``, its last one too), those of the parameters before it (the entities it
        sits under), and whether it creates in a collection (a POST to a type's collection: it reaches
        that collection by the entity it adds)."""
        found = self._manifest.route(method, path)
        if found is None:
            parts = segments(path)
            named = [p for p, t in zip(parts, _guessed_template(parts, method)) if _is_param(t)]
            creates = method == "POST"
        else:
            tool, parameters, _ = found
            named = [v for v in parameters.values() if isinstance(v, str) and v]
            creates = method == "POST" and tool.template in self._collections
        if not named:
            return (), (), creates
        last = named[-1]
        return tuple(dict.fromkeys([last, last.rstrip("/").rsplit("/", 1)[-1]])), tuple(named[:-1]), creates

    def volatile_members(self, tool: str | None) -> frozenset[str]:
        """The members a read tool's entities change with no write, as the build found them
        (``view-volatile-members``): the model answers their last recorded value."""
        return self._volatile.get(tool or "", frozenset())

    def read_as(self, method: str, path: str) -> str:
        """The path as capenv reads it: without the format suffix the application spells paths
        with, when a tool answers it so spelled."""
        found = self._manifest.route("GET" if method == "HEAD" else method, path)
        return found[2] if found else path

    def write_scopes(self, method: str, path: str) -> list[tuple[str, ...]]:
        """The path prefixes a write may change: reads under them can no longer be expected
        to agree once the model did not make that write as the application did.

        A create changes the collection it creates in, an item write the collection that
        lists the item. Any other write (an action, a document, an entity addressed by its
        name, a nested create) changes its own path (its item's, when it ends in a parameter)
        and the collection of the type it sits under, where the same entity is read by id.
        With no type's collection above it, the deepest path above it that a GET tool reads stands
        for that collection (POST /token/init beside GET /token/, POST /defaultrealm/{name}
        beside GET /defaultrealm). A write whose plan creates in another collection than its path
        (POST /silences read back at /silence/{id}) changes that collection too.
        """
        found = self._manifest.route(method, path)
        tool = found[0] if found else None
        parts = segments(found[2] if found else path)
        scopes = self._own_scopes(tool, parts, method)
        created_in = self._creates_in.get(tool.name) if tool is not None else None
        if created_in is not None and segments(created_in) not in scopes:
            scopes.append(segments(created_in))
        for scope in self._shallow_scopes(tool, parts):
            if scope not in scopes:
                scopes.append(scope)
        return scopes

    def _shallow_scopes(self, tool: Tool | None, parts: tuple[str, ...]) -> list[tuple[str, ...]]:
        """A write at a shallow type's collection changes what its item path reads, and one at its
        item path what every parent's list shows (a parameter in a scope matches any segment)."""
        if tool is None:
            return []
        template = segments(tool.template)
        found = []
        for collection, item in self._shallow:
            if _is_prefix(collection, template) or collection == template:
                # the literal segments before the word are the same in both paths
                found.append((*parts[:len(item) - 2], *item[len(item) - 2:-1]))
            elif _is_prefix(item[:-1], template):
                found.append((*parts[:len(item) - 2], *collection[len(item) - 2:]))
        return found

    def _own_scopes(self, tool: Tool | None, parts: tuple[str, ...], method: str) -> list[tuple[str, ...]]:
        if tool is not None and tool.template in self._collections:
            return [parts]
        if tool is not None and tool.template in self._items:
            return [parts[:-1]]
        template = segments(tool.template) if tool is not None else _guessed_template(parts, method)
        scopes = [parts[:-1] if template and _is_param(template[-1]) else parts]
        owner = max((len(c) for c in self._collection_segments if _is_prefix(c, template)), default=None)
        if owner is None:
            # no type's collection holds it (a verb before a name, /token/init, /defaultrealm/{name}): the
            # deepest path above it that a GET tool reads shows what it changed
            owner = max((len(r) for r in self._read_segments if r and _is_prefix(r, template)), default=None)
        if owner is not None and parts[:owner] not in scopes:
            scopes.append(parts[:owner])
        # an action under an item path changes that item, wherever its collection is listed (/note/2/archive
        # beside /notes)
        item = max((len(segments(i)) for i in self._items if _is_prefix(segments(i), template)), default=None)
        if item is not None and not any(_is_prefix(scope, parts[:item]) or scope == parts[:item] for scope in scopes):
            scopes.append(parts[:item])
        return scopes


def within(path: str, scope: tuple[str, ...]) -> bool:
    """Whether ``path`` lies at or under ``scope`` (segment by segment; a parameter of the scope
    matches any segment)."""
    parts = segments(path)
    return len(parts) >= len(scope) and all(s == p or _is_param(s) for s, p in zip(scope, parts))


def segments(path: str) -> tuple[str, ...]:
    parts = split_path(path)
    while parts and parts[-1] == "":  # /api/flows/ and /api/flows name one collection
        parts = parts[:-1]
    return tuple(parts)


def _is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def _is_prefix(collection: tuple[str, ...], template: tuple[str, ...]) -> bool:
    """``/api/variables`` is a prefix of ``/api/variables/name/{name}``; parameters match
    parameters whatever their names."""
    return len(collection) < len(template) and all(
        a == b or (_is_param(a) and _is_param(b)) for a, b in zip(collection, template))


def _guessed_template(parts: tuple[str, ...], method: str) -> tuple[str, ...]:
    """No tool in the manifest: guess the usual shape, an item write ends in its id."""
    if method in ("PUT", "PATCH", "DELETE") and parts:
        return (*parts[:-1], "{id}")
    return parts


def _answered_first(bundle: Bundle, held: set[str]) -> set[str]:
    """``held`` and the strings of the answers recorded before the capture's first write but those a
    call sent before any of those answers showed them."""
    answered: set[str] = set()
    sent_first: set[str] = set()
    initial = sorted((call for calls in bundle.replay.tools.values() for call in calls if call.initial),
                     key=lambda call: call.ordinal)
    for call in initial:
        sent = {unquote(part) for part in call.path.split("/")} | {value for _, value in call.query}
        sent |= _scalars_of(call.request_body)
        sent_first |= sent - answered
        if call.response.is_json:
            answered |= _scalars_of(call.response.body)
    return held | (answered - sent_first)


def _scalars_of(value: object) -> set[str]:
    """The strings inside a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found
