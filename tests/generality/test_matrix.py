"""The convention matrix (``matrix``): each sampled style built without a crash and answering no
probe wrongly. The default run holds the first ``CI_SLICE`` styles; ``CAPENV_MATRIX=all`` holds
every one (``python tests/generality/run_matrix.py`` prints the figures of all of them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .matrix import CI_SLICE, styles
from .matrix_hold import hold_style

SAMPLED = styles()
HELD = SAMPLED if os.environ.get("CAPENV_MATRIX") == "all" else SAMPLED[:CI_SLICE]


@pytest.mark.parametrize("conventions", HELD, ids=lambda c: c.name)
def test_no_crash_and_no_wrong_answer(conventions, tmp_path: Path) -> None:
    outcome = hold_style(conventions, tmp_path)
    print(outcome.line())
    assert outcome.crash is None, outcome.crash
    assert not outcome.wrong, f"{conventions.name}: {len(outcome.wrong)} wrong answers:\n" + "\n".join(outcome.wrong)


def test_the_sample_covers_every_pair_of_values() -> None:
    from .matrix import AXES, _pairs, sample

    rows = sample()
    covered = set().union(*(_pairs(row) for row in rows))
    sizes = [len(values) for values in AXES.values()]
    assert len(covered) == sum(sizes[a] * sizes[b] for a in range(len(sizes)) for b in range(a + 1, len(sizes)))
    assert rows == sample()  # a fixed seed: the same styles on every run
