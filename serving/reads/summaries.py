"""A document that summarises the collections below it (``DocumentLine.summarises``) is answered
from the state only while those collections hold what they held when the capture began: the
state keeps the document as recorded, and no served write below it changes what it shows."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from capenv.interpreter.bundle.models import DocumentLine, StateSnapshot
from capenv.serving.read_call import CallRefused
from capenv.serving.state.index import StateIndex


def held(state: StateIndex, type_name: str) -> dict[str, list[dict[str, Any]]]:
    """What the state holds of a type: each ordered collection's members, by path."""
    return {c.path: c.members() for c in state.collections_of(type_name) if c.order}


class Summaries:
    def __init__(self, initial: StateSnapshot) -> None:
        self._snapshot = initial
        self._initial: dict[str, dict[str, list[dict[str, Any]]]] = {}

    @cached_property
    def _index(self) -> StateIndex:
        return StateIndex.from_snapshot(self._snapshot)

    def refuse_changed(self, tool: str, line: DocumentLine, state: StateIndex) -> None:
        changed = [name for name in line.summarises if held(state, name) != self._held_initially(name)]
        if changed:
            raise CallRefused(
                f"{tool} is not modelled over the current state at {line.path}: this document lies above (or counts) the "
                f"{', '.join(repr(n) for n in changed)} collection(s) and may show what they hold (counts, names), "
                "which served writes (or data/add) have changed since the capture began, and no write plan "
                "changes the document with them; it is answered from the state while they are as the capture "
                "began (data/reset brings it back)", http_status=409)

    def _held_initially(self, name: str) -> dict[str, list[dict[str, Any]]]:
        if name not in self._initial:
            self._initial[name] = held(self._index, name)
        return self._initial[name]
