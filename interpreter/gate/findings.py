"""What the gate's replay keeps: each plan's findings, the writes awaiting a check, and what it
knows of each target (seeds: "The gate"). A target is ``("entity", type, key)``,
``("collection", path)`` or ``("document", path)``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from capenv.interpreter.bundle.models import BudgetHit, InsertRule, WritePlan
from capenv.interpreter.bundle.trace_event import TraceEvent
from capenv.interpreter.view.paging import PagingRoles
from capenv.interpreter.view.read_gate import LineChoices

from .embed_checks import CreatedEntities
from .sorted_arrays import SortedArrays


NoteKind = Literal["call", "contradiction", "side-effect", "excuse"]

WHOLE = "*"
"""In a target's changed fields: the write changed the whole entity, document or collection."""


@dataclass(frozen=True)
class GateNote:
    """One thing the gate found about a plan's recorded call or a read that checked it: the
    verdict's evidence lists it and the plan's traces carry it as a ``gate`` event.

    ``call``: a call that added nothing the gate could check (or that the plan does not explain);
    ``contradiction``: the difference a read showed against the plan's effect; ``side-effect``:
    a change a related read showed that no write it checks explains; ``excuse``: why a read that
    failed does not contradict the write (the verdict's evidence leaves it out)."""

    record: int
    text: str
    kind: NoteKind = "call"
    evidence: dict[str, Any] = field(default_factory=dict)
    location: str = ""
    """The code that decided (``file:function``), for the trace."""

    def __str__(self) -> str:
        return f"record {self.record}: {self.text}"

    def event(self, tool: str) -> TraceEvent:
        return TraceEvent(table="gate", rule_id=None, outcome="miss", subject=tool,
                          evidence={"record": self.record, "kind": self.kind, **self.evidence},
                          reason=str(self), location=self.location)


@dataclass
class Pending:
    """A modelled write awaiting a check of what it changed."""

    tool: str
    ordinal: int
    effect: str
    changed: set[str]
    """The fields it changed at its target (``WHOLE``: all of it)."""
    observation: int | None
    sent: frozenset[str] = frozenset()
    """The body members the call sent (what a read of an entity shown again checks)."""
    entity: str | None = None
    """The key of the entity a create made (where a list shows it placed)."""


@dataclass
class PlanFindings:
    confirmations: list[int] = field(default_factory=list)
    contradicted_by: int | None = None
    side_effect_by: int | None = None
    unexplained_by: int | None = None
    """A recorded call whose generated values take another form than serving gives them."""
    notes: list[GateNote] = field(default_factory=list)
    refusals: dict[int, str] = field(default_factory=dict)
    """Recorded call (ordinal) -> why serving refuses it (the note of a call the plan does not explain)."""
    key_confirmations: list[int] = field(default_factory=list)
    """A keyed create's calls that got a held entity as serving would (``key_checks``)."""
    reproduced_observations: list[int] = field(default_factory=list)
    """Reads that supplied a call's observation and that the copy, the call applied, answered as
    recorded: no confirmation (the plan was learned from them), but the capture's own showing that
    the plan fits this call, which ``value_proofs`` weighs beside a sibling's confirmation."""
    refused_held: list[tuple[int, int]] = field(default_factory=list)
    """A delete's recorded calls (ordinal, status) the application refused while the entity was
    held (``refused_deletes``)."""
    refused_held_as_exemplar: list[tuple[int, int]] = field(default_factory=list)
    refused_shown: list[tuple[int, int]] = field(default_factory=list)
    """A delete's recorded calls (ordinal, status) the application refused while the reads showed the
    entity just before the call and again in the first read after it (``refused_deletes``): an
    absence answered for an entity the application goes on showing."""
    """Those of them sent with the credentials the plan's exemplar succeeded with (every request
    header every successful call of the capture carried, with the exemplar's value)."""
    refused_where_accepted: list[tuple[int, int]] = field(default_factory=list)
    """A create's recorded calls (ordinal, status) refused with a body a successful call of it sent
    into another collection (``refused_deletes.note_refused_where_accepted``)."""
    refused_serving_accepts: list[tuple[int, int]] = field(default_factory=list)
    """An update's recorded calls (ordinal, status) the application refused where serving would have
    applied them to the state held before them (``refused_updates``)."""
    refused_create_values: list[tuple[int, int, int]] = field(default_factory=list)
    """An update's type's create calls (ordinal, status, members shared) refused for values of the
    update's members sent as successful creates sent them (``refused_creates``)."""
    after_deletes: list[dict[str, Any]] = field(default_factory=list)
    """A create's recorded calls that drew a sequence value while no entity held its scope's largest
    value (``sequence_reuse``): what the ``sequence-reuse`` table judges."""


