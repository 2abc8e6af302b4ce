"""The conformance suite is itself checked: run against a provider with one deliberate defect,
exactly the cases in the table below must fail, and not every case may fail (a suite that fails
everything on a defect would not show which promise it guards)."""

from __future__ import annotations

import pytest
from store_broken import DEFECTS, BrokenStore
from store_conformance import CASES

# defect -> the cases that must catch it (and no others)
CAUGHT_BY = {
    "ignores_expectations": {
        "stale_write_is_refused",
        "refused_commit_leaves_no_trace",
        "second_creation_is_refused",
        "conflict_rolls_back_every_earlier_entry",
        "tombstone_then_recreate_continues_revisions",
    },
    "lists_deleted_ids": {
        "listings_are_sorted_and_hold_only_what_loads",
        "tombstone_then_recreate_continues_revisions",
    },
    "non_atomic": {
        "refused_commit_leaves_no_trace",
        "conflict_rolls_back_every_earlier_entry",
    },
}


def failing_cases(*defects: str) -> set[str]:
    failed = set()
    for name, case in CASES.items():
        try:
            case(BrokenStore(*defects))
        except (Exception, pytest.fail.Exception):  # a failed assertion or pytest.raises, or another error
            failed.add(name)
    return failed


def test_the_table_names_real_cases_and_every_defect() -> None:
    assert set(CAUGHT_BY) == set(DEFECTS)
    for cases in CAUGHT_BY.values():
        assert cases <= set(CASES)


def test_without_defects_every_case_passes() -> None:
    assert failing_cases() == set()


@pytest.mark.parametrize("defect", DEFECTS)
def test_each_defect_is_caught_by_exactly_the_expected_cases(defect: str) -> None:
    failed = failing_cases(defect)
    assert failed == CAUGHT_BY[defect]
    assert failed and failed != set(CASES), "a defect must be caught, and not by every case"


def test_all_defects_together_are_caught_by_the_union() -> None:
    assert failing_cases(*DEFECTS) == set().union(*CAUGHT_BY.values())
