"""Gate sentences the spec-coverage table had no test for (write-effects, "The gate" and
"Exemplar"): an entity a modelled write touched is never taken back from a read, a later call
sent with another query or wrapped otherwise brings its entity to the recorded outcome without
attribution, a recorded document write at another path than the state holds is unmodelled, and
a 2xx JSON null read of an entity the copy does not hold agrees with it."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary
from support.har_builder import HarBuilder

C = {"id": 3, "title": "c"}


def _notes(write) -> list[str]:
    """The gate's notes on the plan's calls, as its trace carries them."""
    return [e.reason or "" for e in write.traces if e.table == "gate" and e.evidence.get("kind") == "call"]


# --- G14: never taken back ------------------------------------------------------------------

def _create_delete_then_import(shown_after: dict):
    """Item 3 is created (read back), deleted, then a write no built plan models runs (a POST to
    a path of no type, which may make entities) before a read that shows item 3 again."""
    return build_from(items_app()
                      .call("POST", "/items", body={"title": "c"}, status=201, response=C)       # 4
                      .call("GET", "/items/3", response=C)                                       # 5
                      .call("DELETE", "/items/3", status=204)                                    # 6
                      .call("POST", "/imports", body={"url": "http://x"}, response={"ok": True})  # 7
                      .call("GET", "/items/3", response=shown_after))                            # 8


def test_an_entity_a_modelled_write_removed_is_never_taken_back_from_a_later_read():
    """G14: the delete touched item 3, so the read after the import is checked, not taken as a
    new entity the import made: it shows item 3 still there, which contradicts the delete."""
    bundle = _create_delete_then_import(C)
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 8), summary(bundle)


def test_an_entity_no_modelled_write_touched_is_taken_from_the_read_after_that_import():
    """G14's counterpart (G12): item 4, which nothing modelled touched, is taken from its read, so
    the same capture with that read instead leaves the delete uncontradicted."""
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)       # 4
                        .call("GET", "/items/3", response=C)                                       # 5
                        .call("DELETE", "/items/3", status=204)                                    # 6
                        .call("POST", "/imports", body={"url": "http://x"}, response={"ok": True})  # 7
                        .call("GET", "/items/4", response={"id": 4, "title": "imported"})         # 8
                        .call("GET", "/items/3", status=404, response={"error": "not found"}))    # 9
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert delete.served and delete.checked_record_ordinals == (9,), summary(bundle)


# --- E6 / G3: another query, another envelope -----------------------------------------------

def _update_then_later_call(later_query: str | None, envelope: str | None = None, wrap_later: bool = True):
    """The exemplar updates item 1 (read back as record 5); a later call updates item 2 (record 6),
    which read 7 shows as the call recorded it."""
    def body(title: str, wrapped: bool) -> dict:
        return {envelope: [{"title": title}]} if envelope and wrapped else {"title": title}
    return build_from(items_app()
                      .call("PATCH", "/items/1", body=body("x", True), response={"id": 1, "title": "x"})  # 4
                      .call("GET", "/items/1", response={"id": 1, "title": "x"})                          # 5
                      .call("PATCH", "/items/2", query=later_query, body=body("y", wrap_later),
                            response={"id": 2, "title": "y"})                                             # 6
                      .call("GET", "/items/2", response={"id": 2, "title": "y"}))                         # 7


def _unexplained(update, ordinal: int) -> bool:
    return any(n.startswith(f"record {ordinal}: the plan does not explain this call") for n in _notes(update))


def test_a_later_call_sent_as_recorded_is_modelled_and_checked_by_its_read():
    """E6's counterpart: sent as the exemplar was, record 6 is modelled and read 7 confirms it."""
    update = plan(_update_then_later_call(None), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5, 7), update.reason
    assert not _unexplained(update, 6)


def test_a_later_call_sent_with_another_query_takes_its_recorded_outcome_without_attribution():
    """E6, G3: serving refuses a query the exemplar did not send, so the gate brings item 2 to what
    record 6 recorded instead of applying the plan: read 7 agrees but checks nothing of the plan."""
    update = plan(_update_then_later_call("notify=1"), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5,), update.reason
    assert _unexplained(update, 6), _notes(update)


def test_a_later_call_wrapped_otherwise_takes_its_recorded_outcome_without_attribution():
    """E6: the exemplar wraps its object in a one-element ``item`` array; a later call sending the
    object bare is one serving refuses, so it takes its recorded outcome without attribution,
    while a later call wrapped the same way is modelled and checked."""
    wrapped = plan(_update_then_later_call(None, envelope="item"), "PATCH", "/items/{item_id}")
    assert wrapped.served and wrapped.checked_record_ordinals == (5, 7), wrapped.reason
    bare = plan(_update_then_later_call(None, envelope="item", wrap_later=False), "PATCH", "/items/{item_id}")
    assert bare.served and bare.checked_record_ordinals == (5,), bare.reason
    assert _unexplained(bare, 6), _notes(bare)


# --- Doc3: a document write at another path ---------------------------------------------------

def test_a_recorded_document_write_at_another_path_is_unmodelled():
    """Doc3: the plan writes the document at its exemplar's path (org 11's); a later recorded write
    at org 12's is one serving refuses, so the gate does not model it and the read of org 12's
    document confirms nothing of the plan. (lang, never sent, shows the PATCH merges:
    document-write.merge-unshown.)"""
    bundle = build_from(HarBuilder()
                        .call("GET", "/orgs", response=[{"id": 11, "name": "a"}, {"id": 12, "name": "b"}])
                        .call("GET", "/orgs/11/settings", response={"theme": "light", "lang": "en"})                           # 2
                        .call("GET", "/orgs/12/settings", response={"theme": "light", "lang": "en"})                           # 3
                        .call("PATCH", "/orgs/11/settings", body={"theme": "dark"}, response={"theme": "dark", "lang": "en"})  # 4
                        .call("GET", "/orgs/11/settings", response={"theme": "dark", "lang": "en"})                            # 5
                        .call("PATCH", "/orgs/12/settings", body={"theme": "blue"}, response={"theme": "blue", "lang": "en"})  # 6
                        .call("GET", "/orgs/12/settings", response={"theme": "blue", "lang": "en"}))                           # 7
    document = plan(bundle, "PATCH", "/orgs/{org_id}/settings")
    assert (document.effect, document.document_path) == ("document", "/orgs/11/settings")
    assert document.served and document.checked_record_ordinals == (5,), summary(bundle)
    assert any(n.startswith("record 6: the plan does not explain this call") and "/orgs/12/settings" in n
               for n in _notes(document)), _notes(document)


# --- G22: a JSON null read ------------------------------------------------------------------------

def test_a_2xx_json_null_read_of_an_entity_the_copy_does_not_hold_agrees_with_it():
    """G22: after the delete the copy does not hold item 2; a 200 answering ``null`` is an
    absence, so it confirms the delete."""
    bundle = build_from(items_app()
                        .call("DELETE", "/items/2", status=204)       # 4
                        .call("GET", "/items/2", response="null"))    # 5
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert delete.served and delete.checked_record_ordinals == (5,), summary(bundle)