@dataclass
class GateRun:
    findings: dict[str, PlanFindings]
    checked_reads: int = 0
    plans: dict[str, WritePlan] = field(default_factory=dict)
    created: CreatedEntities = field(default_factory=CreatedEntities)
    settings: dict[str, Any] = field(default_factory=dict)
    """The ``gate`` settings of the build's rules."""
    insert_table: Any = None
    """The build's ``insert-candidates`` table (None: the packaged one)."""
    blame_table: Any = None
    """The build's ``gate-absence-blame`` table: which writes in between a failed read blames alone."""
    tool_of: dict[int, str] = field(default_factory=dict)
    """Record (ordinal) -> the manifest tool it is a call of."""
    linked_table: Any = None
    """The build's ``gate-linked-blame`` table: whether a write no plan models that reached a changed
    entity explains the change, not the modelled writes linked to it by id."""
    count_table: Any = None
    """The build's ``gate-count-blame`` table: whether a count another type's creates and deletes
    moved blames a write on a related path or linked by id that is none of them."""
    movers_table: Any = None
    """The build's ``gate-count-movers`` table: whether a changed entity's read shows what a create
    or delete in the window did, blaming it linked or not."""
    reidentified_table: Any = None
    redrawn: dict[str, set[str]] = field(default_factory=dict)
    """Per type, the held ids a later whole list showed named anew (``reidentified``): the application
    draws the entity's id at each read, so an item call naming one a read showed may find nothing."""
    """The build's ``gate-reidentified`` table: whether a list names a held entity anew."""
    paging: PagingRoles | None = None
    """The build's query-parameter roles (``view-query-params``), which bound a whole list's page."""
    insert_rules: dict[str, InsertRule] = field(default_factory=dict)
    """A create's insert rule a later list showed instead of the plan's (the plan takes it)."""
    rule_fixed: set[str] = field(default_factory=set)
    """Creates whose insert rule a passing list check relied on: it no longer changes."""
    sorted_arrays: SortedArrays = field(default_factory=SortedArrays)
    """String-array fields the type's views sort (reads that passed by sorting them)."""
    budget_hits: list[BudgetHit] = field(default_factory=list)
    """The view's budgets the replay hit (the copy held more entities than ``max_entities``)."""
    traces: list[TraceEvent] = field(default_factory=list)
    """Why the replay stopped, when it did."""
    listings: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """Per (type, key): the read-only POSTs whose recorded answer listed the entity (``presence``)."""
    choose_list_line: LineChoices = field(default_factory=LineChoices)
    """The checked line serving answers a list read from (``read_gate.choose_list_line``), remembered."""
    sighting_texts: dict[int, tuple[Any, dict[str, set[str]]]] = field(default_factory=dict)
    """Per sighting (its id, the sighting kept beside): the texts its value holds (``absences.IdLinks``)."""
    default_pages: Any = None
    item_proofs: Any = None
    """What the replay showed of the item views tried as state-backed (``replay_proofs.ReplayItemProofs``)."""
    """What unqueried lists listed against the copy (``default_pages.DefaultPageEvidence``)."""


