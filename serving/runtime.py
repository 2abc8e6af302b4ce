"""``EnvironmentRuntime``: a bundle served over MCP, the application's HTTP paths and the data
plane, all reading one state (DESIGN.md §7).

Every call goes the same way whichever surface it came from: arguments become a ``ReadCall``
(``catalog.read_inputs``), a read the state may answer is rendered from the current state
(``reads.from_state``), anything else replays (``replay``), and bad input is a refusal naming what
is accepted, never an exception. The transports call one method at a time on one thread; a
lock still serialises calls made directly from Python.
"""

from __future__ import annotations

import copy
import dataclasses

import gc
from typing import Any, Callable

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.jsonvalue import JsonError, dumps, from_client
from capenv.interpreter.bundle.models import Budgets, StateSnapshot
from capenv.interpreter.manifest.routes import RouteTable

from capenv.serving.runtime_api import (
    DEFAULT_MCP_PATH, DataPlaneRefusal, HttpAnswer, HttpRequest, Runtime, ToolAnswer, ToolSpec,
)

from capenv.serving.catalog.openapi import openapi_document
from capenv.serving.catalog.tools import Catalog, CatalogEntry, build_catalog, unavailable_reason
from capenv.serving.memory_release import LockThenRelease, release_later
from capenv.serving.reads.from_state import StateReads
from capenv.serving.reads.origins import at_origin, at_reached_origin
from capenv.serving.reads.accept_defaults import refuse_unrecorded_accept
from capenv.serving.reads.media_ranges import refuse_unacceptable
from capenv.serving.reads.replay import Replayer
from capenv.serving.reads.unrecorded import GuardedReplay
from capenv.serving.state.holder import StateHolder, open_holder
from capenv.serving.store import MemoryStore
from capenv.serving.writes.generator_state import WriteState

from .data_plane import StateDocumentReader, encode_state, state_document
from .http_surface import error, http_answer, route, sends_escaped_unreserved
from .read_call import CallRefused, ReadCall, Served, quoted

IDEMPOTENCY_HEADER = "Idempotency-Key"
"""The HTTP surface's idempotency key: a write's record id, as MCP's ``_meta.idempotencyKey``."""
ROUTES_KEPT = 4096
"""How many (method, path) routings a runtime keeps (``EnvironmentRuntime._route``), cleared whole
when full. Not a budget: the size of a memo of a pure function; no answer depends on it, only how
often a path is routed again."""

# Where MCP goes when the application itself answers /mcp: the first of these it does not use.
# (Paths under /_capenv/ are the data plane's and the HTTP transport refuses them for MCP.)
MCP_PATH_CHOICES = (DEFAULT_MCP_PATH, "/_mcp", "/capenv-mcp", "/_capenv-mcp")


