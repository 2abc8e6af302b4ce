"""What a comparison keeps: one call's result on both sides (``CallResult``), and what each side has
sent, answered and saved so far (``SideState``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsondiff import Difference
from .judge import Judgement
from .probes import Probe
from .sides import Observed, Outgoing
from .tool_index import CallTool


@dataclass
class CallResult:
    index: int
    probe: Probe
    requests: dict[str, Outgoing]
    answers: dict[str, Observed]
    judgement: Judgement
    tool: CallTool
    diverged_by: list[int] = field(default_factory=list)
    borrowed: dict[str, list[str]] = field(default_factory=dict)
    """Per side, the saved names it lacked and took from the other side."""
    unresolved: list[str] = field(default_factory=list)
    """Saved names neither side has (no answer had the pointer): sent as written."""
    unsaved: dict[str, list[str]] = field(default_factory=dict)
    """Per side, the ``save`` pointers its answer did not have."""
    unexplained: list[Difference] = field(default_factory=list)
    """Of a difference ``diverged_by`` excuses, what none of those writes reached (``divergence``): a
    *suspect*, a wrong answer hiding behind the divergence unless shown otherwise."""

    @property
    def suspect(self) -> bool:
        return bool(self.diverged_by and self.unexplained)

    @property
    def verdict(self) -> str:
        return self.judgement.verdict

    @property
    def differences(self) -> list[Difference]:
        return self.judgement.differences

    @property
    def expectation_met(self) -> bool | None:
        return None if self.probe.expect is None else self.probe.expect == self.verdict


@dataclass
class SideState:
    saved: dict[str, Any] = field(default_factory=dict)
    seen: set[Any] = field(default_factory=set)
    """Every string and number this side sent or answered so far: a value already seen
    is not a freshly generated id, so it is never paired by shape."""
    objects: dict[tuple[str, ...], dict[str, Any]] = field(default_factory=dict)
    """Per path read (segments, as capenv reads it), the object its last successful read answered."""
    answered: set[Any] = field(default_factory=set)
    """Every string and number this side answered so far (not those it was only sent)."""
    written: set[Any] = field(default_factory=set)
    """Every string and number a write sent or answered on this side so far (what writes made or drew)."""
