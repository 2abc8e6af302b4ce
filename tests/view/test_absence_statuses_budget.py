"""Which recorded statuses answer for an entity the application does not hold is the budget
``absence_statuses`` (``rules/budgets.yaml``), carried by the bundle, not a Python constant: the
view, the read gate, the plans and serving all read it. With the packaged table a read answered
400 is a recorded absence (the view's ``missing``); with a table that leaves 400 out it is a failed
read that is no absence."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.capture_runs import build_from, items_app
from support.rules_copy import copy_rules, edit_pattern

REFUSED = {"error": "no such item"}


def _app():
    return items_app().call("GET", "/items", query=[("owner", "nobody")], status=400, response=REFUSED)


@pytest.fixture
def without_400(tmp_path: Path) -> Path:
    rules = copy_rules(tmp_path)
    edit_pattern(rules / "budgets.yaml", r"absence_statuses: \[400, 404, 410\]", "absence_statuses: [404, 410]")
    return rules


def _list_view(bundle):
    return next(v for v in bundle.view.views if v.tool == "get_items")


def test_the_packaged_budget_takes_a_400_for_an_absence() -> None:
    bundle = build_from(_app())
    assert bundle.view.budgets.absence_statuses == (400, 404, 410)
    view = _list_view(bundle)
    assert view.missing is not None and view.missing.status == 400


def test_a_budget_without_400_takes_it_for_no_absence(without_400: Path) -> None:
    bundle = build_from(_app(), rules=without_400)
    assert bundle.view.budgets.absence_statuses == (404, 410)
    assert _list_view(bundle).missing is None
