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


def _no_effect_reasons(write) -> list[str]:
    assert (write.effect, write.reason) == ("none", "no-effect")
    return [e.reason or "" for e in write.traces if e.table == "plans" and (e.reason or "").startswith("no effect:")]


def test_a_literal_segment_where_the_item_path_names_an_entity_is_explained():
    bundle = build_from(items_app()
                        .call("PUT", "/items/bad%20id!", body={"title": "x"}, status=400, response={"error": "bad id"})
                        .call("PUT", "/items/featured", body={"title": "x"}, response={"ok": True}))
    reasons = _no_effect_reasons(plan(bundle, "PUT", "/items/featured"))
    assert len(reasons) == 1 and "'featured'" in reasons[0] and "/items/{item_id}" in reasons[0], reasons
    assert "left it literal" in reasons[0]


def test_a_write_naming_its_entity_by_a_proven_key_is_an_update_addressed_by_it():
    one, two = {"id": 1, "name": "alpha01x", "title": "t1"}, {"id": 2, "name": "beta02xy", "title": "t2"}
    bundle = build_from(items_app([one, two])
                        .call("GET", "/items/name/alpha01x", response=one)
                        .call("GET", "/items/name/beta02xy", response=two)
                        .call("PATCH", "/items/name/alpha01x", body={"title": "z"}, response={**one, "title": "z"})
                        .call("PATCH", "/items/name/beta02xy", body={"title": "y"}, response={**two, "title": "y"}))
    write = plan(bundle, "PATCH", "/items/name/{name}")
    assert write.effect == "update" and write.address is not None and write.address.member == "name"


def test_a_write_naming_its_entity_by_an_unproven_key_is_explained():
    one, two = {"id": 1, "name": "alpha01x", "title": "t1"}, {"id": 2, "name": "beta02xy", "title": "t2"}
    bundle = build_from(items_app([one, two])
                        .call("GET", "/items/name/alpha01x", response=one)
                        .call("GET", "/items/name/beta02xy", response=two)
                        # no item held before the call holds this name: the key is not proven
                        .call("PATCH", "/items/name/gamma03z", body={"title": "z"}, response={"ok": True}))
    reasons = _no_effect_reasons(plan(bundle, "PATCH", "/items/name/{name}"))
    assert reasons == ["no effect: the path /items/name/{name} names an entity of items by another key than its item "
                       "path /items/{item_id}, which the capture does not prove (write-item-keys): such a write is "
                       "modelled only where the key is proven"], reasons
    write = plan(bundle, "PATCH", "/items/name/{name}")
    assert any(e.rule_id == "item-key.read-by-key" and "no entity held before it" in (e.reason or "")
               for e in write.traces)


def test_a_write_at_no_type_or_document_path_is_explained():
    bundle = build_from(items_app().call("PATCH", "/jobs/run", body={"now": True}, response={"ok": True}))
    reasons = _no_effect_reasons(plan(bundle, "PATCH", "/jobs/run"))
    assert reasons == ["no effect: the path /jobs/run is no type's item or collection path, nor one the state holds "
                       "a document at"], reasons
