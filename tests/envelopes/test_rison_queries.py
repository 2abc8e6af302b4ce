"""A list whose sort, page and filters arrive as members of one rison query parameter
(Flask-AppBuilder's ``q=(order_column:name,order_direction:desc,page:0,page_size:2)``,
``filters:!((col:name,opr:ct,value:ent))``; ``structured-query.rison-object``): each member is
learned as a plain parameter is, where the recordings prove it, and answered from the state after a
served create; the envelope's ``ids`` (the page's ids) and ``count`` (all the filters select) follow
the state. What the recordings do not prove is refused, saying what would be accepted: a column no
recording sorted or filtered by, a member sent as another kind (``page:'0'``), a sort without its
direction, a page size of 0 no recording sent, a ``q`` that is no rison object."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.structured_queries import expanded, members
from capenv.serving.runtime import EnvironmentRuntime

COLUMNS = ["id", "name", "descr"]
L1, L2, L3 = ({"id": n, "name": name, "descr": descr}
              for n, name, descr in ((1, "Releases", "Product releases"), (2, "Incidents", "Outages and fixes"),
                                     (3, "Campaigns", "Marketing pushes")))
NEW = {"id": 4, "name": "Audits", "descr": "Yearly reviews"}


def page(items: list, count: int | None = None, columns: list[str] = COLUMNS) -> dict:
    return {"count": len(items) if count is None else count, "ids": [i["id"] for i in items],
            "list_columns": columns, "result": items}


def capture() -> HarBuilder:
    builder = (HarBuilder()
               .call("GET", "/api/layer/", response=page([L1, L2, L3]))
               .call("GET", "/api/layer/1", response=L1))
    for q, items, count in (("(order_column:name,order_direction:asc)", [L3, L2, L1], 3),
                            ("(order_column:name,order_direction:desc)", [L1, L2, L3], 3),
                            ("(page:0,page_size:2)", [L1, L2], 3),
                            ("(page:1,page_size:2)", [L3], 3),
                            ("(filters:!((col:name,opr:ct,value:ent)))", [L2], 1),
                            ("(filters:!((col:name,opr:sw,value:Rel)))", [L1], 1)):
        builder = builder.call("GET", "/api/layer/", query=[("q", q)], response=page(items, count))
    projected = [{"id": i["id"], "name": i["name"]} for i in (L1, L2, L3)]
    return (builder
            .call("GET", "/api/layer/", query=[("q", "(columns:!(id,name))")],
                  response=page(projected, columns=["id", "name"]))
            .call("POST", "/api/layer/", body={"name": "Audits", "descr": "Yearly reviews"}, response=NEW)
            .call("GET", "/api/layer/4", response=NEW)
            .call("GET", "/api/layer/", response=page([L1, L2, L3, NEW])))


def after_create() -> EnvironmentRuntime:
    runtime = EnvironmentRuntime(build_from(capture()))
    assert not runtime.call_tool("post_root", {"body": {"name": "Audits", "descr": "Yearly reviews"}}).is_error
    return runtime


def listed(runtime: EnvironmentRuntime, q: str) -> dict:
    result = runtime.call_tool("get_root", {"query": {"q": q}})
    assert not result.is_error, result.structured
    return result.structured["body"] if "body" in result.structured else result.structured


def refusal(runtime: EnvironmentRuntime, q: str) -> str:
    result = runtime.call_tool("get_root", {"query": {"q": q}})
    assert result.is_error, result.structured
    return result.structured["message"]


def test_members_read_as_plain_values_with_their_kinds():
    assert members("(page:0,order_column:name,published:!t,value:'1.1')", "rison") == [
        ("page", "0", "number"), ("order_column", "name", "text"), ("published", "true", "boolean"),
        ("value", "1.1", "text")]
    assert members("(filters:!((col:name,opr:ct,value:ent)))", "rison") == [
        ("filters", '[{"col":"name","opr":"ct","value":"ent"}]', "array")]
    for text in ("!(4,5)", "release notes", "()", "(filters:!((col:name", "(a:b"):
        assert members(text, "rison") is None
    assert expanded((("q", "(page:0)"), ("x", "1")), {"q": "rison"}) == ((("q.page", "0"), ("x", "1")),
                                                                        {"q.page": "number"})
    assert expanded((("q.page", "0"),), {"q": "rison"}) is None  # a plain parameter spelled as a member


def test_the_members_are_learned_as_the_plain_parameters_they_are():
    bundle = build_from(capture())
    view = bundle.view.view("get_root")
    learned = {q.param: (q.kind, q.rule_id, q.container) for q in view.learned_queries}
    assert learned == {
        "q.order_column": ("sort", "learned-query.sort-column", "q"),
        "q.order_direction": ("order", "learned-query.order", "q"),
        "q.page": ("page", "learned-query.page-from-zero", "q"),
        "q.page_size": ("limit", "learned-query.limit", "q"),
        "q.filters": ("expression", "learned-query.column-filters", "q")}
    filters = next(q for q in view.learned_queries if q.param == "q.filters")
    assert filters.proven_clauses == ("name icontains:text", "name istartswith:text")
    roles = {m.pointer: m.role for m in view.envelope_members}
    assert roles["/count"] == "count" and roles["/ids"] == "listed-field"
    # the projected line's own list_columns is its query's doing, not the state's
    assert roles["/list_columns"] in ("constant", "whole-constant")


def test_lists_after_a_served_create_answer_from_the_state():
    runtime = after_create()
    body = listed(runtime, "(order_column:name,order_direction:asc)")
    assert [i["name"] for i in body["result"]] == ["Audits", "Campaigns", "Incidents", "Releases"]
    assert body["ids"] == [4, 3, 2, 1] and body["count"] == 4
    body = listed(runtime, "(order_column:name,order_direction:desc,page:1,page_size:3)")  # never recorded together
    assert body["ids"] == [4] and body["count"] == 4
    body = listed(runtime, "(filters:!((col:name,opr:ct,value:DIT)))")
    assert body["ids"] == [4] and body["count"] == 1
    body = listed(runtime, "(filters:!((col:name,opr:sw,value:a)),page:0,page_size:1)")
    assert body["ids"] == [4] and body["count"] == 1


@pytest.mark.parametrize("q,says", [
    ("(order_column:descr,order_direction:asc)", "no recording sorted by"),
    ("(order_column:name)", "without its direction"),
    ("(page:'0',page_size:2)", "sent as a text"),
    ("(page:0,page_size:'2')", "sent as a text"),
    ("(filters:!((col:descr,opr:ct,value:x)))", "descr icontains:text"),
    ("(filters:!((col:name,opr:eq,value:Audits)))", "name ==:text"),
    ("(filters:!((col:name,opr:ct,value:'a%')))", "wildcards"),
    ("(filters:!((col:colour,opr:ct,value:x)))", "no field"),
    ("(order_column:name,order_direction:DESC)", "spells a sort direction"),
    ("(page:0,page_size:0)", "no recording sent a size of 0"),  # Flask-AppBuilder then lists everything
    ("(page_size:0)", "no recording sent a size of 0"),
])
def test_what_the_recordings_do_not_prove_is_refused(q, says):
    assert says in refusal(after_create(), q)


def test_a_q_that_is_no_rison_object_or_holds_an_unlearned_member_is_not_answered_from_the_state():
    runtime = after_create()
    for q in ("(filters:!((col:name", "(columns:!(id))", "!(1,2)"):
        assert runtime.call_tool("get_root", {"query": {"q": q}}).is_error


def test_a_page_before_the_first_proves_no_reading_and_is_refused():
    from capenv.interpreter.bundle.models import QuerySpec
    from capenv.serving.reads.queries import evaluate_queries, unproven
    specs = (QuerySpec(param="_page", kind="page", operator="1"), QuerySpec(param="_limit", kind="limit"))
    rows = [{"id": n} for n in (1, 2, 3)]
    query = (("_page", "0"), ("_limit", "2"))
    # counted from 1, page 0 lists nothing (so a recording listing the first page there rejects the
    # reading, leaving the count from 0), and serving refuses it rather than guess
    assert evaluate_queries(rows, specs, query) == []
    assert "before the first" in unproven(specs, query, {"id"})
    assert unproven(specs, (("_page", "1"), ("_limit", "2")), {"id"}) is None
    assert [r["id"] for r in evaluate_queries(rows, specs, (("_page", "2"), ("_limit", "2")))] == [3]
