"""A write answering the written entity is proven only where serving's rendering of each recorded
call shows the members the application's answer showed: an answer leaving out a member the state
holds (a projection the plan does not know) contradicts the plan, so serving never answers
members the application does not."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder


def _updates(answer_holds_note: bool):
    def answered(item: int, title: str) -> dict:
        return {"id": item, "title": title, **({"note": f"n{item}"} if answer_holds_note else {})}
    return build_from(HarBuilder()
                      .call("GET", "/items", response=[{"id": 1, "title": "t1", "note": "n1"},
                                                       {"id": 2, "title": "t2", "note": "n2"}])
                      .call("GET", "/items/1", response={"id": 1, "title": "t1", "note": "n1"})
                      .call("PUT", "/items/1", body={"title": "x"}, response=answered(1, "x"))
                      .call("GET", "/items/1", response={"id": 1, "title": "x", "note": "n1"})
                      .call("PUT", "/items/2", body={"title": "y"}, response=answered(2, "y"))
                      .call("GET", "/items/2", response={"id": 2, "title": "y", "note": "n2"}))


def test_an_update_answering_fewer_members_than_the_state_holds_is_contradicted():
    bundle = _updates(answer_holds_note=False)
    update = plan(bundle, "PUT", "/items/{item_id}")
    assert not update.served and update.reason == "contradicted", summary(bundle)
    assert any("members note the application's answer left out" in (t.reason or "") for t in update.traces)


def test_an_update_answering_the_whole_entity_is_served():
    bundle = _updates(answer_holds_note=True)
    update = plan(bundle, "PUT", "/items/{item_id}")
    assert update.served, summary(bundle)