@dataclass
class Tracking:
    """The replay's bookkeeping per target, between records."""

    pending: dict[tuple, list[Pending]] = field(default_factory=dict)
    unchecked: set[str] = field(default_factory=set)
    """Collections not checked again."""
    failed_lists: set[str] = field(default_factory=set)
    """Collections whose list check failed: lists not checked again (their items still are)."""
    unknown: set[tuple[str, str]] = field(default_factory=set)
    """Entities unknown until a read shows them."""
    last_check: dict[tuple, int] = field(default_factory=dict)
    collection_checks: dict[tuple[tuple, str], int] = field(default_factory=dict)
    """(entity target, collection path as read) -> the latest item read of it there, for a type whose
    ids repeat across its collections (``other_collections.last_check_in``): ``last_check`` keeps
    one ordinal per id, which a read of another collection's entity with that id replaces."""
    modelled_since: list[tuple[int, str, str]] = field(default_factory=list)
    """(ordinal, tool, path) of modelled writes."""
    brought: list[tuple[int, str, str]] = field(default_factory=list)
    """(record, tool, path) of each call its plan does not explain that the copy was brought to the
    outcome of (``bring_to_outcome``): what it changed beyond its entity nothing models."""
    modelled_targets: dict[int, frozenset[tuple]] = field(default_factory=dict)
    """Modelled write (ordinal) -> the targets its effect changed."""
    brought_keys: dict[int, str] = field(default_factory=dict)
    """Call brought to its outcome (ordinal) -> the key of the entity it brought there."""
    last_touched: dict[tuple, int] = field(default_factory=dict)
    """Entity target -> the latest modelled write that changed it."""
    unscoped: list[int] = field(default_factory=list)
    """Unmodelled writes on no state type's path (``unmodelled._unscoped``): their reach is unknown."""
    absent_noted: dict[tuple[str, str], int] = field(default_factory=dict)
    """(type, key) -> the latest read that showed the held entity absent (``absences``)."""
    changed_by_unattributed: dict[tuple, int] = field(default_factory=dict)
    """Target -> the latest write that took its recorded outcome."""
    touched: set[tuple[str, str]] = field(default_factory=set)
    """(type, key) of entities the copy held or a write touched."""
    creating_writes: list[int] = field(default_factory=list)
    """Writes no built plan models: they may make entities."""
    latest_unmodelled: dict[tuple, int] = field(default_factory=dict)
    """Entity or collection target -> the latest unmodelled write that reached it (a write below an
    item reaches its entity and the collection holding it)."""
    reaches: dict[tuple[int, str], str] = field(default_factory=dict)
    """(unmodelled write's ordinal, type) -> what it reached there (the gate's notes name it)."""
    reach_events: list[TraceEvent] = field(default_factory=list)
    """The trace of what each unmodelled write reached (the gate's traces)."""
    reach_table: Any = None
    """The build's ``gate-reach`` table: which held entities a write whose path names none reached."""
    reach_min_string: int = 0
    """A held entity's string this long that a write no plan models carries names that entity."""
    failed_creates: set[int] = field(default_factory=set)
    """Unmodelled writes that are calls of a create tool answered with an error (``gate-reach``)."""
    effects: dict[int, dict[tuple, set[str]]] = field(default_factory=dict)
    """Modelled write (ordinal) -> entity or document target -> what survives of its effect there
    (later writes and recorded outcomes erase it)."""
    effect_writers: dict[tuple, set[int]] = field(default_factory=dict)
    """Entity or document target -> the writes whose effect survives there (an index of
    ``effects``: a write erases only at its own targets, not by scanning every write)."""
    written: dict[int, tuple[tuple[tuple, dict[str, Any]], ...]] = field(default_factory=dict)
    """Modelled write (ordinal) -> each entity target it changed, with the entity as the write left
    it in the copy: a create's entity names what it links to (``linked_changes``), which no read
    before the create shows."""
    effect_collections: dict[int, set[tuple]] = field(default_factory=dict)
    """Modelled write (ordinal) -> the collection targets it changed."""