class EnvironmentRuntime(Runtime):
    def __init__(self, bundle: Bundle, *, replay_only: bool = False, store: Any = None) -> None:
        """``store``: a ``capenv.serving.store`` Store (or a store URL) to keep the state in;
        None keeps it in this process."""
        self.bundle = bundle
        self.replay_only = replay_only
        self._lock = LockThenRelease(self._take_replaced)  # what a call replaced is freed after it
        self._replayer = Replayer(bundle.replay, bundle.view.budgets.values_quoted)
        self._state_reads = StateReads(bundle.view, bundle.replay, self._replayer)
        self._guarded = not replay_only and bundle.view.state_available
        self._replay = GuardedReplay(bundle, self._replayer, guarded=self._guarded)
        self.catalog: Catalog = build_catalog(bundle, self._replayer, replay_only=replay_only)
        self._routes = RouteTable(bundle.manifest)
        self._escapes_recorded = sends_escaped_unreserved(
            call.path for calls in bundle.replay.tools.values() for call in calls)
        self._routed: dict[tuple[str, str], HttpAnswer | tuple[CatalogEntry, tuple[tuple[str, str], ...], str]] = {}
        """(method, path as sent) -> what ``_route`` made of it (a memo: see ``ROUTES_KEPT``)."""
        view = bundle.view
        self._types = view.types
        self._reader = StateDocumentReader(view.types, view.evidence_id, view.budgets)
        self._initial = view.state
        self._writes = WriteState(bundle)
        self._holder: StateHolder = self._open_holder(store)
        self._holder.load(self._initial)
        self._mcp_path = self._choose_mcp_path()
        self._openapi: bytes | None = None
        self._handlers: dict[str, Callable[[CatalogEntry, ReadCall, str | None], Served]] = {
            "read": self._read, "write": self._write}

    # --- the catalog --------------------------------------------------------------------

    def tools(self) -> list[ToolSpec]:
        return self.catalog.specs()

    def catalog_report(self) -> dict[str, Any]:
        """Tool count, sources, and every description the discovery budget sampled down or cut."""
        return self.catalog.report

    @property
    def state_available(self) -> bool:
        return self.bundle.view.state_available

    # --- MCP ------------------------------------------------------------------------------

    def call_tool(self, name: str, arguments: dict[str, Any], *, idempotency_key: str | None = None) -> ToolAnswer:
        answer = self._call_tool(name, arguments, idempotency_key, on_loop=False)
        assert answer is not None
        return answer

    def call_tool_on_loop(self, name: str, arguments: dict[str, Any], *,
                          idempotency_key: str | None = None) -> ToolAnswer | None:
        """``call_tool`` for a transport's event loop, as ``http_on_loop`` is ``http``'s: a read
        tool's answer when the state held is the store's now, a refusal of the call itself; None
        for anything else (the transport then calls ``call_tool`` on the runtime's thread)."""
        if not self._store_reads_never_wait:
            return None
        return self._call_tool(name, arguments, idempotency_key, on_loop=True)

    def _call_tool(self, name: str, arguments: dict[str, Any], idempotency_key: str | None, *,
                   on_loop: bool) -> ToolAnswer | None:
        entry = self.catalog.get(name)
        if entry is None:
            named = quoted(self.catalog.entries, self.bundle.view.budgets.tools_named)
            return ToolAnswer.refusal(f"no tool {name!r}; tools: {named}")
        if on_loop and entry.handler != "read":
            return None
        try:
            try:
                arguments = from_client(arguments)  # floats and big integers in the codec's exact form
            except JsonError as error:
                raise CallRefused(f"the arguments hold {error}; send finite JSON numbers") from None
            call = entry.inputs.parse(arguments)
            with self._lock:
                served = self._serve_on_loop(entry, call, idempotency_key) if on_loop else \
                    self._serve(entry, call, idempotency_key)
                if served is None:
                    return None
        except CallRefused as refused:
            return ToolAnswer.refusal(refused.message, tool=name, **refused.details)
        return ToolAnswer(structured=structured(served))

    def read(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Python convenience: the structured result of a tool call (a refusal's too)."""
        return self.call_tool(name, arguments or {}).structured

    # --- HTTP -----------------------------------------------------------------------------

    def http(self, request: HttpRequest) -> HttpAnswer:
        answer = self._http(request, on_loop=False)
        assert answer is not None
        return answer

    def http_on_loop(self, request: HttpRequest) -> HttpAnswer | None:
        """``http`` for a transport's event loop, where nothing may wait on the store, on a store
        whose reads never wait (``Store.reads_never_wait``: SQLite) but whose calls may
        (``nonblocking_calls`` is False): the answer of a read when the state held is the store's
        now (``caught_up``: one head read, under the lock, the read then answering that copy as it
        is), and of a request refused before any state is read. None for anything else (a write,
        a read whose state must catch up first, a store that cannot promise it): the transport
        then hands the request to ``http`` on the runtime's thread, which answers it as before.
        The hop to that thread and back costs a call more than an item read does."""
        if not self._store_reads_never_wait:
            return None
        return self._http(request, on_loop=True)

    def _http(self, request: HttpRequest, *, on_loop: bool) -> HttpAnswer | None:
        routed = self._routed.get((request.method, request.path))
        if routed is None:
            routed = self._route(request)
        if isinstance(routed, HttpAnswer):
            return routed
        entry, arguments, path = routed
        args = dict(arguments)  # the call's own, never the memo's
        if path != request.path:
            request = dataclasses.replace(request, path=path)
        if on_loop and entry.handler != "read":
            return None
        key = request.header(IDEMPOTENCY_HEADER)
        if key is not None and not key.strip():
            return error(400, "refused", f"the {IDEMPOTENCY_HEADER} header must not be blank", tool=entry.name)
        try:
            call = entry.inputs.from_http(request, args)
            with self._lock:
                served = self._serve_on_loop(entry, call, key) if on_loop else self._serve(entry, call, key)
                if served is None:
                    return None
        except CallRefused as refused:
            kind = {404: "not_found", 409: "conflict"}.get(refused.http_status, "refused")
            return error(refused.http_status, kind, refused.message, tool=entry.name)
        if entry.handler == "read":  # its links name the origin the call reached (reads/origins.py)
            served = at_reached_origin(served, call, self.bundle.view.primary_origin)
        else:  # a write's too: its entity's url, an absence quoting the address asked for
            served = at_origin(served, request.origin, self.bundle.view.primary_origin)
        return http_answer(served.answer)

    def _route(self, request: HttpRequest) -> HttpAnswer | tuple[CatalogEntry, tuple[tuple[str, str], ...], str]:
        """The catalog entry a request's method and path reach, its path arguments and the path as
        capenv reads it, or the answer refusing it: the same for every request of that method and
        path (the manifest, the catalog and the recorded paths never change while serving), so kept
        (``ROUTES_KEPT``); a client re-reading or writing one entity routes its path once."""
        folded = self.bundle.manifest.fold_path(request.path)  # a value spanning segments, as the capture's were
        found = route(self._routes, self.catalog, request if folded == request.path else
                      dataclasses.replace(request, path=folded), self._escapes_recorded)
        routed = found if isinstance(found, HttpAnswer) else (found[0], tuple(found[1].items()), found[2].path)
        if len(self._routed) >= ROUTES_KEPT:
            self._routed.clear()
        self._routed[(request.method, request.path)] = routed
        return routed

    def tool_for(self, method: str, path: str) -> str | None:
        found = self._routes.tool_for("GET" if method == "HEAD" else method, path)
        return found[0].name if found is not None else None

    def openapi(self) -> bytes:
        """The OpenAPI 3.1 description of what this runtime serves (``catalog/openapi``)."""
        if self._openapi is None:
            self._openapi = dumps(openapi_document(self.bundle, self.catalog), indent=True)
        return self._openapi

    def budgets(self) -> Budgets:
        return self.bundle.view.budgets

    def reserved_mcp_path(self) -> str:
        return self._mcp_path

    def nonblocking_calls(self) -> bool:
        """The state kept in a memory store: every call only computes (no I/O, no other process)."""
        return isinstance(getattr(self._holder, "store", None), MemoryStore)

    @property
    def _store_reads_never_wait(self) -> bool:
        return bool(getattr(getattr(self._holder, "store", None), "reads_never_wait", False))

    # --- the data plane -------------------------------------------------------------------

    def data_get(self) -> bytes:
        with self._lock:
            if not self.state_available:
                return self._unavailable_document()
            return self._holder.encoded()

    def data_reset(self) -> None:
        with self._lock:
            if self.state_available:
                self._holder.reset(self._initial)

    def prepare_reset(self) -> Callable[[], None]:
        """data/reset in the steps of ``prepare_add``: the initial state built without the lock,
        committed aside on a store other processes share, taken up (or committed) under it."""
        if not self.state_available:
            return lambda: None
        return self._in_steps(self._holder.prepare_reset(self._initial))

    def data_add(self, document: bytes) -> None:
        install = self.prepare_add(document)
        install()
        release_later(install.held)  # the state it replaced: freed on the releasing thread

    def prepare_add(self, document: bytes) -> Callable[[], None]:
        """Parse, check and build the new state without the lock (it reads nothing the runtime
        holds); the install it returns swaps it in under the lock, in one commit. Its ``aside``
        commits it beforehand, off the lock, on a store other processes share (``state/landing.py``)."""
        if not self.state_available:
            raise DataPlaneRefusal(f"{unavailable_reason(self.bundle)}: this environment serves every read by "
                                   "replay, so data/add has nothing to install into")
        # The next data/reset's state is made before the document's (``StoreStateHolder.reset_ahead``).
        self._holder.reset_ahead(self._initial)
        snapshot, encoded = self._reader.read(document)  # refuses before anything changes
        return self._in_steps(self._holder.prepare_replace(snapshot, encoded, adopt=True))

    def _in_steps(self, prepared: Any) -> Callable[[], None]:
        """The install of ``prepared`` under the lock, with its ``aside`` (the commit beforehand,
        where the store allows it) and its ``release``: the install keeps the state it replaced
        on ``prepared`` rather than free it under the lock (CPython frees a container where its
        last reference goes, ~90k objects for a large state); ``release`` lets go of it, on the
        caller's thread of choice, after the install (or when the function is dropped)."""
        held = [prepared]

        def install() -> None:
            with self._lock:
                self._holder.install_prepared(held[0])

        def aside() -> None:
            self._holder.commit_aside(held[0])
        install.aside = aside  # type: ignore[attr-defined]
        install.release = held.clear  # type: ignore[attr-defined]
        install.held = held  # type: ignore[attr-defined]
        return install

    def close(self) -> None:
        self._holder.close()

    # --- instances (serving/instances) --------------------------------------------------------

    def state_parts(self) -> tuple[Bundle, WriteState, Callable[[StateSnapshot], bytes]]:
        """What a holder of this bundle's state is opened with: the bundle, the writes' shared
        part and the data/get encoder."""
        return self.bundle, self._writes, self._encode_state

    def sibling(self, open_state: Callable[[Bundle, WriteState, Callable[[StateSnapshot], bytes]], StateHolder]
                ) -> EnvironmentRuntime:
        """Another environment of the same bundle: the catalog, replay, views and plans shared
        (nothing of them changes while serving), its own state, held by what
        ``open_state(bundle, writes, encode)`` opens and loads, and its own lock."""
        twin = copy.copy(self)
        twin._lock = LockThenRelease(twin._take_replaced)
        twin._holder = open_state(*self.state_parts())
        twin._handlers = {"read": twin._read, "write": twin._write}
        return twin

    # --- answering ------------------------------------------------------------------------

    def _serve_on_loop(self, entry: CatalogEntry, call: ReadCall, idempotency_key: str | None) -> Served | None:
        """``_serve`` of a read on a transport's event loop, under the lock: only when the head
        check finds the copy held current, answering that copy as it is; else None."""
        if not self._holder.caught_up():
            return None
        with self._holder.as_held():
            return self._serve(entry, call, idempotency_key)

    def _serve(self, entry: CatalogEntry, call: ReadCall, idempotency_key: str | None = None) -> Served:
        """Dispatch on the entry's handler (a write takes the idempotency key as its record id)."""
        handler = self._handlers.get(entry.handler)
        if handler is None:
            raise CallRefused(f"{entry.name} is not served (no {entry.handler!r} handler)", http_status=501)
        return handler(entry, call, idempotency_key)

    def _read(self, entry: CatalogEntry, call: ReadCall, idempotency_key: str | None = None) -> Served:
        live = self.bundle.replay.live_reports.get(entry.tool.name)
        if live is not None:
            raise CallRefused(f"{entry.tool.method} {entry.tool.spelled(call.path)} is not answered: {live}, "
                              f"so a recorded answer would give an old one", http_status=409)
        if self._replayer.variant_of(call) is None:
            refuse_unacceptable(call, self._replayer.media_types(entry.tool.name))
        refuse_unrecorded_accept(call, self.bundle.replay.required_accept.get(entry.tool.name, ()))
        state = self._holder.working() if self._guarded else None
        if entry.from_state and entry.view is not None and not self._replayer.other_accept(call):
            served = self._state_reads.answer(entry.view, call, state if state is not None else self._holder.working())
            if served is not None:
                return served
        return self._replay.answer(call, state)

    def _write(self, entry: CatalogEntry, call: ReadCall, idempotency_key: str | None = None) -> Served:
        if call.has_body and call.body is None and entry.tool.method != "DELETE":
            raise CallRefused(f"the body must be a JSON object; {entry.inputs.accepted()}")
        return self._holder.write(entry.plan, entry.name, call, idempotency_key)

    def _take_replaced(self) -> list[Any]:
        """What the holder kept of the states a call replaced, to free after the lock."""
        holder = getattr(self, "_holder", None)
        take = getattr(holder, "take_replaced", None)
        return take() if take is not None else []

    def _open_holder(self, store: Any) -> StateHolder:
        return open_holder(store, self.bundle, self._writes, self._encode_state)

    def _encode_state(self, snapshot: StateSnapshot) -> bytes:
        return encode_state(snapshot, self._types)

    def _unavailable_document(self) -> bytes:
        """What data/get says when there is no state to serve: empty, flagged, with the budget hits."""
        document = state_document(StateSnapshot(evidence_id=self.bundle.view.evidence_id), self._types)
        hits = [h.model_dump(mode="python") for h in self.bundle.view.budget_hits]
        return dumps({**document, "state_available": False, "budget_hits": hits})

    def _choose_mcp_path(self) -> str:
        """``/mcp`` unless a tool of the application (any method) answers that path."""
        for candidate in MCP_PATH_CHOICES:
            if not any(tool.match(candidate) is not None for tool in self.bundle.manifest.tools):
                return candidate
        return MCP_PATH_CHOICES[-1]


def structured(served: Served) -> dict[str, Any]:
    answer = served.answer
    body = answer.body if answer.is_json else answer.text
    return {"status": answer.status, "content_type": answer.content_type, "body": body, **served.provenance}


def settle_for_serving() -> None:
    """For a serving process, once its runtime is built: the bundle and the runtime live until the
    process ends, so they are moved out of the cyclic collector's reach; its full collections
    would otherwise walk them again every few thousand writes (~10 µs a served create)."""
    gc.collect()
    gc.freeze()
