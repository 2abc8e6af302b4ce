"""The view's entity budget in the gate (write-effects, "The gate": "The taken entity counts
against the view's budget as a created one does"; ``max_entities`` in ``rules/budgets.yaml``:
initial, created, taken from reads). A budget that is hit is reported, never silently truncated:
the gate stops before the next record, so later records check nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder
from support.rules_copy import copy_rules, edit_pattern


C = {"id": 3, "title": "c"}


@pytest.fixture
def three_entities(tmp_path: Path) -> Path:
    """A copy of the packaged rules whose view holds at most 3 entities."""
    rules = copy_rules(tmp_path)
    edit_pattern(rules / "budgets.yaml", r"max_entities: \d+", "max_entities: 3")
    return rules


def _create(bundle):
    return next(p for p in bundle.view.writes if p.tool == "post_items")


def _two_creates() -> HarBuilder:
    """Two items, a create confirmed by read 5, a second create, then a read showing it otherwise."""
    return (items_app()
            .call("POST", "/items", body={"title": "c"}, status=201, response=C)                         # 4
            .call("GET", "/items/3", response=C)                                                         # 5
            .call("POST", "/items", body={"title": "d"}, status=201, response={"id": 4, "title": "d"})   # 6
            .call("GET", "/items/4", response={"id": 4, "title": "changed"}))                            # 7


def test_within_the_budget_every_read_is_checked():
    bundle = build_from(_two_creates())
    assert _create(bundle).contradicted_by == 7
    assert bundle.view.budget_hits == ()


def test_a_created_entity_past_the_budget_stops_the_gate_and_is_reported(three_entities):
    bundle = build_from(_two_creates(), rules=three_entities)
    create = _create(bundle)
    # the copy held 4 entities after record 6: read 7 checks nothing, read 5's confirmation stands
    assert create.contradicted_by is None and create.served and create.checked_record_ordinals == (5,)
    (hit,) = bundle.view.budget_hits
    assert (hit.budget, hit.limit, hit.reached) == ("max_entities", 3, 4)
    assert "before record 7" in hit.effect
    assert [h["budget"] for h in bundle.report["budget_hits"]] == ["max_entities"]
    trace = next(e for e in bundle.view.traces if e.table == "budgets")
    assert trace.evidence["stopped_before"] == 7 and "max_entities" in trace.reason


def _taken_then_create(imported: bool) -> HarBuilder:
    builder = items_app()
    if imported:
        builder.call("POST", "/import", body={"source": "csv"}, response={"imported": 1})      # 4: no plan models it
    else:
        builder.call("GET", "/health", response={"ok": True})                                   # 4: no write
    return (builder
            .call("GET", "/items/5", response={"id": 5, "title": "imp"}, status=200 if imported else 404)  # 5
            .call("POST", "/items", body={"title": "c"}, status=201, response=C)               # 6
            .call("GET", "/items/3", response={"id": 3, "title": "changed"}))                  # 7


@pytest.mark.parametrize("imported", [True, False])
def test_a_taken_entity_counts_against_the_budget_as_a_created_one_does(three_entities, imported):
    bundle = build_from(_taken_then_create(imported), rules=three_entities)
    create = _create(bundle)
    if imported:
        # two initial, one taken from read 5, one created by record 6: past the budget of 3
        assert create.contradicted_by is None
        assert [(h.budget, h.reached) for h in bundle.view.budget_hits] == [("max_entities", 4)]
    else:
        # nothing taken: three entities, within the budget, and read 7 contradicts the create
        assert create.contradicted_by == 7
        assert bundle.view.budget_hits == ()


def test_a_budget_passed_by_the_last_record_is_still_reported(three_entities):
    builder = (items_app()
               .call("POST", "/items", body={"title": "c"}, status=201, response=C)                       # 4
               .call("GET", "/items/3", response=C)                                                       # 5
               .call("POST", "/items", body={"title": "d"}, status=201, response={"id": 4, "title": "d"}))  # 6
    (hit,) = build_from(builder, rules=three_entities).view.budget_hits
    assert hit.reached == 4 and hit.effect.startswith("reported only")
