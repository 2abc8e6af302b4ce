"""A write whose call sent in its query a value the entity at its path held when the call began (a
revision it read back: ``DELETE /notes/gamma?rev=1-…``) carries a precondition the application
checks: serving takes a query parameter only with its recorded value, which another entity does not
hold, so it would delete where the application refuses the stale value. The plan is not built
(``precondition.held-value-query``, reason ``precondition-query``); a query value the entity never
held (``?force=true``) leaves the delete served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

NOTES = {"alpha": "1-3f6c0a9d2b7e4c1f8a5d6e7b9c0a1b2c", "beta": "1-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",
         "gamma": "1-0a1b2c3d4e5f60718293a4b5c6d7e8f9"}
MISSING = {"error": "not_found", "reason": "deleted"}


def note(key: str) -> dict:
    return {"text": f"note {key}", "_id": key, "_rev": NOTES[key]}


def notes_app(query_of) -> HarBuilder:
    har = HarBuilder().call("GET", "/notes", response=[note(k) for k in NOTES])
    for key in NOTES:
        har = har.call("GET", f"/notes/{key}", response=note(key))
    for key, left in (("gamma", ["alpha", "beta"]), ("beta", ["alpha"])):
        # answered {"ok": true} alone: an answer naming the key would keep the delete unserved
        # (verdict.answer-names-call), whatever its query
        har = (har.call("DELETE", f"/notes/{key}", query=query_of(key), response={"ok": True})
               .call("GET", f"/notes/{key}", status=404, response=MISSING)
               .call("GET", "/notes", response=[note(k) for k in left]))
    return har


def test_a_delete_sending_back_the_revision_it_read_is_not_served():
    delete = plan(build_from(notes_app(lambda key: {"rev": NOTES[key]})), "DELETE", "/notes/{note_id}")
    assert (delete.served, delete.build_reason) == (False, "precondition-query")
    rule = next(e for e in delete.traces if e.rule_id == "precondition.held-value-query")
    assert (rule.evidence["parameter"], rule.evidence["member"]) == ("rev", "_rev")


def test_a_query_value_the_entity_never_held_leaves_the_delete_served():
    delete = plan(build_from(notes_app(lambda key: {"force": "true"})), "DELETE", "/notes/{note_id}")
    assert delete.served, delete.reason
