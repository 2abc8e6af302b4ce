"""A segment whose few values are words each leading to a different kind of entity (a headless
CMS's ``/items/{collection}``) is a literal, one type per value, with its own id space; values
of one kind stay a parameter."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ARTICLE = {"id": 5, "title": "Hello", "body": "text", "author": 5}
ARTICLE_6 = {"id": 6, "title": "Again", "body": "more", "author": 5}
AUTHOR = {"id": 5, "name": "Ann", "email": "ann@example.com"}
AUTHOR_7 = {"id": 7, "name": "Bob", "email": "bob@example.com"}


def cms() -> HarBuilder:
    return (HarBuilder().call("GET", "/collections", response={"data": [{"collection": "articles", "name": "articles"},
                                                                        {"collection": "authors", "name": "authors"}]})
            .call("GET", "/items/articles", response={"data": [ARTICLE, ARTICLE_6]})
            .call("GET", "/items/authors", response={"data": [AUTHOR, AUTHOR_7]})
            .call("GET", "/items/articles/5", response={"data": ARTICLE})
            .call("GET", "/items/articles/6", response={"data": ARTICLE_6})
            .call("GET", "/items/authors/5", response={"data": AUTHOR})
            .call("GET", "/items/authors/7", response={"data": AUTHOR_7}))


def test_each_word_is_a_literal_and_a_type_of_its_own():
    bundle = build_from(cms())
    templates = {t.template for t in bundle.manifest.tools}
    assert templates == {"/collections", "/items/articles", "/items/authors",
                         "/items/articles/{article_id}", "/items/authors/{author_id}"}
    types = {t.name: (t.collection_template, t.item_template) for t in bundle.view.types}
    assert types["articles"] == ("/items/articles", "/items/articles/{article_id}")
    assert types["authors"] == ("/items/authors", "/items/authors/{author_id}")
    why = [e for e in bundle.manifest.traces if e.rule_id == "segment.kind-word"]
    assert {e.subject for e in why} == {"/items/articles", "/items/authors"}


def test_colliding_ids_never_answer_one_kind_with_the_other():
    runtime = EnvironmentRuntime(build_from(cms()))
    article = runtime.call_tool("get_items_articles_by_article_id", {"article_id": "5"})
    author = runtime.call_tool("get_items_authors_by_author_id", {"author_id": "5"})
    assert article.structured["body"]["data"] == ARTICLE and author.structured["body"]["data"] == AUTHOR
    unseen = runtime.call_tool("get_items_authors_by_author_id", {"author_id": "6"})  # only article 6 exists
    assert unseen.is_error or unseen.structured["status"] >= 400


def test_values_of_one_kind_stay_a_parameter():
    har = (HarBuilder().call("GET", "/boards", response=[{"id": "alpha", "title": "A"}, {"id": "beta", "title": "B"}])
           .call("GET", "/boards/alpha", response={"id": "alpha", "title": "A"})
           .call("GET", "/boards/beta", response={"id": "beta", "title": "B"}))
    assert {t.template for t in build_from(har).manifest.tools} == {"/boards", "/boards/{board_id}"}


def test_an_empty_list_of_a_third_word_shows_no_kind_and_splits_nothing():
    # {"data": []} of a collection holding nothing yet shows no entity: before, its envelope's
    # members counted as a kind, and two empty collections "shared every member", which made
    # /items/{collection} one type whose plans knew one collection's members
    har = (cms().call("GET", "/collections", response={"data": [{"collection": "tags", "name": "tags"},
                                                              {"collection": "notes", "name": "notes"}]})
           .call("GET", "/items/tags", response={"data": []})
           .call("GET", "/items/notes", response={"data": []}))
    templates = {t.template for t in build_from(har).manifest.tools}
    assert {"/items/articles", "/items/authors", "/items/articles/{article_id}",
            "/items/authors/{author_id}"} <= templates


def test_root_words_stay_literal_though_one_reads_its_own_name_and_a_list_reads_like_items_below_a_word():
    # an admin API at the root: /report answers {"report": "report", ...} (its own name read back,
    # which lends its spelling to the other words), /tabs lists what /tab/{id} reads one at a
    # time (the two read one kind), /tab has no read of its own: like is compared with like, the
    # words with reads of their own, which all differ in kind
    tab_a = {"id": "a1b2c3d4e5f60001", "label": "Sensors", "type": "tab", "nodes": []}
    tab_b = {"id": "a1b2c3d4e5f60002", "label": "Alerts", "type": "tab", "nodes": []}
    har = (HarBuilder()
           .call("GET", "/settings", response={"version": "4.1", "httpRoot": "/", "theme": "dark"})
           .call("GET", "/report", response={"report": "report", "scope": "basic", "uptime": 12})
           .call("GET", "/tabs", response=[{k: v for k, v in tab_a.items() if k != "nodes"},
                                           {k: v for k, v in tab_b.items() if k != "nodes"}])
           .call("GET", "/tab/a1b2c3d4e5f60001", response=tab_a)
           .call("GET", "/tab/a1b2c3d4e5f60002", response=tab_b)
           .call("GET", "/modules", response=[{"module": "core", "enabled": True, "version": "4.1"}]))
    templates = {t.template for t in build_from(har).manifest.tools}
    assert templates == {"/settings", "/report", "/tabs", "/tab/{tab_id}", "/modules"}



def test_words_whose_lists_sit_in_a_list_envelope_inside_an_envelope_stay_literals():
    # found by wrapping every answer of a capture in {"data": …}: a page envelope inside it
    # ({"data": {"ok": true, "next": null, "rows": [...]}}) showed its envelope's members as each
    # word's kind, the same for every word, and /db/articles and /db/authors became one
    # /db/{db_id} whose plans knew one collection's members
    def page(rows: list) -> dict:
        return {"data": {"ok": True, "next": None, "rows": rows}}

    def row(table: str, entity: dict) -> dict:  # the answer names its table as a member
        return {"data": {"ok": True, "table": table, "rows": [entity], "primary_key_values": [str(entity["id"])]}}

    har = HarBuilder()
    for name, rows in (("articles", [ARTICLE, ARTICLE_6]), ("authors", [AUTHOR, AUTHOR_7])):
        har.call("GET", f"/db/{name}.json", response={"data": {**page(rows)["data"], "table": name}})
        for entity in rows:
            har.call("GET", f"/db/{name}/{entity['id']}.json", response=row(name, entity))
    templates = {t.template for t in build_from(har).manifest.tools}
    assert templates == {"/db/articles", "/db/authors", "/db/articles/{article_id}", "/db/authors/{author_id}"}
