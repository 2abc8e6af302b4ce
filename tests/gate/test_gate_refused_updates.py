"""An update the application refused where serving would have applied it to the state held before
the call (a 400 for a board of a read-only group behind the same path, a 409 for a locked one)
changes entities only under a condition the spec does not model: it stays unserved
(``verdict.refused-serving-accepts``, reason ``conditional-update``), though other calls confirm it.
A refusal serving would give too (a body missing a member) or an absence (404) is no condition."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

BOARDS = [{"id": 1, "name": "home"}, {"id": 2, "name": "work"}, {"id": 3, "name": "spare"}]


def boards_app(refused: tuple[int, dict] | None = None) -> HarBuilder:
    """Boards renamed by PUT, each rename read back; ``refused``: board 1's rename answered with that
    status and body first, board 1 read unchanged after it."""
    har = HarBuilder().call("GET", "/boards", response=BOARDS)
    for board in BOARDS:
        har = har.call("GET", f"/boards/{board['id']}", response=board)
    if refused is not None:
        status, body = refused
        har = (har.call("PUT", "/boards/1", status=status, body=body, response={"message": "Board is read-only."})
               .call("GET", "/boards/1", response=BOARDS[0]))
    return (har.call("PUT", "/boards/2", body={"name": "office"}, response={"id": 2, "name": "office"})
            .call("GET", "/boards/2", response={"id": 2, "name": "office"})
            .call("PUT", "/boards/3", body={"name": "attic"}, response={"id": 3, "name": "attic"})
            .call("GET", "/boards/3", response={"id": 3, "name": "attic"})
            .call("GET", "/boards", response=[BOARDS[0], {"id": 2, "name": "office"}, {"id": 3, "name": "attic"}]))


def test_an_update_refused_where_serving_would_apply_it_is_not_served():
    for status in (400, 409, 422):
        update = plan(build_from(boards_app((status, {"name": "house"}))), "PUT", "/boards/{board_id}")
        assert not update.served and update.reason == "conditional-update", (status, update.reason)


def test_without_such_a_refusal_the_update_is_served():
    update = plan(build_from(boards_app()), "PUT", "/boards/{board_id}")
    assert update.served, update.reason


def test_a_refusal_serving_gives_too_is_no_condition():
    update = plan(build_from(boards_app((400, {"title": "house"}))), "PUT", "/boards/{board_id}")
    assert update.served, update.reason


def test_an_absence_is_no_condition():
    har = boards_app().call("PUT", "/boards/9", status=404, body={"name": "nowhere"}, response={"message": "No."})
    assert plan(build_from(har), "PUT", "/boards/{board_id}").served
