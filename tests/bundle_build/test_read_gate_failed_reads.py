"""A read the application refused for want of credentials (401) shows nothing of the state: the
read gate passes it over, so one call sent without a token does not keep the list it asked for
on replay. So is a 403 to a call that left out a header every successful call carried (Parse's
X-Parse-Application-Id and X-Parse-Master-Key). Other refusals may be about what the read asked
for, and are still checked."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ITEMS = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]


def capture(refused_status: int, refused_headers: list | None = None) -> HarBuilder:
    builder = HarBuilder().call("GET", "/items", response=ITEMS, headers=[("x-token", "t")])
    for entity in ITEMS:
        builder.call("GET", f"/items/{entity['id']}", response=entity, headers=[("x-token", "t")])
    return builder.call("GET", "/items", status=refused_status, response={"error": "refused"},
                        headers=refused_headers)


def test_a_list_read_refused_without_a_token_does_not_keep_the_list_on_replay():
    bundle = build_from(capture(401))
    view = bundle.view.view("get_items")
    assert view.state_backed, view.reason
    assert 4 not in view.checked_record_ordinals
    assert EnvironmentRuntime(bundle).read("get_items")["body"] == ITEMS


def test_a_validation_refusal_is_still_checked():
    """A 422 (an id of the wrong shape, a query the application refuses) may be about the read's
    own path: answered from the state it would come out otherwise, so it keeps the view on replay."""
    view = build_from(capture(422, [("x-token", "t")])).view.view("get_items")  # the header every read sent: no variant
    assert not view.state_backed
    assert "422 recorded" in view.reason


def test_a_recorded_absence_is_still_checked():
    """A 404 of the list's own path is an absence the state must reproduce: it still counts."""
    view = build_from(capture(404, [("x-token", "t")])).view.view("get_items")
    assert not view.state_backed
    assert "recorded an absence" in view.reason


def test_a_403_to_a_call_without_the_header_every_success_carried_is_passed_over():
    bundle = build_from(capture(403))
    view = bundle.view.view("get_items")
    assert view.state_backed, view.reason
    assert 4 not in view.checked_record_ordinals
    assert EnvironmentRuntime(bundle).read("get_items")["body"] == ITEMS


def test_a_403_to_a_call_sending_such_a_header_empty_is_passed_over():
    """A blank value carries no credential (an identity header sent empty): as if left out."""
    bundle = build_from(capture(403, [("x-token", "")]))
    view = bundle.view.view("get_items")
    assert view.state_backed, view.reason
    assert 4 not in view.checked_record_ordinals
    blank = build_from(capture(403, [("x-token", "  ")])).view.view("get_items")
    assert blank.state_backed, blank.reason


def test_a_403_to_a_call_sending_every_such_header_is_still_checked():
    """Sent with the token every success carried, a 403 may be about what the read asked for."""
    view = build_from(capture(403, [("x-token", "t")])).view.view("get_items")
    assert not view.state_backed
    assert "403 recorded" in view.reason


SERVER_ERROR = {"code": 500, "message": "An internal error has occurred!"}


def failing_item_capture() -> HarBuilder:
    """Item reads of held entities, then a read of an id nothing ever showed answered 500 (the
    application failing to serialise the entity it did not find)."""
    builder = HarBuilder().call("GET", "/items", response=ITEMS)
    for entity in ITEMS:
        builder.call("GET", f"/items/{entity['id']}", response=entity)
    return builder.call("GET", "/items/99", status=500, response=SERVER_ERROR)


def test_a_server_error_shows_nothing_of_the_state_and_is_passed_over():
    """A 5xx is the application failing, not an answer about what it holds: the read gate passes
    it over as the write gate does, so one failing read does not keep the item view on replay."""
    bundle = build_from(failing_item_capture())
    view = bundle.view.view("get_items_by_item_id")
    assert view.state_backed, view.reason
    assert 4 not in view.checked_record_ordinals
    assert EnvironmentRuntime(bundle).read("get_items_by_item_id", {"item_id": "2"})["body"] == ITEMS[1]


def test_the_failing_id_is_not_answered_with_an_entity():
    """No entity the state holds is 99: served from the state, the read answers no entity (the
    recorded 500 or a refusal), never another item's recording."""
    result = EnvironmentRuntime(build_from(failing_item_capture())).read("get_items_by_item_id", {"item_id": "99"})
    assert result.get("body") not in ITEMS
    assert result.get("status") != 200


def test_a_server_error_is_no_evidence_for_the_view_alone():
    """With no other read of the item view, the view has nothing proving it: still replayed."""
    builder = HarBuilder().call("GET", "/items", response=ITEMS).call("GET", "/items/99", status=500,
                                                                      response=SERVER_ERROR)
    view = build_from(builder).view.view("get_items_by_item_id")
    assert view is None or not view.state_backed
