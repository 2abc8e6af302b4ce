"""The convention matrix (``matrix``): each sampled style built without a crash and answering no
probe wrongly. The default run holds the first ``CI_SLICE`` styles; ``CAPENV_MATRIX=all`` holds
every one (``python tests/generality/run_matrix.py`` prints the figures of all of them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from capenv.serving.compare.sides import Observed

from .convention_app import ConventionApp
from .conventions import Conventions
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


class _RenamedSeed(ConventionApp):
    """The application with a seeded note's title read back otherwise than the session recorded it."""

    def _answer(self, request):  # type: ignore[no-untyped-def]
        answer = super()._answer(request)
        if request.method != "GET":
            return answer
        return Observed(answer.status, answer.headers, answer.body.replace(b"Buy milk", b"Buy MILK"))


def test_the_sweep_reports_a_model_answering_otherwise_than_the_application(tmp_path: Path) -> None:
    conventions = Conventions("plain")
    outcome = hold_style(conventions, tmp_path, live=_RenamedSeed(conventions))
    assert outcome.crash is None and outcome.wrong
    assert any("/title: live 'Buy MILK' model 'Buy milk'" in line for line in outcome.wrong), outcome.wrong
