"""A later listing places a create among the members held before it (write-effects, "List
position": "the first candidate consistent with both the initial all-membership recordings and
the position a later recorded list shows"): entities created after it may stand anywhere, so an
app listing newest first is seen placing each create first."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

BLOG, SANDBOX, AUTO = ({"id": i, "title": i[0]} for i in ("blog", "sandbox1", "auto0001"))


def _two_creates_then(listing: list[dict]):
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", response=[BLOG])                                # 1
                        .call("GET", "/things/blog", response=BLOG)                             # 2
                        .call("POST", "/things", body={"title": "s"}, status=201, response=SANDBOX)  # 3
                        .call("GET", "/things/sandbox1", response=SANDBOX)                      # 4
                        .call("POST", "/things", body={"title": "a"}, status=201, response=AUTO)     # 5
                        .call("GET", "/things/auto0001", response=AUTO)                         # 6
                        .call("GET", "/things", response=listing))                              # 7
    return plan(bundle, "POST", "/things")


def test_newest_first_is_first_among_the_members_held_before():
    create = _two_creates_then([AUTO, SANDBOX, BLOG])
    assert create.insert.kind == "first" and create.served and 7 in create.checked_record_ordinals, create.reason
    assert any(e.rule_id == "insert.first" and e.outcome == "match" for e in create.traces)


def test_after_everything_held_before_is_not_first():
    # must not: sandbox1 follows blog, held before it; the later auto0001 standing first shows nothing of it
    create = _two_creates_then([AUTO, BLOG, SANDBOX])
    assert create.insert.kind != "first", create.insert
    first = next(e for e in create.traces if e.rule_id == "insert.first")
    assert first.outcome == "miss"
