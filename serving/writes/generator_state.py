"""What served writes share: the clock, the write counter and the sequences (write-effects
"Clock and generators"), and the one place a write call becomes ``execute``.

The clock starts at the bundle's ``write_clock`` and advances one second before each served
write; data/reset and data/add restart the clock, the counter and the sequences.

``WriteMeta`` is that shared part as a value: the state holder keeps it in the store beside
the state (so every process serving one store continues the same clock and sequences) and
commits a write's new meta in the write's own commit. ``WriteState.decide`` never changes
the meta it is given: it answers a new one, so a write that loses a race leaves nothing to
undo in the meta.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.frozen_values import direct_init
from capenv.serving.ops.context import OpRefusal
from capenv.serving.ops.sequence_state import SequenceState, sequence_fields
from capenv.serving.read_call import CallRefused, ReadCall, Served
from capenv.serving.reads.answers import Answer, from_recording
from capenv.serving.reads.initial_sightings import InitialSightings
from capenv.serving.state.index import KnownSpellings, StateIndex, known_at_install

from .calls import WriteCall, WriteEnv, WriteRefusal, WriteResult, latest_absent_calls, success_absences
from .dispatch import variant_for
from .execute import execute
from .view_absence import view_absence_answers_writes

CLOCK_STEP = timedelta(seconds=1)


@direct_init
@dataclass(frozen=True)
class WriteMeta:
    """The clock as of the last served write, the count of served writes, the sequences, the
    state's evidence id (it seeds generated UUIDs and tokens; data/add may install a state
    of another evidence id), and the collection spellings the last reset or load knew (every
    process serving the store chooses among spellings alike)."""

    clock: datetime
    counter: int
    sequences: SequenceState
    evidence_id: str
    known: KnownSpellings | None = None

    @property
    def clock_text(self) -> str:
        """The clock as meta and the write's history record spell it (spelled once per write, and
        kept in the instance's dict by hand: ``functools.cached_property`` takes a lock per value)."""
        held = self.__dict__.get("_clock_text")
        if held is None:
            held = self.__dict__["_clock_text"] = self.clock.isoformat()
        return held

    def to_json(self) -> dict[str, Any]:
        """All of it, the spellings included (what a replay compares)."""
        return {**self.commit_json(), **({"known": self.known.to_json()} if self.known else {})}

    def commit_json(self) -> dict[str, Any]:
        """What the meta subject holds: all but the spellings, which only a reset or a load
        changes and which the store keeps as their own subject (``state.subjects.KNOWN_ID``),
        so a write does not rewrite them."""
        # A type-wide sequence scope has no collection: left out rather than written as null,
        # which would make the store walk the whole meta for non-finite floats on every commit.
        # The rows are ``SequenceState.to_json``'s, built here without the nulls in one step.
        sequences = {"started": _started_rows(self.sequences),
                     "generated": _sequence_rows(self.sequences.generated)}
        return {"clock": self.clock_text, "counter": self.counter, "sequences": sequences,
                "evidence_id": self.evidence_id}

    @classmethod
    def from_json(cls, data: dict[str, Any], known: KnownSpellings | None = None) -> WriteMeta:
        """``known``: the spellings kept beside meta; a meta written before they moved out holds its own."""
        if "known" in data:
            known = KnownSpellings.from_json(data["known"])
        return cls(datetime.fromisoformat(data["clock"]), int(data["counter"]),
                   SequenceState.from_json(data["sequences"]), data["evidence_id"], known)


def _started_rows(sequences: SequenceState) -> list[dict[str, Any]]:
    """Meta's rows of the ``started`` table: every write since a reset shares the table
    (``SequenceState.continuing``), so its rows are built once per reset, not per write, and kept
    with it (not in a module-wide slot: there they outlived their state, and rows a data/add
    made among its large state pinned allocator arenas after a data/reset freed it, issue 11)."""
    rows = sequences.started_rows
    if rows is None:
        rows = sequences.started_rows = _sequence_rows(sequences.started)
    return rows


def _sequence_rows(table: dict[Any, int]) -> list[dict[str, Any]]:
    rows = []
    for s, v in table.items():  # a loop: a comprehension makes a function per write
        rows.append({"type": s.type_name, "field": s.field, "value": v} if s.collection is None else
                    {"type": s.type_name, "field": s.field, "collection": s.collection, "value": v})
    return rows


@direct_init
@dataclass(frozen=True)
class Decision:
    """A decided write: the answer, and (when the state changed) what ``execute`` did and the
    meta to commit with it. ``result`` is None for an answer that changed nothing (a recorded
    absence of the entity the call names, or the held entity a get-or-create's key names)."""

    served: Served
    result: WriteResult | None
    meta: WriteMeta
    growth: int = 0
    """Bytes the executor said the write adds to data/get (0 when it did not say, as for a delete)."""


