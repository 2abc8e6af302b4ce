"""What executing a write plan takes and gives: the call, its result, its refusal, and what it
needs from the bundle (``WriteEnv``). Every write module shares these, so they live apart from
``execute.py``, which imports the modules that raise and build them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from capenv.interpreter.bundle.models import (AbsenceAnswer, EntityType, Recording, ReplayTable, SkippedNumbers,
                                              UnprovenIdShape, ViewResult, WritePlan)


class WriteRefusal(Exception):
    """A call the plan cannot serve; the message says what would be accepted."""

    def __init__(self, message: str, *, kind: str = "invalid", missing: Recording | None = None,
                 where: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message, self.kind, self.missing = message, kind, missing
        self.where = where or {}
        """For a missing entity: the collection and id the call named (provenance of the answer)."""


@dataclass
class WriteCall:
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()
    """The request's headers a plan checks (``WritePlan.tag_check``), names in any case."""


@dataclass
class WriteResult:
    status: int
    content_type: str | None
    headers: tuple[tuple[str, str], ...]
    body: Any
    is_json: bool
    text: str | None
    provenance: dict[str, Any]
    changed: list[str] = field(default_factory=list)


@dataclass
class WriteEnv:
    """What executing plans needs from the bundle."""

    view: ViewResult
    types: dict[str, EntityType] = field(init=False)
    missing_by_type: dict[str, Recording] = field(init=False)
    unproven_id_shapes: dict[str, tuple[UnprovenIdShape, ...]] = field(init=False)
    """Per type, the id layouts its item views' absence is not given for (``view-absence-id-shapes``):
    nor is a write's, since the application may refuse such an id as malformed."""
    skipped_numbers: dict[str, SkippedNumbers] = field(init=False)
    """Per type, the span of numbered ids it held at the capture's start when they skip numbers
    (``view-absence-sequence-gaps``): a write's absence is not given for a skipped number."""
    absences_by_type: dict[str, tuple[AbsenceAnswer, str]] = field(init=False)
    """Per type, its item view's learned absence and that view's tool (``view_absence``)."""
    tool_absences: dict[str, Recording] = field(default_factory=dict)
    absence_paths: dict[str, str] = field(default_factory=dict)
    """The path of the call each of ``tool_absences`` answered (it names the recorded id)."""
    """Each tool's latest recorded 400/404/410, which answers before the type's item view's
    (write-effects "Refusals": "When the tool, or else an item view of the type, recorded …")."""
    checks_references: bool = True
    """Whether a call naming an entity the state does not hold (``references``), or sending a
    validated member's value no recorded success sent (``validated_values``), is refused: the gate
    replays what the application accepted and does not check them."""
    view_absence_for_writes: bool = True
    """Whether the type's item view's absence answers a write of a missing entity with no recorded
    absence of its own (``view_absence.view_absence_answers_writes``: False once the capture shows
    a write's absence differing from its read's), for a type not in ``view_absence_types``."""
    view_absence_types: dict[str, bool] = field(default_factory=dict)

    @property
    def absence_statuses(self) -> tuple[int, ...]:
        """The recorded statuses that answer for an entity the application does not hold (the budget)."""
        return self.view.budgets.absence_statuses
    """The same, per type whose item writes recorded an absence: whether each was its read's."""
    success_absences: dict[str, str] = field(default_factory=dict)
    """Per write effect (delete, update), a recorded write of that effect answering success for an
    id the state did not hold (``write-absence-answers``: a 2xx learned absence, or a success for an
    id the capture never shows, ``ViewResult.write_absence_vetoes``): the application's writes of
    that effect do not answer a missing entity as its reads do, so the item view's absence answers
    none of them (Strapi deletes a missing document with a 204 where its read answers 404). Set by
    serving (``WriteState``); the gate replays what the application answered and leaves it empty."""
    sightings: Any = None
    """Serving's ``InitialSightings``: an update or delete of an entity the state does not hold that
    an initial recording shows is refused, not answered missing (None in the gate)."""
    summarising_documents: dict[str, frozenset[str]] = field(init=False, default_factory=dict)
    """Per type, the paths of the documents that summarise its collections (``DocumentLine.summarises``):
    serving refuses them once a served write has changed those collections (``reads/summaries``)."""
    conflict_creates: dict[str, tuple[Any, ...]] = field(init=False, default_factory=dict)
    """Per type, its creates (a write or a variant) that learned a key on the conflict branch, in the
    view's order: what ``create_keys.refuse_key_clash`` checks an update against."""
    plan_parts: dict[int, tuple[Any, Any]] = field(init=False, default_factory=dict, repr=False, compare=False)
    """id(plan) -> (plan, its ``plans.PlanParts``): built on a plan's first call."""

    def __post_init__(self) -> None:
        self.types = {t.name: t for t in self.view.types}
        self.missing_by_type, self.absences_by_type = {}, {}
        self.unproven_id_shapes = {}
        self.skipped_numbers = {}
        for create in (variant for write in self.view.writes for variant in (write.variants or (write,))):
            if create.effect == "create" and create.key is not None and create.key.branch == "conflict":
                self.conflict_creates[create.type] = self.conflict_creates.get(create.type, ()) + (create,)
        for read in self.view.views:
            if read.kind == "item" and read.type and read.missing is not None:
                self.missing_by_type[read.type] = read.missing
                if read.absence is not None:
                    self.absences_by_type[read.type] = (read.absence, read.tool)
            for line in read.documents if read.kind == "document" else ():
                for name in line.summarises:
                    self.summarising_documents[name] = self.summarising_documents.get(name, frozenset()) | {line.path}
            if read.kind == "item" and read.type and read.skipped_numbers:
                self.skipped_numbers[read.type] = read.skipped_numbers
            if read.kind == "item" and read.type and read.unproven_id_shapes:
                self.unproven_id_shapes[read.type] = self.unproven_id_shapes.get(read.type, ()) + tuple(
                    shape for shape in read.unproven_id_shapes
                    if shape not in self.unproven_id_shapes.get(read.type, ()))


