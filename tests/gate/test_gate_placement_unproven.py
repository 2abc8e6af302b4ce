"""A create the gate places by another of its insert candidates (list_checks.replace_placement)
where yet another order puts it in the same place (write-effects, "The gate": a list must prove
where a create goes). Cards of board 1 are listed by id; the card created on board 2 is listed
first, which the identity descending, a place first and (for a card titled "a") the titles
ascending all explain alike: the candidate the gate swaps in is unproven, so serving places the
next card so but refuses board 2's list once a served create placed one beside another, saying
why, where before it answered an order the capture never proved."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ONE = [{"id": 1, "title": "m"}, {"id": 2, "title": "q"}]
TWO = [{"id": 4, "title": "m"}, {"id": 5, "title": "q"}]


def capture(second: dict) -> HarBuilder:
    """Both boards listed and read, a card created on each, board 2's list read first after them
    (showing ``second`` first), then board 1's (the first card last)."""
    har = HarBuilder()
    har.call("GET", "/boards/1/cards", response=ONE).call("GET", "/boards/2/cards", response=TWO)
    for card in ONE:
        har.call("GET", f"/boards/1/cards/{card['id']}", response=card)
    for card in TWO:
        har.call("GET", f"/boards/2/cards/{card['id']}", response=card)
    first = {"id": 3, "title": "z"}
    har.call("POST", "/boards/1/cards", body={"title": "z"}, status=201, response=first)
    har.call("GET", "/boards/1/cards/3", response=first)
    har.call("POST", "/boards/2/cards", body={"title": second["title"]}, status=201, response=second)
    har.call("GET", f"/boards/2/cards/{second['id']}", response=second)
    har.call("GET", "/boards/2/cards", response=[second, *TWO])
    return har.call("GET", "/boards/1/cards", response=[*ONE, first])


@pytest.fixture(scope="module")
def ambiguous(tmp_path_factory):
    return build_from(capture({"id": 6, "title": "a"}), tmp_path_factory.mktemp("ambiguous") / "capture.har")


def test_a_place_another_order_explains_alike_is_unproven(ambiguous) -> None:
    made = plan(ambiguous, "POST", "/boards/{board_id}/cards")
    assert made.served, made.reason
    assert made.insert is not None and made.insert.unproven, made.insert
    traced = [e for e in ambiguous.view.traces if e.table == "gate" and e.evidence.get("alike")]
    assert traced and "first" in traced[0].evidence["alike"] and "title ascending" in traced[0].evidence["alike"]
    runtime = EnvironmentRuntime(ambiguous)
    try:
        assert not runtime.call_tool("get_cards", {"board_id": "2"}).is_error  # as recorded
        answer = runtime.call_tool(made.tool, {"board_id": "2", "body": {"title": "b"}})
        assert not answer.is_error, answer.structured
        refused = runtime.call_tool("get_cards", {"board_id": "2"})
        assert refused.is_error and "a served create or update placed" in refused.structured["message"]
        runtime.data_reset()
        assert not runtime.call_tool("get_cards", {"board_id": "2"}).is_error
    finally:
        runtime.close()
