"""Item views the initial window never read, proven by the replay (``view-replay-proven-items``).

The read gate proves a view by its reads in the initial window; an application whose items were
only listed before its first write leaves its item view on replay, so no item read checks a write
of the type, and an update or delete the lists could not check (a list no longer checked after a
write no plan models) stays unconfirmed. Such a view is tried as state-backed: the gate answers
its later reads from the replayed state and notes whether each reproduced. Where the table finds
the view proven, it stays state-backed; otherwise it returns to replay, with the table's reason,
and the gate runs again without it, so none of its reads confirms or contradicts anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.models import ViewResult
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.predicates.replay_proven_items import ReplayItemProofContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table

from .findings import WHOLE

TABLE = "view-replay-proven-items"
NO_WINDOW_READ = "no read in the initial window to prove it"
"""The read gate's reason for a view none of whose reads ran in the initial window."""


@dataclass
class ReplayItemProofs:
    trying: frozenset[str] = frozenset()
    """The item views tried as state-backed."""
    initial: frozenset[tuple[str, str]] = frozenset()
    """(type, key) of the entities the initial state held."""
    compared: dict[str, list[tuple[int, bool, bool]]] = field(default_factory=dict)
    """View (tool) -> (record, reproduced, of an initially held entity) per read the gate compared."""

    def note(self, record: Any, read_view: Any, key: str, reproduced: bool, id_field: str, track: Any) -> None:
        """A read of a tried view the gate compared; it shows the initial state's values when its
        entity is one the initial state held and it shows a member no write has set since."""
        if read_view.tool in self.trying:
            initial = (read_view.type or "", key) in self.initial and bool(
                _initial_members(record, read_view, key, id_field, track))
            self.compared.setdefault(read_view.tool, []).append((record.ordinal, reproduced, initial))


def _initial_members(record: Any, read_view: Any, key: str, id_field: str, track: Any) -> set[str]:
    """The members the read shows (less the identity and volatile ones) that the copy still holds
    from the initial state: no modelled write set them, and no recorded outcome replaced the entity."""
    target = ("entity", read_view.type, key)
    if target in track.changed_by_unattributed or not record.response.is_json:
        return set()
    shown = locate(record.response.json_value, read_view.locator)
    if not isinstance(shown, dict):
        return set()
    written: set[str] = set()
    for ordinal in track.effect_writers.get(target, ()):
        written |= track.effects.get(ordinal, {}).get(target, set())
    if WHOLE in written:
        return set()
    return set(shown) - written - {id_field} - set(read_view.volatile_fields)


def untried_item_views(view: ViewResult) -> frozenset[str]:
    """Item views no read in the initial window proved, of a type a list view answers from the state."""
    listed = {v.type for v in view.views if v.kind == "list" and v.state_backed and v.type}
    return frozenset(v.tool for v in view.views if v.kind == "item" and not v.state_backed
                     and v.reason == NO_WINDOW_READ and not v.checked_record_ordinals and v.type in listed
                     and v.base is not None)


def tried(view: ViewResult, tools: frozenset[str]) -> ViewResult:
    """The view with ``tools`` tried as state-backed."""
    if not tools:
        return view
    return view.model_copy(update={"views": tuple(
        v.model_copy(update={"state_backed": True, "reason": None}) if v.tool in tools else v for v in view.views)})


def judged(view: ViewResult, proofs: ReplayItemProofs, table: Any) -> tuple[frozenset[str], list[TraceEvent]]:
    """The tried views the table finds proven, and the decisions' traces."""
    proven: set[str] = set()
    traces: list[TraceEvent] = []
    if table is None:
        return frozenset(), traces
    listed = {v.type for v in view.views if v.kind == "list" and v.state_backed and v.type}
    types = {v.tool: v.type for v in view.views}
    for tool in sorted(proofs.trying):
        reads = proofs.compared.get(tool, [])
        context = ReplayItemProofContext(compared=len(reads), failed=sum(1 for _, ok, _ in reads if not ok),
                                         failed_records=[o for o, ok, _ in reads if not ok],
                                         passed_initial=sum(1 for _, ok, initial in reads if ok and initial),
                                         listed_from_state=types.get(tool) in listed)
        decision = evaluate_table(table, context, subject=f"{tool} later reads (records "
                                                          f"{', '.join(str(o) for o, _, _ in reads) or 'none'})")
        traces.extend(decision.events)
        if decision.yields.get("proven"):
            proven.add(tool)
    return frozenset(proven), traces