def latest_absent_calls(replay: ReplayTable, absence_statuses: tuple[int, ...], missing_statuses: tuple[int, ...],
                        held: dict[str, tuple[int, ...]] | None = None) -> dict[str, Any]:
    """Each tool's recorded call whose answer (one of ``absence_statuses``, the budget: 400, 404, 410)
    is what its update or delete of a missing entity answers with, before an item view's (its path
    names the id): its latest, one of ``missing_statuses`` (the budget: 404, 410) before a 400, which
    more often answers a body the application refused than an id it does not hold; less ``held``: per
    tool, the 400s it recorded for entities the capture holds (refusals of what the call sent,
    ``ViewResult.write_held_refusals``)."""
    found: dict[str, Any] = {}
    held = held or {}
    for tool, calls in replay.tools.items():
        skip = set(held.get(tool, ()))
        absences = sorted((c for c in calls if c.response.status in absence_statuses and c.ordinal not in skip),
                          key=lambda c: (c.response.status in missing_statuses, c.ordinal))
        if absences:
            found[tool] = absences[-1]
    return found


def unchecked_header_sent(plan: WritePlan, header: Callable[[str], str | None]) -> str | None:
    """The first conditional header (``WritePlan.unchecked_headers``) a call sends, looked up with
    ``header``: serving cannot check it, so it refuses the call (and the gate counts a recorded call
    sending one as a call the plan does not explain)."""
    names = plan.unchecked_headers + tuple(h for v in plan.variants for h in v.unchecked_headers)  # any value's
    return next((name for name in names if header(name) is not None), None)


def unchecked_header_refusal(name: str) -> str:
    """Why a call sending ``name`` is refused."""
    return (f"this call sends {name}, a precondition serving cannot check (the entity's ETag is not "
            f"modelled): send the call without it")


def check_tag(plan: WritePlan, call: WriteCall, entity: dict[str, Any]) -> None:
    """Refuse a call of a plan checking a tag header (``WritePlan.tag_check``) that does not name
    the tag of the entity as the state holds it: the application answers a stale tag 412, and the
    capture does not show what it answers a call without one (a 428 where it requires it)."""
    check = plan.tag_check
    if check is None:
        return
    held = check.tag(entity)
    name = "-".join(part.capitalize() for part in check.header.split("-"))
    if held is None:
        raise WriteRefusal(f"the entity holds no {check.member!r}, which its {name} tag spells: whether the "
                           "application writes it is not known", kind="precondition")
    sent = next((value for key, value in call.headers if key.lower() == check.header), None)
    if sent is None:
        raise WriteRefusal(f"this call must send the {name} header naming the entity's ETag as a read of it "
                           f"answers (now {held}, its {check.member!r} as {check.form.replace('{}', '…')})",
                           kind="precondition-required")
    if sent != held:
        raise WriteRefusal(f"{name} {sent} is stale: the entity's ETag is now {held} (its {check.member!r}); "
                           "read the entity again and send the tag it answers", kind="precondition")


def success_absences(view: ViewResult) -> dict[str, str]:
    """Per write effect, the first recorded write (tool and record) of that effect the capture shows
    answering success for an id the state did not hold (``WriteEnv.success_absences``)."""
    by_tool = {plan.tool: plan for plan in view.writes}
    found: dict[str, str] = {}
    for tool, recording in sorted(view.write_absences.items()):
        if 200 <= recording.status < 300 and tool in by_tool:
            found.setdefault(by_tool[tool].effect, f"{tool}, record {recording.ordinal}")
    for tool, ordinal in sorted(view.write_absence_vetoes.items()):
        if tool in by_tool:
            found.setdefault(by_tool[tool].effect, f"{tool}, record {ordinal}")
    return found
