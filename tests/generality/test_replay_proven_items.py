"""Item views the initial window never read (the session only listed its tags before its first
write), proven by the gate's replay (``view-replay-proven-items``): every later item read the
replay answered from the state reproduced, one of them of a tag the lists gave, so the view is
answered from the state and its reads check the type's writes. A tag update no plan models
(sent with If-Match, ``precondition-header``) leaves the lists unchecked after it; the delete is
then confirmed by the 404 its item read recorded, and served."""

from __future__ import annotations

from pathlib import Path

from .convention_app import Conventions
from .holding import hold


def _views(bundle) -> dict:
    return {v.tool: v for v in bundle.view.views}


def test_an_item_view_read_only_after_writes_is_proven_by_the_replay(tmp_path: Path) -> None:
    conventions = Conventions("lists-only-if-match", seed_item_reads="none", concurrency="if-match")
    bundle, _ = hold(conventions, tmp_path, ("delete seeded tag 2",),
                     unservable={"patch_tags_by_tag_id": "precondition-header"})
    tags = _views(bundle)["get_tags_by_tag_id"]
    assert tags.state_backed and not tags.checked_record_ordinals
    deletes = {p.tool: p for p in bundle.view.writes}
    assert deletes["delete_tags_by_tag_id"].served, deletes["delete_tags_by_tag_id"].reason
    decided = [t for t in bundle.view.traces if t.table == "view-replay-proven-items" and t.outcome == "match"]
    assert [t.rule_id for t in decided] == ["replay-proof.every-read-reproduced"]


def test_an_item_view_a_later_read_contradicts_stays_on_replay(tmp_path: Path) -> None:
    """A create whose link holds the id it drew (a constant the gate cannot redraw) fails its item
    read: the view is not proven, and answers by replay as before."""
    conventions = Conventions("lists-only-hal-ids", seed_item_reads="none", list_shape="success",
                              item_shape="plural_one", create_answer="201_id", links="hal", update="PUT",
                              names="mongo-camel", clocks="http-date", call_gap_ms=1100, version_counter=True,
                              order="newest-first", absence="404_empty", prefix="/api/v1")
    bundle, _ = hold(conventions, tmp_path, ())
    tags = _views(bundle)["get_tags_by_tag_id"]
    assert not tags.state_backed and tags.reason == "no read in the initial window to prove it"
    missed = [t for t in bundle.view.traces if t.table == "view-replay-proven-items" and t.outcome == "miss"]
    assert missed and "did not reproduce" in (missed[0].reason or "")
