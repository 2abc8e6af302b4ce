"""An entity only another caller was shown, which the principal's whole list left out, is that
caller's own (``view/extract.without_others_own``): two users with tokens nobody issued in the
capture, each shown their own weight entries (the list read with both tokens, nothing written
between, answered apart: ``credential-value.static-callers-answered-apart``); the principal's item
read of the other's entry answered 404. The state is the principal's view, so it holds the
principal's entries alone: the principal's recorded list and 404 agree with it, and the principal's
create and delete, checked against those reads, are served. Had the other's entry been in the state,
the principal's list would show it (a wrong answer) and no write could be confirmed.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime

ALICE = "Token capenv0alice000000000000000000001"
BOB = "Token capenv0bob00000000000000000000000002"
MINE = [{"id": 1, "date": "2026-01-05", "weight": 82.5}, {"id": 2, "date": "2026-01-12", "weight": 81.9}]
HIS = [{"id": 4, "date": "2026-01-06", "weight": 90.0}]
NEW = {"id": 5, "date": "2026-01-26", "weight": 80.8}
ABSENT = {"detail": "No WeightEntry matches the given query."}


def page(entries: list[dict]) -> dict:
    return {"count": len(entries), "results": entries}


def capture(*, kept_in_list: bool = False) -> HarBuilder:
    """With ``kept_in_list``, the delete leaves the entry in the principal's list (the item read
    answers 404, the list still shows it): a change the delete's plan does not make."""
    har = HarBuilder()
    alice = [("Authorization", ALICE)]
    bob = [("Authorization", BOB)]
    har.call("GET", "/api/entries/", response=page(MINE), headers=alice)
    har.call("GET", "/api/entries/1/", response=MINE[0], headers=alice)
    har.call("GET", "/api/entries/2/", response=MINE[1], headers=alice)
    har.call("GET", "/api/entries/", response=page(HIS), headers=bob)
    har.call("GET", "/api/entries/4/", response=HIS[0], headers=bob)
    har.call("GET", "/api/entries/4/", status=404, response=ABSENT, headers=alice)
    har.call("GET", "/api/entries/", response=page([]))  # nobody signed in: an anonymous caller's view
    har.call("GET", "/api/entries/999/", status=404, response=ABSENT, headers=alice)
    har.call("POST", "/api/entries/", body={"date": NEW["date"], "weight": NEW["weight"]}, status=201,
             response=NEW, headers=alice)
    har.call("GET", "/api/entries/5/", response=NEW, headers=alice)
    har.call("GET", "/api/entries/", response=page(MINE + [NEW]), headers=alice)
    other = {"id": 6, "date": "2026-02-02", "weight": 80.1}
    har.call("POST", "/api/entries/", body={"date": other["date"], "weight": other["weight"]}, status=201,
             response=other, headers=alice)
    har.call("GET", "/api/entries/6/", response=other, headers=alice)
    har.call("DELETE", "/api/entries/6/", status=204, headers=alice)
    har.call("GET", "/api/entries/6/", status=404, response=ABSENT, headers=alice)
    har.call("GET", "/api/entries/", response=page(MINE + [NEW] + ([other] if kept_in_list else [])), headers=alice)
    har.call("DELETE", "/api/entries/6/", status=404, response=ABSENT, headers=alice)
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("other-callers-own") / "capture.har")


def test_the_state_holds_the_principals_entries_alone(bundle) -> None:
    (entries,) = [c for c in bundle.view.state.collections if c.path == "/api/entries"]
    assert [e.id for e in entries.entities] == [1, 2]
    for method, template in (("POST", "/api/entries/"), ("DELETE", "/api/entries/{entry_id}/")):
        written = plan(bundle, method, template)
        assert written.served, (method, written.reason)


def test_a_change_the_principals_list_shows_is_checked_past_an_anonymous_read(tmp_path) -> None:
    """The anonymous caller's empty list is their view: it neither fails the principal's list
    nor stops the gate checking it, so the principal's list still showing the deleted entry
    contradicts the delete."""
    kept = build_from(capture(kept_in_list=True), tmp_path / "capture.har")
    assert plan(kept, "POST", "/api/entries/").served
    delete = plan(kept, "DELETE", "/api/entries/{entry_id}/")
    assert not delete.served and delete.reason in ("contradicted", "side-effect"), delete.reason


def test_the_principal_is_not_answered_the_other_callers_entry(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send(serving, "GET", "/api/entries/", headers={"Authorization": ALICE})
            assert status == 200 and [e["id"] for e in answer["results"]] == [1, 2], answer
            status, answer = send(serving, "GET", "/api/entries/4/", headers={"Authorization": ALICE})
            assert status == 404, answer
            # the other caller's count is their view, not a value of each answer: it follows the state
            status, _ = send(serving, "DELETE", "/api/entries/2/", headers={"Authorization": ALICE})
            assert status == 204
            status, answer = send(serving, "GET", "/api/entries/", headers={"Authorization": ALICE})
            assert status == 200 and answer["count"] == 1 and [e["id"] for e in answer["results"]] == [1], answer
    finally:
        runtime.close()
