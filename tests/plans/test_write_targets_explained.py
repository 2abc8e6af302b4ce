"""Where a write tool's path lies, as write-effects "Effects" and "Documents" read it, and the
explanation a user gets when the path gives the tool no effect: a document write needs a
document the state holds at its path ("a write is served only at the path the state holds the
document at"), so a path a document view first read after the initial window is no document
writer's."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

C = {"id": 3, "title": "c"}


def _settings_read_only_after_the_window(method: str):
    return build_from(items_app()
                      .call("POST", "/items", body={"title": "c"}, status=201, response=C)    # 4: ends the window
                      .call("GET", "/items/3", response=C)                                    # 5
                      .call("GET", "/settings", response={"theme": "light", "lang": "en"})    # 6: after the window
                      .call(method, "/settings", body={"theme": "dark"}, response={"theme": "dark", "lang": "en"})
                      .call("GET", "/settings", response={"theme": "dark", "lang": "en"}))    # 8


def test_a_write_where_the_state_holds_no_document_is_no_document_write():
    write = plan(_settings_read_only_after_the_window("PATCH"), "PATCH", "/settings")
    assert (write.effect, write.served, write.reason) == ("none", False, "no-effect")
    notes = [e.reason or "" for e in write.traces if e.rule_id is None and e.table == "plans"]
    assert any("the state holds no document there" in n and "/settings" in n for n in notes), notes


def test_a_write_where_the_state_holds_the_document_stays_a_document_write():
    bundle = build_from(items_app()
                        .call("GET", "/settings", response={"theme": "light", "lang": "en"})   # 4: in the window
                        .call("PATCH", "/settings", body={"theme": "dark"}, response={"theme": "dark", "lang": "en"})
                        .call("GET", "/settings", response={"theme": "dark", "lang": "en"}))
    write = plan(bundle, "PATCH", "/settings")
    assert (write.effect, write.document_path) == ("document", "/settings")
    assert write.served and write.checked_record_ordinals == (6,)
    assert not any("holds no document" in (e.reason or "") for e in write.traces)
