"""A difference on a path related to a modelled write, with a write of unknown reach between (docs/gate.md,
Attribution; ``read_check.check_read``, ``absences.blame_absences``): a write no plan models on no state
type's path (a batch or RPC endpoint) may explain what a later read shows, but so may the modelled write
on the read's related path since its last check. Serving answers that read from the state, so were the
modelled write the cause, its later reads would answer stale: it stays unproven (side-effect) rather than
excused. A difference the unscoped write alone could explain (no modelled write on a related path) still
blames nobody."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

CARD = {"id": 7, "title": "todo", "state": "open"}
OTHER = {"id": 8, "title": "later", "state": "open"}
BOARD = {"id": 1, "name": "main", "open_cards": 2}
SPARE = {"id": 9, "title": "idea", "state": "open"}
BOARD2 = {"id": 2, "name": "side", "open_cards": 1}
DONE = {**CARD, "state": "done"}
BATCH = {"requests": [{"method": "POST", "path": "/audit"}]}


def board_app(batch_between: bool, board_shows_update: bool) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/boards", response=[BOARD, BOARD2])                             # 1
           .call("GET", "/boards/1", response=BOARD)                                     # 2
           .call("GET", "/boards/2", response=BOARD2)                                    # 3
           .call("GET", "/boards/1/cards", response=[CARD, OTHER])                       # 4
           .call("GET", "/boards/2/cards", response=[SPARE])                             # 5
           .call("GET", "/boards/1/cards/7", response=CARD)                              # 6
           .call("GET", "/boards/2/cards/9", response=SPARE))                            # 7
    if batch_between:
        har.call("POST", "/rpc/batch", body=BATCH, response={"ok": True})                # 8
    har.call("PUT", "/boards/1/cards/7", body={"title": "todo", "state": "done"}, response=DONE)
    har.call("GET", "/boards/1/cards/7", response=DONE)
    har.call("GET", "/boards/1", response={**BOARD, "open_cards": 1 if board_shows_update else 2})
    return har


def card_update(bundle):
    return plan(bundle, "PUT", "/boards/{board_id}/cards/{card_id}")


def test_a_board_showing_the_card_update_the_copy_lacks_is_a_side_effect():
    bundle = build_from(board_app(batch_between=False, board_shows_update=True))
    update = card_update(bundle)
    assert (update.served, update.reason) == (False, "side-effect"), summary(bundle)


def test_a_write_of_unknown_reach_between_does_not_excuse_the_related_update():
    """The batch may have changed the board, but so may the card update: the board read differs
    from what serving would answer after the update, so the update stays unproven."""
    bundle = build_from(board_app(batch_between=True, board_shows_update=True))
    update = card_update(bundle)
    assert (update.served, update.reason) == (False, "side-effect"), summary(bundle)
    note = next(t for t in update.traces if "unknown reach" in (t.reason or "") or "no state type's path"
                in (t.reason or ""))
    assert "record 8 (POST /rpc/batch)" in note.reason and "unproven" in note.reason


def test_a_board_read_that_agrees_leaves_the_update_served_after_the_batch():
    bundle = build_from(board_app(batch_between=True, board_shows_update=False))
    update = card_update(bundle)
    assert update.served, summary(bundle)


def test_a_create_of_another_board_only_shares_the_collection_path_and_stays_served():
    """A create lies above the read by its collection path only: it made board 5, not board 1, so the
    batch (which may have changed board 1) is the one write the difference could be pinned on."""
    har = board_app(batch_between=False, board_shows_update=False)
    har.call("POST", "/boards", body={"name": "new"}, status=201, response={"id": 5, "name": "new", "open_cards": 0})
    har.call("GET", "/boards/5", response={"id": 5, "name": "new", "open_cards": 0})
    har.call("POST", "/rpc/batch", body=BATCH, response={"ok": True})
    har.call("GET", "/boards/1", response={**BOARD, "open_cards": 0})
    bundle = build_from(har)
    assert plan(bundle, "POST", "/boards").served, summary(bundle)


def test_an_absence_below_a_board_update_is_not_excused_by_the_batch():
    """A recorded absence (card 8 gone) beneath board 1, after board 1's update and a batch: the batch
    may have removed the card, but so may the update (an archive taking its cards along)."""
    har = board_app(batch_between=False, board_shows_update=False)
    har.call("PATCH", "/boards/1", body={"name": "old"}, response={**BOARD, "name": "old"})
    har.call("GET", "/boards/1", response={**BOARD, "name": "old"})
    har.call("POST", "/rpc/batch", body=BATCH, response={"ok": True})
    har.call("GET", "/boards/1/cards/8", status=404, response={"error": "not found"})
    bundle = build_from(har)
    update = plan(bundle, "PATCH", "/boards/{board_id}")
    assert (update.served, update.reason) == (False, "side-effect"), summary(bundle)
    assert any("unknown reach" in (t.reason or "") for t in update.traces)
