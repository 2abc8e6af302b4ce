"""The gate chooses a list read's line as serving does, and a page of a whole list checks
nothing once the collection outgrows it (write-effects, "The gate", "Reads")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder

from capenv.interpreter.view.read_gate import choose_list_line

ITEMS = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
PATCHED = [{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}]


def _patch_then_list(path: str, query: str, initial_query: str):
    builder = HarBuilder().call("GET", f"/items{initial_query}", response=ITEMS)
    for entity in ITEMS:
        builder.call("GET", f"/items/{entity['id']}", response=entity)
    return build_from(builder
                      .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})  # 4
                      .call("GET", f"{path}{query}", response=PATCHED))                                 # 5


def test_a_read_with_a_reordered_query_is_checked_on_the_line_serving_chooses():
    update = plan(_patch_then_list("/items", "?b=2&a=1", "?a=1&b=2"), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5,)


def test_a_read_with_a_percent_encoded_query_value_is_checked():
    update = plan(_patch_then_list("/items", "?a=x%20y", "?a=x+y"), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5,)


def test_a_read_with_no_query_falls_back_on_a_whole_line_that_pages():
    update = plan(_patch_then_list("/items", "", "?limit=10"), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5,)


def test_a_create_past_the_page_does_not_contradict():
    c, d = {"id": 3, "title": "c"}, {"id": 4, "title": "d"}
    builder = items_app(ITEMS, HarBuilder().call("GET", "/items?limit=3", response=ITEMS))
    bundle = build_from(builder
                        .call("POST", "/items", body={"title": "c"}, status=201, response=c)   # 5
                        .call("POST", "/items", body={"title": "d"}, status=201, response=d)   # 6
                        .call("GET", "/items/3", response=c)                                  # 7
                        .call("GET", "/items/4", response=d)                                  # 8
                        .call("GET", "/items?limit=3", response=ITEMS + [c]))                 # 9: a page of 4
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None
    assert create.served and 9 not in create.checked_record_ordinals




def test_the_gate_chooses_a_line_for_a_percent_encoded_path_parameter_as_serving_does():
    builder = HarBuilder()
    others = [(f, [{"id": n, "title": f"t{n}"}]) for n, f in ((5, "20"), (6, "30"), (7, "40"))]
    for folder, entities in [("10", ITEMS)] + others:
        builder.call("GET", f"/folders/{folder}/items?a=1&b=2", response=entities)
        for entity in entities:
            builder.call("GET", f"/folders/{folder}/items/{entity['id']}", response=entity)
    bundle = build_from(builder)
    view = next(v for v in bundle.view.views if v.kind == "list")
    # "10" spelled percent-encoded, the query reordered: serving's line, with the query matched
    line, exact = choose_list_line(view, "/folders/%310/items", (("b", "2"), ("a", "1")))
    assert (line.path, exact) == ("/folders/10/items", True)
    assert choose_list_line(view, "/folders/%310/items", (("a", "2"),)) is None
    assert choose_list_line(view, "/folders/10/items", (("a", "1"), ("a", "2"), ("b", "2"))) is None