class WriteState:
    """The bundle's part of serving writes: its served plans, the clock's start, the size limit."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        # a delete's learned answer for a missing entity (write-absence-answers) before its 400/404/410,
        # which is answered for the call's id (the path of the call that recorded it names the id)
        absent_calls = latest_absent_calls(bundle.replay, bundle.view.budgets.absence_statuses,
                                           bundle.view.budgets.missing_statuses,
                                           bundle.view.write_held_refusals)
        self.env = WriteEnv(bundle.view,
                            tool_absences={**{t: c.response for t, c in absent_calls.items()}, **bundle.view.write_absences},
                            absence_paths={t: c.path for t, c in absent_calls.items() if t not in bundle.view.write_absences},
                            sightings=InitialSightings(bundle.view, bundle.replay))
        self.env.success_absences = success_absences(bundle.view)
        self.env.view_absence_for_writes, self.env.view_absence_types = view_absence_answers_writes(
            self.env, bundle.view.writes, bundle.view.evidence_id, bundle.view.budgets.missing_statuses)
        self.plans = [p for p in bundle.view.writes if p.served]
        self.plans_by_tool = {p.tool: p for p in self.plans}
        self.start = _instant(bundle.view.write_clock)
        self.limit = bundle.view.budgets.max_state_bytes
        self._sequence_fields = sequence_fields([p for p in self.plans if p.type])

    def fresh(self, state: StateIndex) -> WriteMeta:
        """The meta of a state just reset or installed: clock at its start, no writes counted,
        sequences measured on the state, and the spellings the reset or load knows, which
        ``state`` is told too (write-effects "Serving")."""
        sequences = SequenceState()
        sequences.restart(self._sequence_fields,
                          [(c.type, c.path, c.entities.values()) for c in state.collections.values()])
        state.known = known_at_install(self.bundle.view, state)
        return WriteMeta(self.start, 0, sequences, state.evidence_id, state.known)

    def decide(self, plan: WritePlan | None, call: ReadCall, state: StateIndex, meta: WriteMeta,
               size: int) -> Decision:
        """Run the call's plan on ``state`` (changed in place when the call is accepted).

        ``size`` is what data/get writes now, in bytes, for the data/add limit. Raises
        ``CallRefused`` with the state unchanged."""
        if plan is None:
            raise CallRefused("this tool has no served write plan", http_status=501)
        try:
            plan = variant_for(plan, call.path)  # a per-value plan: the one the call's values name
        except WriteRefusal as refusal:
            raise CallRefused(refusal.message, http_status=400, kind="unsupported") from None
        instant = meta.clock + CLOCK_STEP
        sequences = SequenceState.continuing(meta.sequences)  # the write's own copy
        grown: list[int] = []

        def limit_check(growth: int) -> None:
            if size + growth > self.limit:
                raise WriteRefusal(f"the write would take data/get past the {self.limit}-byte data/add limit, the "
                                   "most state this environment holds (budget max_state_bytes, rules/budgets.yaml): "
                                   "send less, or delete what this episode created first",
                                   kind="resource_constraint")
            grown.append(growth)

        try:
            result = execute(plan, self.env, WriteCall(call.path, call.query, call.body, call.headers), state, instant=instant,
                             counter=meta.counter + 1, sequences=sequences, limit_check=limit_check)
        except WriteRefusal as refusal:
            if refusal.kind == "missing" and refusal.missing is not None:
                served = Served(from_recording(refusal.missing, "state"), {"state": {
                    "source": "state", "view": "missing", "type": plan.type, **refusal.where,
                    "message": refusal.message}})
                return Decision(served, None, meta)
            raise CallRefused(refusal.message, http_status=404 if refusal.kind == "missing" else
                              413 if refusal.kind == "resource_constraint" else 409 if refusal.kind == "conflict"
                              else 412 if refusal.kind == "precondition" else 428
                              if refusal.kind == "precondition-required" else 400, kind=refusal.kind) from None
        except OpRefusal as refusal:
            raise CallRefused(refusal.message) from None
        answer = Answer(result.status, result.content_type, result.headers, result.body, result.is_json, result.text)
        served = Served(answer, {"state": result.provenance})
        if result.provenance.get("view") == "get":  # a get-or-create's held entity: nothing to keep
            return Decision(served, None, meta)
        return Decision(served, result, WriteMeta(instant, meta.counter + 1, sequences, meta.evidence_id,
                                                  meta.known), sum(grown))


def _instant(text: str | None) -> datetime:
    if not text:
        return datetime(2000, 1, 1, tzinfo=timezone.utc)
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
