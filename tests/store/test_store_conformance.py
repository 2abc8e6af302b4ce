"""Every provider against every conformance case (providers x cases), and every case against an
instance's overlay store over a frozen base holding subjects (``store_overlay.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_conformance import CASES, Case
from store_overlay import base_subjects, open_overlay, seeded_base

from capenv.serving.store import Store


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_conformance(store: Store, case: Case) -> None:
    case(store)


EMPTY_STORE_CASES = {"committed_state_reads_back", "unstored_subject_is_absent"}
"""Cases that read the whole store (``snapshot()`` of every type) and expect it to hold only
what they wrote: over a base holding subjects the store is not empty, so they run over an
overlay whose base is empty instead."""


OVERLAYS = ["memory", "sqlite", "memory-empty-base", pytest.param("postgres", marks=pytest.mark.postgres)]


def _overlay_cases() -> list:
    """Every (overlay, case) pair but the empty-store cases over a base holding subjects."""
    pairs = []
    for overlay in OVERLAYS:
        kind = overlay if isinstance(overlay, str) else overlay.values[0]
        marks = () if isinstance(overlay, str) else overlay.marks
        for name, case in CASES.items():
            if name in EMPTY_STORE_CASES and not kind.endswith("empty-base"):
                continue
            pairs.append(pytest.param(kind, case, marks=marks, id=f"{kind}-{name}"))
    return pairs


@pytest.fixture
def overlay(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    base = base_subjects([]) if request.param.endswith("empty-base") else seeded_base()
    handle = open_overlay(request.param, base, request, tmp_path)
    try:
        yield handle
    finally:
        handle.close()


@pytest.mark.parametrize("overlay, case", _overlay_cases(), indirect=["overlay"])
def test_conformance_on_an_overlay(overlay: Store, case: Case) -> None:
    case(overlay)
