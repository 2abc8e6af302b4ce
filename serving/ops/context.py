"""What a serving op may read about the write it serves, and how it refuses one.

An op is a pure function of its plan parameters and an ``OpContext``; it never touches the
store. The runtime builds one context per served write (per entity, for a bulk write), lets
``apply_field_rule`` run each field rule of the plan on it, and commits the values together
with the clock, the write counter and the sequence draft — or, when any op raises
``OpRefusal``, answers a tool error and commits nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as member
from datetime import datetime
from typing import Any, Callable, Container

from .sequence_state import SequenceDraft


class OpRefusal(Exception):
    """A call an op cannot serve: the runtime answers a tool error and leaves the state unchanged.

    The message names what the call (or the entity) needs, e.g. "the body needs member 'title'".
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OpParamsError(ValueError):
    """A field rule whose op or parameters break the contract of ``params.py``: a plan bug,
    reported when the rule is compiled (at bundle load), never blamed on a call."""


class _Unchanged:
    """The value of an op that leaves its field as the entity holds it (or without it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNCHANGED"

    def __reduce__(self) -> str:
        return "UNCHANGED"


UNCHANGED = _Unchanged()
"""Returned when the field keeps what it holds: an update that does not send the member an
echo, slug or derived value follows (the call could not take the rule), or an entity without
the field a renewed rule names (it is left without it)."""


def _no_held_values(_field: str) -> Container[Any]:
    return ()


@dataclass(slots=True, eq=False)
class OpContext:
    """Everything an op may read about one write. Mutable on purpose: ``apply_field_rule``
    names ``field`` after the rule it runs and records each value in ``generated``, so one
    context serves every field of the write without being copied."""

    body: dict[str, Any]
    """The call's body object, its envelope (``{"posts": [{…}]}``) already unwrapped."""
    instant: datetime
    """The write's clock: an aware datetime (the store's clock, one second on per write)."""
    evidence_id: str
    """The state's Evidence id: seeds every UUID and token, so values repeat after a reset."""
    tool: str
    write_counter: int
    """The store's count of served writes, this one included: what makes each write's values new."""
    path_args: dict[str, str] = member(default_factory=dict)
    """The path parameters of the collection the call names, percent-decoded once."""
    type_name: str = ""
    collection: str | None = None
    """The held collection path the entity is (or is being) written in, as the state spells it."""
    field: str = ""
    entity_before: dict[str, Any] | None = None
    """The entity as held before an update (None for a create)."""
    generated: dict[str, Any] = member(default_factory=dict)
    """Values earlier fields of this write got (templates are rebuilt around them)."""
    type_values: Callable[[str], Container[Any]] = _no_held_values
    """A field's values held across the type: generated UUIDs and tokens skip them. UUIDs are
    looked up in lower and upper case, so a case-folded container serves as well."""
    sequences: SequenceDraft | None = None
    """This write's view of the runtime's ``SequenceState`` (see ``sequence_state.py``)."""
    renewals: dict[str, str] = member(default_factory=dict)
    """Old UUID (lower case) -> its renewal, for the whole call: one call renews a UUID alike
    in every field and place, whatever letter case each place spells it in."""


def absent(ctx: OpContext, what: str) -> Any:
    """A source the call did not send: an update keeps the field (the call could not take the
    rule, as a PATCH without the title keeps the slug); a create cannot be served without it."""
    if ctx.entity_before is not None:
        return UNCHANGED
    raise OpRefusal(f"field {ctx.field!r} needs {what}")


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (scalars, ``JsonNumber`` included, are immutable and shared),
    so a value an op returns never aliases the body, a parameter or the held entity."""
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        copied = []
        for item in value:  # a loop: a comprehension makes a function per call
            copied.append(copy_json(item))
        return copied
    return value
