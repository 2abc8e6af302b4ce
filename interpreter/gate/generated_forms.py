"""A recorded create's generated values in the form serving gives them (seeds: "The gate",
"Writes"; "Field rules for creates" 5-8; "Clock and generators").

A clock keeps the plan's format; a sequence is drawn after every value its scope counts (held,
started with, or drawn before) and keeps the recorded spelling (digit groups, zero padding, a
string of digits); a unique value, or an identity that is no sequence, is a UUID or a token of
the learned length, alphabet and separators. A value of another form makes the plan
unexplained-change. Integer identities are left to the id mapping, so only their numbers are
counted, as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.models import FieldRule, WritePlan
from capenv.interpreter.bundle.op_params import ClockParams, IdentityParams, SequenceParams, UniqueParams
from capenv.interpreter.evidence.records import Record
from capenv.serving.ops.clocks import format_instant, parse_instant
from capenv.serving.ops.generated_ids import is_uuid, token_shape
from capenv.serving.ops.sequence_state import SequenceScope, SequenceState, format_sequence, sequence_number
from capenv.serving.state.index import StateIndex, key_of

from .findings import GateNote


@dataclass(frozen=True)
class FormProblem:
    """One generated value of another form than serving gives it."""

    record: int
    field: str
    expected: str
    seen: Any

    def text(self) -> str:
        return f"{self.field} {self.seen!r} is not {self.expected}"

    def note(self) -> GateNote:
        return GateNote(self.record, f"{self.text()}; serving gives another form, so the plan is unexplained-change",
                        evidence={"field": self.field, "expected": self.expected, "seen": self.seen},
                        location="interpreter/gate/generated_forms.py:form_problem")


@dataclass(frozen=True)
class CreateSite:
    """A recorded create serving took, in the gate's copy: where sequence order is judged."""

    record: Record
    copy: StateIndex
    sequences: SequenceState
    provenance: dict[str, Any]
    """``execute``'s provenance: the collection the entity went to and its id."""


def form_problem(plan: WritePlan, recorded: dict[str, Any] | None, site: CreateSite | None = None
                 ) -> FormProblem | None:
    """The first generated value of ``recorded`` (the create's recorded entity) whose form serving
    would not give. With a ``site`` (the call serving took), sequence values are also judged for
    order and counted as drawn."""
    if plan.effect != "create" or not recorded:
        return None
    ordinal = site.record.ordinal if site is not None else 0
    found: FormProblem | None = None
    for rule in plan.fields:
        if rule.field not in recorded:
            continue
        value = recorded[rule.field]
        order = _out_of_order(plan, rule, value, site) if site is not None else None  # counts it as drawn
        expected = _expected_form(rule, value) or order or _elsewhere(rule, value, site)
        if expected is not None and found is None:
            found = FormProblem(ordinal, rule.field, expected, value)
    return found


def _expected_form(rule: FieldRule, value: Any) -> str | None:
    """What form ``value`` should take, when it takes another (None: the rule's form)."""
    if rule.op == "clock":
        clock = ClockParams.model_validate(rule.params).format
        try:
            same = format_instant(parse_instant(value, clock), clock) == value
        except (ValueError, TypeError, OverflowError):
            same = False
        return None if same else "written as the plan's clock format"
    if rule.op == "sequence":
        params = SequenceParams.model_validate(rule.params)
        number = sequence_number(value)
        spelled = format_sequence(number, params.groups, params.as_string) if number is not None else None
        if number is None or not _spelled_as(value, spelled):
            shown = spelled if spelled is not None else format_sequence(1, params.groups, params.as_string)
            return f"a sequence value spelled as the plan's ({shown!r})"
        return None
    if rule.op in ("unique", "identity"):
        model = UniqueParams if rule.op == "unique" else IdentityParams
        params = model.model_validate(rule.params)
        if isinstance(params, IdentityParams) and params.address_origin is not None:
            segment = _address_segment(params, value)
            if segment is None:
                return (f"an address {params.address_origin}/…/<id>{'/' if params.address_slash else ''} "
                        "(the entity's own, around the id drawn)")
            value = segment
        if params.format == "uuid":
            return None if is_uuid(value) else "a UUID"
        if params.format == "token":
            return _token_problem(params, value)
    return None


