"""An update accepting a member the application stores otherwise than sent, only with its recorded
value (``update-member.transformed``), stays unserved (``verdict.transformed-input``): the spec
leaves inputs the application transforms unmodelled. An update storing what it was sent is served."""

from __future__ import annotations

from support.capture_runs import build_from, items_app


def patched(sent: str, stored: str):
    app = items_app()
    app.call("PATCH", "/items/1", body={"title": sent}, response={"id": 1, "title": stored})
    app.call("GET", "/items/1", response={"id": 1, "title": stored})
    return next(p for p in build_from(app).view.writes if p.method == "PATCH")


def test_an_update_storing_a_member_otherwise_than_sent_stays_unserved():
    plan = patched("  Dave ", "Dave")
    assert any(m.rule_id == "update-member.transformed" for m in plan.members)
    assert (plan.served, plan.reason) == (False, "transformed-input")


def test_an_update_storing_what_it_was_sent_is_served():
    plan = patched("Dave", "Dave")
    assert plan.served, plan.reason
