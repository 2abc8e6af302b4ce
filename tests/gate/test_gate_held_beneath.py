"""A delete of an entity below whose item path the state holds documents or collections stays
unserved (``verdict.held-beneath``): the application may take them with it, as deleting a CouchDB
database takes its documents, while serving removes the entity alone and would go on answering
them. Without anything held below, the same delete is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

BOARDS = [{"id": "fiction", "label": "Fiction"}, {"id": "poetry", "label": "Poetry"},
           {"id": "travel", "label": "Travel"}]
MISSING = {"error": "not_found"}
SETTINGS = {"fiction": {"sort": "author", "public": True}, "poetry": {"sort": "title", "public": False},
            "travel": {"sort": "year", "public": True}}


def boards_app(with_settings: bool) -> HarBuilder:
    har = HarBuilder().call("GET", "/boards", response=BOARDS)
    for board in BOARDS:
        har = har.call("GET", f"/boards/{board['id']}", response=board)
        if with_settings:  # a document below each board's item path
            har = har.call("GET", f"/boards/{board['id']}/settings", response=SETTINGS[board["id"]])
    return (har.call("DELETE", "/boards/travel", response={"ok": True})
            .call("GET", "/boards/travel", status=404, response=MISSING)
            .call("GET", "/boards", response=BOARDS[:2])
            .call("DELETE", "/boards/poetry", response={"ok": True})
            .call("GET", "/boards/poetry", status=404, response=MISSING)
            .call("GET", "/boards", response=BOARDS[:1]))


def test_a_delete_with_documents_held_below_its_entities_is_not_served():
    bundle = build_from(boards_app(with_settings=True))
    assert {d.path for d in bundle.view.state.documents} >= {"/boards/fiction/settings"}, "the documents are held"
    delete = plan(bundle, "DELETE", "/boards/{board_id}")
    assert (delete.served, delete.reason) == (False, "held-beneath")
    verdict = next(e for e in delete.traces if e.rule_id == "verdict.held-beneath")
    assert "/boards/fiction/settings" in verdict.evidence["paths"]


def test_with_nothing_held_below_the_same_delete_is_served():
    delete = plan(build_from(boards_app(with_settings=False)), "DELETE", "/boards/{board_id}")
    assert delete.served, delete.reason