def _address_segment(params: IdentityParams, value: Any) -> str | None:
    """The last segment of an identity spelled as the plan's addresses are (its origin, a path, the
    trailing slash or none), else None."""
    tail = "/" if params.address_slash else ""
    origin = params.address_origin or ""
    if not isinstance(value, str) or not value.startswith(origin + "/") or not value.endswith(tail):
        return None
    text = value[:len(value) - len(tail)] if tail else value
    if "?" in text or "#" in text or text.endswith("/"):
        return None
    return text.rsplit("/", 1)[-1] or None


def _elsewhere(rule: FieldRule, value: Any, site: CreateSite | None) -> str | None:
    """An address identity naming another collection than the one serving wrote the entity in."""
    if rule.op != "identity" or site is None or rule.params.get("address_origin") is None:
        return None
    params = IdentityParams.model_validate(rule.params)
    segment = _address_segment(params, value)
    collection = site.provenance.get("collection")
    if segment is None or not isinstance(collection, str):
        return None
    expected = f"{params.address_origin}{collection.rstrip('/')}/{segment}{'/' if params.address_slash else ''}"
    return None if expected == value else f"the address {expected!r} in the collection serving wrote it in"


def _spelled_as(value: Any, spelled: Any) -> bool:
    """A recorded sequence value spelled as serving spells its number: the same JSON kind (an
    integral JSON number counts as an integer) and text."""
    if isinstance(spelled, str):
        return isinstance(value, str) and value == spelled
    return sequence_number(value) == spelled and not isinstance(value, (str, bool))


def _token_problem(params: UniqueParams | IdentityParams, value: Any) -> str | None:
    shape = token_shape(params.length, params.classes, params.separators)
    expected = f"a token of {shape.length} characters from {params.classes or 'aA9'}"
    if shape.separators:
        expected += " with " + ", ".join(f"{char!r} at {index}" for index, char in shape.separators)
    if not isinstance(value, str) or len(value) != shape.length:
        return expected
    if any(value[index] != char for index, char in shape.separators):
        return expected
    if any(value[index] not in shape.alphabet for index in shape.free):
        return expected
    return None


def _out_of_order(plan: WritePlan, rule: FieldRule, value: Any, site: CreateSite) -> str | None:
    """A sequence value not past every value its scope counted before the create, which serving
    would never draw. The value counts as drawn either way, as serving's would (a deleted entity's
    value is not reused). A value past the next one is left alone: a failed or unrecorded create
    may have drawn those between, as database sequences skip values a failed insert drew."""
    scope_kind = sequence_scope_kind(rule)
    number = sequence_number(value)
    if scope_kind is None or number is None:
        return None
    collection = str(site.provenance.get("collection"))
    scope = SequenceScope(plan.type or "", rule.field, collection if scope_kind == "collection" else None)
    if rule.op == "identity" or site.record.ordinal == plan.exemplar:
        site.sequences.apply({scope: number})
        return None  # never out of order: no need to read every value the scope holds
    made = (collection, key_of(site.provenance.get("id")))
    draft = site.sequences.draft(lambda s: _values_before(site.copy, s, made))
    next_number = draft.next_number(scope)
    site.sequences.apply({scope: number})
    if number >= next_number:
        return None
    return f"after every value its scope counts (next {next_number})"


def sequence_scope_kind(rule: FieldRule) -> str | None:
    """``collection`` or ``type`` for a rule drawing a sequence value, else None."""
    if rule.op == "sequence" or (rule.op == "identity" and rule.params.get("format") == "sequence"):
        return str(rule.params.get("scope", "collection"))
    return None


def _values_before(copy: StateIndex, scope: SequenceScope, made: tuple[str, str]) -> list[Any]:
    """The field's values the scope held before the create made ``made`` (collection, key)."""
    return [entity.get(scope.field) for held in copy.collections_of(scope.type_name)
            if scope.collection is None or held.path == scope.collection
            for key, entity in held.entities.items() if (held.path, key) != made]
