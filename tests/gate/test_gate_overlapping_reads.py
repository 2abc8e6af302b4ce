"""A read made while a modelled write to its collection was still running checks nothing
(write-effects, "The gate", "Reads"), whichever spelling of the collection's path it uses: its
collection is the one serving answers it from, each segment verbatim or once percent-decoded."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

CARDS = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
C = {"id": 3, "title": "c"}
# the board "a:b" is held under its plain spelling; "a%3Ab" (also a board, so both spellings are
# identities the manifest makes a parameter of) holds no cards
BOARDS = [{"id": "a:b", "name": "A"}, {"id": "c-d", "name": "C"}, {"id": "a%3Ab", "name": "E"}]


def _create_with_a_list_read_running(list_path: str, started: str):
    return build_from(HarBuilder()
                      .call("GET", "/boards", response=BOARDS)                                         # 1
                      .call("GET", "/boards/a:b/cards", response=CARDS)                                # 2
                      .call("GET", "/boards/c-d/cards", response=[{"id": 11, "title": "m1"}])          # 3
                      .call("GET", "/boards/a:b/cards/1", response=CARDS[0])                           # 4
                      .call("GET", "/boards/c-d/cards/11", response={"id": 11, "title": "m1"})         # 5
                      .call("POST", "/boards/a:b/cards", body={"title": "c"}, status=201, response=C,
                            started="2026-01-01T00:00:01Z", duration_ms=500)                           # 6
                      .call("GET", list_path, response=CARDS, started=started)                         # 7: before
                      .call("GET", "/boards/a:b/cards/3", response=C, started="2026-01-01T00:00:02Z"))  # 8


@pytest.mark.parametrize("list_path", ["/boards/a:b/cards", "/boards/a%3Ab/cards"])
def test_a_list_read_overlapping_a_create_checks_nothing_whatever_its_spelling(list_path):
    create = plan(_create_with_a_list_read_running(list_path, "2026-01-01T00:00:01.100Z"),
                  "POST", "/boards/{board_id}/cards")
    assert create.contradicted_by is None
    assert create.served and create.checked_record_ordinals == (8,)


@pytest.mark.parametrize("list_path", ["/boards/a:b/cards", "/boards/a%3Ab/cards"])
def test_the_same_read_after_the_create_ended_is_checked(list_path):
    # it starts after the create ended: it lists the collection without the new card
    create = plan(_create_with_a_list_read_running(list_path, "2026-01-01T00:00:01.600Z"),
                  "POST", "/boards/{board_id}/cards")
    assert (create.reason, create.contradicted_by) == ("contradicted", 7)
