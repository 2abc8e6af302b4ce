"""A delete the application refused while its entity was held (a 409 or 422: other entities still
reference it) deletes only under a condition the spec does not model: it stays unserved
(``verdict.refused-while-held``, reason ``conditional-delete``), though other calls confirm it. So does
an absence (404, 410) answered for an entity the reads show just before and right after the call
(``verdict.absent-while-shown``: Mistral's standard actions, which a delete never removes)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

BOARDS = [{"id": 1, "name": "home"}, {"id": 2, "name": "work"}, {"id": 3, "name": "spare"}]
MISSING = {"message": "Not found"}


def boards_app(refusal: int | None) -> HarBuilder:
    har = HarBuilder().call("GET", "/boards", response=BOARDS)
    for board in BOARDS:
        har = har.call("GET", f"/boards/{board['id']}", response=board)
    if refusal is not None:  # board 1 still holds notes
        har = (har.call("DELETE", "/boards/1", status=refusal, response={"message": "Board has notes."})
               .call("GET", "/boards/1", response=BOARDS[0]))
    return (har.call("DELETE", "/boards/3", response={"message": "OK"})
            .call("GET", "/boards/3", status=404, response=MISSING)
            .call("GET", "/boards", response=BOARDS[:2])
            .call("DELETE", "/boards/2", response={"message": "OK"})
            .call("GET", "/boards/2", status=404, response=MISSING)
            .call("GET", "/boards", response=BOARDS[:1]))


def test_a_delete_refused_while_its_entity_was_held_is_not_served():
    for status in (409, 422):
        delete = plan(build_from(boards_app(status)), "DELETE", "/boards/{board_id}")
        assert not delete.served and delete.reason == "conditional-delete", (status, delete.reason)


def test_without_such_a_refusal_the_delete_is_served():
    delete = plan(build_from(boards_app(None)), "DELETE", "/boards/{board_id}")
    assert delete.served, delete.reason


def test_a_refused_delete_of_an_absent_entity_is_no_condition():
    har = boards_app(None).call("DELETE", "/boards/2", status=404, response=MISSING)
    assert plan(build_from(har), "DELETE", "/boards/{board_id}").served


def shown_around_app(status: int, read_after: bool = True) -> HarBuilder:
    """Board 1 answered ``status`` to its delete though read just before it (and, with ``read_after``,
    read again right after it): an absence answered for an entity the application goes on showing."""
    har = boards_app(None).call("GET", "/boards/1", response=BOARDS[0])
    har = har.call("DELETE", "/boards/1", status=status, response=MISSING)
    return har.call("GET", "/boards/1", response=BOARDS[0]) if read_after else har


def test_an_absence_answered_for_an_entity_read_before_and_after_is_a_condition():
    for status in (404, 410):
        delete = plan(build_from(shown_around_app(status)), "DELETE", "/boards/{board_id}")
        assert not delete.served and delete.reason == "conditional-delete", (status, delete.reason)


def test_an_absence_no_read_after_shows_held_is_no_condition():
    delete = plan(build_from(shown_around_app(404, read_after=False)), "DELETE", "/boards/{board_id}")
    assert delete.served, delete.reason


def _with_token(har: HarBuilder, token: str) -> HarBuilder:
    """Every call so far sent with ``Authorization: Bearer <token>``."""
    for entry in har.entries:
        entry["request"]["headers"].append({"name": "Authorization", "value": f"Bearer {token}"})
    return har


def forbidden_app(refused_token: str) -> HarBuilder:
    """Board 1 refused 403 while held, sent with ``refused_token``; every other call with "admin"."""
    har = _with_token(HarBuilder().call("GET", "/boards", response=BOARDS).call("GET", "/boards/1", response=BOARDS[0]),
                      "admin")
    har.call("DELETE", "/boards/1", status=403, response={"message": "Board is in use."},
             headers=[("Authorization", f"Bearer {refused_token}")])
    rest = (HarBuilder().call("GET", "/boards/1", response=BOARDS[0])
            .call("DELETE", "/boards/3", response={"message": "OK"})
            .call("GET", "/boards/3", status=404, response=MISSING)
            .call("GET", "/boards", response=BOARDS[:2]))
    har.entries.extend(_with_token(rest, "admin").entries)
    return har


def test_a_403_with_the_credentials_the_delete_succeeded_with_is_a_condition():
    delete = plan(build_from(forbidden_app("admin")), "DELETE", "/boards/{board_id}")
    assert not delete.served and delete.reason == "conditional-delete", delete.reason


def test_a_403_sent_with_other_credentials_is_about_who_asked():
    delete = plan(build_from(forbidden_app("guest")), "DELETE", "/boards/{board_id}")
    assert delete.served, delete.reason


def test_an_absence_answered_for_an_entity_a_later_delete_removed_is_a_condition():
    """Board 1, read just before it, answered 404 to a delete sent without the query a later delete
    names (the cache file, the folder it sits in) and was then removed by that later delete, with no
    read between showing it gone: the application held it, so its delete holds by something beyond
    the id, which serving would not check (it would answer 204 where the application answers 404)."""
    har = (boards_app(None).call("GET", "/boards/1", response=BOARDS[0])
           .call("DELETE", "/boards/1", status=404, response=MISSING)
           .call("DELETE", "/boards/1", query=[("file", "archive")], response={"message": "OK"})
           .call("GET", "/boards", response=[]))
    delete = plan(build_from(har), "DELETE", "/boards/{board_id}")
    assert not delete.served and delete.reason == "conditional-delete", delete.reason

