"""Shallow nesting (``view-shallow-items``): a resource listed under its parent
(``/boards/{board}/cards``) and read, updated and deleted at a top-level item path
(``/cards/{id}``) is one state type, so a write at the item path changes what the parent's list
shows; an item path whose entities the list does not show alike stays a type of its own."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

C1 = {"id": 1, "board": {"id": 11}, "title": "plan", "state": "open"}
C2 = {"id": 2, "board": {"id": 11}, "title": "build", "state": "open"}
C3 = {"id": 3, "board": {"id": 12}, "title": "ship", "state": "open"}


def cards_app(list_title_of_three: str = "ship") -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/boards/11/cards", response={"cards": [C1, C2]})
    har.call("GET", "/boards/12/cards", response={"cards": [{**C3, "title": list_title_of_three}]})
    for card in (C1, C2, C3):
        har.call("GET", f"/cards/{card['id']}", response={"card": card})
    har.call("GET", "/cards/9", status=404, response={"error": "not found"})
    har.call("PUT", "/cards/1", body={"card": {"state": "done"}}, status=204)
    har.call("GET", "/cards/1", response={"card": {**C1, "state": "done"}})
    har.call("GET", "/boards/11/cards", response={"cards": [{**C1, "state": "done"}, C2]})
    har.call("PUT", "/cards/3", body={"card": {"title": "launch"}}, status=204)
    har.call("GET", "/cards/3", response={"card": {**C3, "title": "launch"}})
    har.call("GET", "/boards/12/cards", response={"cards": [{**C3, "title": "launch"}]})
    har.call("DELETE", "/cards/2", status=204)
    har.call("GET", "/cards/2", status=404, response={"error": "not found"})
    har.call("GET", "/boards/11/cards", response={"cards": [{**C1, "state": "done"}]})
    return har


def call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None):
    answer = runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode() if body is not None else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_item_path_and_nested_list_make_one_type():
    bundle = build_from(cards_app())
    cards = next(t for t in bundle.view.types if t.name == "cards")
    assert cards.collection_template.startswith("/boards/{") and cards.collection_template.endswith("}/cards")
    assert cards.item_template == "/cards/{card_id}"
    assert cards.shallow_items == "shallow-items.same-entities"
    assert [t.name for t in bundle.view.types].count("cards") == 1 and len(bundle.view.types) == 1
    served = {p.method for p in bundle.view.writes if p.served}
    assert served == {"PUT", "DELETE"}, [(p.tool, p.reason) for p in bundle.view.writes]


def test_writes_at_the_item_path_change_the_parents_list():
    runtime = EnvironmentRuntime(build_from(cards_app()))
    assert call(runtime, "GET", "/cards/3") == (200, {"card": C3})
    assert call(runtime, "PUT", "/cards/3", {"card": {"state": "done"}})[0] == 204
    assert call(runtime, "GET", "/boards/12/cards") == (200, {"cards": [{**C3, "state": "done"}]})
    assert call(runtime, "DELETE", "/cards/1")[0] == 204
    assert call(runtime, "GET", "/boards/11/cards") == (200, {"cards": [C2]})
    assert call(runtime, "GET", "/cards/1")[0] == 404
    assert call(runtime, "DELETE", "/cards/1")[0] == 404


def test_entities_shown_otherwise_keep_two_types():
    """The item read of 3 and the list's 3 differ in the initial window: ids numbered per parent
    may name another entity under each, so the item path is not joined and its writes stay unserved
    rather than change an entity the list shows otherwise."""
    bundle = build_from(cards_app(list_title_of_three="other"))
    names = sorted(t.name for t in bundle.view.types)
    assert len(names) == 2, names
    assert not any(t.shallow_items for t in bundle.view.types)


def test_an_id_two_parents_hold_is_refused_at_the_item_path_and_changes_nothing():
    """Card 3 added under board 11 too (its own entity there): the item path names it by its id
    alone, so a write would change one copy and leave the other, and a read would answer either."""
    runtime = EnvironmentRuntime(build_from(cards_app()))
    state = json.loads(runtime.data_get())
    first = next(c for c in state["collections"] if c["path"].endswith("/11/cards"))
    first["entities"].append({"id": 3, "value": {**C3, "board": {"id": 11}, "title": "other"}})
    runtime.data_add(json.dumps(state).encode())
    before = runtime.data_get()
    status, body = call(runtime, "PUT", "/cards/3", {"card": {"state": "done"}})
    assert status >= 400 and "2 cards collections" in json.dumps(body), body
    assert call(runtime, "DELETE", "/cards/3")[0] >= 400
    status, body = call(runtime, "GET", "/cards/3")
    assert status == 409 and "they differ" in json.dumps(body), body
    assert runtime.data_get() == before


def test_compare_scopes_a_shallow_types_writes_over_both_paths():
    """A write the model did not make as the application did leaves later reads of the same
    entities expected to disagree: a create under a board reaches the item path, an item write
    every board's list."""
    from capenv.serving.compare.tool_index import ToolIndex, within

    har = cards_app()
    made = {"id": 4, "board": {"id": 12}, "title": "fly", "state": "open"}
    har.call("POST", "/boards/12/cards", body={"card": {"title": "fly"}}, status=201, response={"card": made})
    har.call("GET", "/cards/4", response={"card": made})
    index = ToolIndex(build_from(har))
    created = index.write_scopes("POST", "/boards/12/cards")
    assert any(within("/cards/9", scope) for scope in created), created
    assert not any(within("/boards/11/cards", scope) for scope in created), created
    updated = index.write_scopes("PUT", "/cards/3")
    assert any(within("/boards/12/cards", scope) for scope in updated), updated
    assert not any(within("/boards", scope) for scope in updated), updated
