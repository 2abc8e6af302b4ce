"""Updates whose call the gate cannot check (write-effects, "The gate", "Writes"): an update of an
unknown entity takes its recorded outcome and adds nothing to a built plan, and a later update
that does not answer with its entity is observed only by a read whose view shows every clock
the plan learned (serving stamps them); without one it is unmodelled."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary
from support.har_builder import HarBuilder

STAMP = "2026-01-01T00:00:00Z"


def test_an_update_of_an_unknown_entity_adds_nothing_to_its_plan():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})   # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "x"})                        # 5
                        .call("PATCH", "/items/2", body={"title": "q"}, status=500, response={"e": 1})    # 6
                        .call("PATCH", "/items/2", body={"title": "y"}, response={"id": 2, "title": "y"})  # 7
                        .call("GET", "/items/2", response={"id": 2, "title": "y"}))                       # 8
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5,), summary(bundle)


def _stamped_updates(item_read_after_second: bool):
    # the list view never shows updated_at; the item view does
    builder = (HarBuilder()
               .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}])       # 1
               .call("GET", "/items/1", response={"id": 1, "title": "t1", "updated_at": STAMP})          # 2
               .call("GET", "/items/2", response={"id": 2, "title": "t2", "updated_at": STAMP})          # 3
               .call("PATCH", "/items/1", body={"title": "x"}, status=204, response=None,
                     started="2026-01-01T00:00:10Z")                                                     # 4
               .call("GET", "/items/1", response={"id": 1, "title": "x", "updated_at": "2026-01-01T00:00:10Z"},
                     started="2026-01-01T00:00:11Z")                                                     # 5
               .call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}])      # 6
               .call("PATCH", "/items/2", body={"title": "y"}, status=204, response=None,
                     started="2026-01-01T00:00:20Z")                                                     # 7
               .call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "y"}]))      # 8
    if item_read_after_second:
        builder.call("GET", "/items/2", response={"id": 2, "title": "y", "updated_at": "2026-01-01T00:00:20Z"})
    return build_from(builder)


def test_a_later_update_answering_nothing_with_no_read_showing_its_clocks_is_unmodelled():
    bundle = _stamped_updates(item_read_after_second=False)
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert any(r.field == "updated_at" and "clock" in r.op for r in update.fields), update.fields
    assert update.served and update.checked_record_ordinals == (6,), summary(bundle)


def test_a_later_update_a_read_showing_its_clocks_observes_is_checked():
    bundle = _stamped_updates(item_read_after_second=True)
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (6, 8), summary(bundle)
