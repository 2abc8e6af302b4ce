"""What the read-only POST tables read: one POST tool's calls, digested from the timeline.

Two contexts. ``readonly-ways`` (table ``readonly-ways``): the tool's template and its calls,
each with its request, its answer and the GET of its path that answered just before it.
``readonly-vetoes`` (table ``readonly-vetoes``): the tool's calls, and for each call the
reads of related GET lines just before and just after it.

The builder in ``capenv.interpreter.readonly`` picks which records these are (that choice
depends on which tools are still taken to be read-only); the predicates judge them. The
fields default so a fixture case names only what it is about.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.rules_engine.registry import context_model

BodyKind = Literal["json", "text", "none"]


class ReadFacts(BaseModel):
    """One recorded GET as the comparisons see it: status and body."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    ordinal: int = 0
    status: int = 200
    body: Any = None
    """The JSON value (``body_kind: json``), the text (``text``), or nothing (``none``)."""
    body_kind: BodyKind = "json"

    @property
    def succeeded(self) -> bool:
        return 200 <= self.status < 300


class WayCall(BaseModel):
    """One call of the tool, with what way 1 compares it to."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    ordinal: int = 0
    status: int = 200
    body: Any = None
    body_kind: BodyKind = "json"
    query: list[tuple[str, str]] = Field(default_factory=list)
    """Raw (name, value) pairs, as sent."""
    response: Any = None
    response_kind: BodyKind = "json"
    prior_get: ReadFacts | None = None
    """The successful GET of the call's path that finished last before the call began."""
    writes_since_prior_get: list[int] = Field(default_factory=list)
    """Ordinals of writes that may fall between that GET and the call."""

    @property
    def succeeded(self) -> bool:
        return 200 <= self.status < 300


@context_model("readonly-ways")
class WaysContext(BaseModel):
    """A POST tool: its template and every call it made."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = ""
    template: str = ""
    """``/api/flows/filter``: literal segments in their raw spelling, parameters in braces."""
    calls: list[WayCall] = Field(default_factory=list)


class ItemRead(ReadFacts):
    """A GET of the call's own path plus one segment (the collection it posted to, and an item of it)."""

    segment: str = ""
    """The segment after the call's path, percent-decoded (``3`` for ``/api/entry_list/3/``)."""
    side: Literal["before", "after"] = "after"
    """It finished before the call began, or began after the call ended."""


class VetoCall(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    ordinal: int = 0
    status: int = 200
    """0 means unanswered."""
    redirected: bool = False
    answer: Any = None
    """The call's JSON answer (None for another body)."""
    item_reads: list[ItemRead] = Field(default_factory=list)
    """The GETs of the call's path plus one segment, before or after the call."""
    reads_before: list[ReadFacts] = Field(default_factory=list)
    """The successful GETs of the call's own path (any query) that finished before it began."""

    @property
    def succeeded(self) -> bool:
        return 200 <= self.status < 300


class Observation(BaseModel):
    """A related GET line read just before and just after one call of the tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    call: int
    """The ordinal of the tool's call."""
    line: str
    """``GET /path?query``: the reads compared are of this one line."""
    before: ReadFacts
    """The read of the line that finished last before the call began."""
    after: ReadFacts
    """The first read of the line that began after the call ended."""
    writes_between: list[int] = Field(default_factory=list)
    """Ordinals of other writes that may fall between the two reads (then the pair shows nothing)."""


@context_model("readonly-vetoes")
class VetoesContext(BaseModel):
    """A POST tool taken to be read-only so far: its calls and what related reads showed around them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = ""
    calls: list[VetoCall] = Field(default_factory=list)
    observations: list[Observation] = Field(default_factory=list)


def same_body(kind_a: BodyKind, a: Any, kind_b: BodyKind, b: Any) -> bool:
    """Two bodies are the same when JSON is equal by value, or text is equal, or both are absent."""
    if kind_a != kind_b:
        return False
    return same_json(a, b) if kind_a == "json" else a == b


def same_json(a: Any, b: Any) -> bool:
    """JSON equality by value: member order does not matter, array order does, and JSON
    types stay apart (``true`` is not ``1``, ``"1"`` is not ``1``; ``1`` and ``1.0`` are one number)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                and all(same_json(a[key], b[key]) for key in a))
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(same_json(x, y) for x, y in zip(a, b)))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)  # JsonNumber compares with int and float by value
    return type(a) is type(b) and a == b


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, JsonNumber)) and not isinstance(value, bool)
