"""Replay a store's history on the initial state and check every recorded outcome (DESIGN.md §8).

``verify_history(bundle, store)`` reads the environment's history and its current state in one
snapshot (one transaction, so a server writing meanwhile cannot tear them apart), then replays
the changes in order through the same executor serving used (``WriteState.decide``): a reset
installs the bundle's initial state, an add the document it recorded, a write is decided
again on the state replayed so far. Every write must give the recorded result (status, content
type, headers, body, provenance), change the recorded fields and leave the recorded clock and
counter; at the end the replayed state and meta must be what the store holds. The first
entry that differs is named with what differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.data_plane import StateDocumentReader, encode_state
from capenv.serving.read_call import CallRefused, ReadCall
from capenv.serving.runtime_api import DataPlaneRefusal
from capenv.serving.store import Store
from capenv.serving.writes.generator_state import WriteMeta, WriteState

from .index import StateIndex
from .mirror import StateMirror, StoreLayoutError
from .records import ADD, RESET, WRITE, answer_record, plan_id, write_entry
from .subjects import Subjects, carries_record

SHOWN_CHARACTERS = 160


@dataclass(frozen=True)
class Difference:
    position: int
    record_id: str
    what: str
    """``post_posts /posts``, ``data/add``, or ``the final state``."""
    detail: str

    def describe(self) -> str:
        return f"position {self.position} (record {self.record_id!r}, {self.what}): {self.detail}"


@dataclass(frozen=True)
class Verification:
    changes: int
    writes: int
    difference: Difference | None

    @property
    def agrees(self) -> bool:
        return self.difference is None

    def to_json(self) -> dict[str, Any]:
        first = self.difference
        return {"agrees": self.agrees, "changes": self.changes, "writes": self.writes,
                "first_difference": None if first is None else {
                    "position": first.position, "record_id": first.record_id, "what": first.what,
                    "detail": first.detail}}


class NoHistory(LookupError):
    """The store holds no history for this environment."""


class HistoryForgotten(NoHistory):
    """The store forgot the start of the episode (a bound on the commits it keeps)."""


def verify_history(bundle: Bundle, store: Store) -> Verification:
    subjects = Subjects(bundle.view.evidence_id)
    snapshot = store.snapshot([subjects.write, subjects.log, *subjects.state_types()])
    # Each change's record: its ``write`` subject, or the log entry that carries it (a write sent
    # without an idempotency key, ``subjects.log_record``); a log entry naming a record it does
    # not carry adds nothing.
    by_position = {stored.state["position"]: (stored.state["record_id"], stored.state)
                   for stored in snapshot.pop(subjects.log, {}).values() if carries_record(stored.state)}
    by_position.update((stored.state["position"], (record_id, stored.state))
                       for record_id, stored in snapshot.get(subjects.write, {}).items())
    records = sorted(((position, record_id, record) for position, (record_id, record) in by_position.items()),
                     key=lambda item: item[0])
    if not records:
        raise NoHistory(f"the store holds no history for environment {bundle.view.evidence_id} "
                        "(was it served from this bundle's capture?)")
    for (before, _, _), (position, record_id, record) in zip([(0, "", {"kind": None}), *records], records):
        if record["kind"] == WRITE and position != before + 1:
            raise HistoryForgotten(
                f"the history of environment {bundle.view.evidence_id} starts at a write (position {position}, record "
                f"{record_id!r}) whose preceding changes this store no longer holds (it keeps the last commits only: "
                f"budget {store.records_budget}); there is no install to replay it from")
    replay = _Replay(bundle)
    writes = 0
    for position, record_id, record in records:
        kind = record["kind"]
        if kind == WRITE:
            writes += 1
            request = write_entry(record)["request"]
            what = f"{request['tool']} {request['path']}"
            detail = replay.write(record)
        else:
            what = f"data/{kind}"
            detail = replay.install(record)
        if detail is not None:
            return Verification(len(records), writes, Difference(position, record_id, what, detail))
    last_position, last_record, _ = records[-1]
    detail = replay.final(snapshot, subjects)
    difference = None if detail is None else Difference(last_position, last_record, "the final state", detail)
    return Verification(len(records), writes, difference)


class _Replay:
    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.writes = WriteState(bundle)
        self.tools = {tool.name: tool for tool in bundle.manifest.tools}
        view = bundle.view
        self.reader = StateDocumentReader(view.types, view.evidence_id, view.budgets)
        self.index: StateIndex | None = None
        self.meta: WriteMeta | None = None

    def install(self, record: dict[str, Any]) -> str | None:
        if record["kind"] == RESET:
            self.index = StateIndex.from_snapshot(self.bundle.view.state)
        elif record["kind"] == ADD:
            try:
                snapshot, _ = self.reader.read(record["document"].encode("utf-8"))
            except DataPlaneRefusal as refusal:
                return f"the recorded document does not load: {refusal.message}"
            self.index = StateIndex.from_snapshot(snapshot, adopt=True)
        else:
            return f"unknown kind of change {record['kind']!r}"
        self.meta = self.writes.fresh(self.index)
        return None

    def write(self, record: dict[str, Any]) -> str | None:
        if self.index is None or self.meta is None:
            return "a write before any state was installed"
        entry = write_entry(record)
        request = entry["request"]
        plan = self.writes.plans_by_tool.get(request["tool"])
        served_plan = plan_id(request["tool"], self.bundle.info.rules_revision)
        if plan is None or record["plan"] != served_plan:
            return (f"recorded under plan {record['plan']}; this bundle serves "
                    f"{served_plan if plan is not None else 'no plan for ' + request['tool']}")
        tool = self.tools.get(request["tool"])
        if tool is None:
            return f"this bundle has no tool {request['tool']}"
        call = ReadCall(tool, request["path"], {}, tuple(tuple(pair) for pair in request["query"]), request["body"],
                        has_body=request["body"] is not None)
        try:
            # Size 0: only writes serving accepted are recorded, and the size limit can only refuse.
            decision = self.writes.decide(plan, call, self.index, self.meta, 0)
        except CallRefused as refused:
            return f"the replay refused it: {refused.message}"
        if decision.result is None:
            return "the replay found the entity absent and changed nothing"
        self.meta = decision.meta
        recorded = entry["result"]
        replayed = answer_record(decision.served)
        for member in ("status", "content_type", "headers", "body", "is_json", "text", "provenance"):
            found = first_difference(recorded[member], replayed[member], member)
            if found is not None:
                return found
        return (first_difference(entry["changed"], list(decision.result.changed), "changed fields")
                or first_difference(entry["clock"], decision.meta.clock.isoformat(), "clock")
                or first_difference(entry["counter"], decision.meta.counter, "write counter"))

    def final(self, snapshot: dict[str, Any], subjects: Subjects) -> str | None:
        if self.index is None or self.meta is None:
            return "no state was ever installed"
        try:
            held = StateMirror.from_snapshot(subjects, snapshot)
        except StoreLayoutError as exc:
            return f"the stored state does not load: {exc}"
        types = self.bundle.view.types
        stored_document = encode_state(held.index.snapshot(citations=True), types)
        replayed_document = encode_state(self.index.snapshot(citations=True), types)
        if stored_document != replayed_document:
            from capenv.interpreter.bundle.jsonvalue import loads

            return "the stored state differs from the replayed one: " + (
                first_difference(loads(stored_document), loads(replayed_document), "state") or "in its bytes")
        return first_difference(held.meta.to_json(), self.meta.to_json(), "meta")


def first_difference(recorded: Any, replayed: Any, where: str) -> str | None:
    """Where two JSON values first differ (``body.tags[1]``), with both values, or None."""
    if dumps(recorded) == dumps(replayed):
        return None
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for name in [*recorded, *(n for n in replayed if n not in recorded)]:
            if name not in recorded or name not in replayed:
                side = "replayed" if name in replayed else "recorded"
                return f"{where}.{name} is only in the {side} value"
            found = first_difference(recorded[name], replayed[name], f"{where}.{name}")
            if found is not None:
                return found
        return f"{where}: members in another order"
    if isinstance(recorded, list) and isinstance(replayed, list):
        for position, (a, b) in enumerate(zip(recorded, replayed)):
            found = first_difference(a, b, f"{where}[{position}]")
            if found is not None:
                return found
        return f"{where}: {len(recorded)} items recorded, {len(replayed)} replayed"
    return f"{where}: recorded {_shown(recorded)}, replayed {_shown(replayed)}"


def _shown(value: Any) -> str:
    text = dumps(value).decode("utf-8")
    return excerpt(text, SHOWN_CHARACTERS)
