"""Filter expressions in one query value (PocketBase's ``filter=(status='open' && views>=5)``,
``~`` a case-insensitive contains; ``learned-query.filter-expression``): learned only where the
recordings prove them, answered from the state after a served create, including values and fields
never recorded; a value that is no such expression, or compares a field the entities do not hold,
is refused with what would be accepted, and so is a comparison no recording made (an operator
with a kind of literal: ``!=`` on a text where only ``=`` was recorded). And an envelope counter a query changes alone
(``skipTotal=1`` answers ``totalItems: -1`` for the same listing) is no evidence against the
counter: the plain list still counts what the state holds after a create."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

A1, A2, A3 = ({"id": n, "title": t, "views": v, "status": s}
              for n, t, v, s in (("t6cu5l28akg4mky", "alpha", 10, "open"), ("cagzde72kg0rlkj", "Beta notes", 3, "done"),
                                 ("matavwrwme382xr", "gamma", 7, "open")))
NEW = {"id": "ruo4rq8e0nzally", "title": "delta", "views": 6, "status": "open"}


def page(items: list, total: int | None = None) -> dict:
    return {"page": 1, "perPage": 30, "totalItems": len(items) if total is None else total, "items": items}


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/records", response=page([A1, A2, A3]))
            .call("GET", f"/records/{A1['id']}", response=A1)
            .call("GET", "/records", query=[("filter", "(status='open')")], response=page([A1, A3]))
            .call("GET", "/records", query=[("filter", "(views>=5 && status='open')")], response=page([A1, A3]))
            .call("GET", "/records", query=[("filter", "(title~'NOTES')")], response=page([A2]))
            .call("GET", "/records", query=[("skipTotal", "1")], response=page([A1, A2, A3], total=-1))
            .call("POST", "/records", body={"title": "delta", "views": 6, "status": "open"}, response=NEW)
            .call("GET", f"/records/{NEW['id']}", response=NEW)
            .call("GET", "/records", response=page([A1, A2, A3, NEW])))


def titles(runtime: EnvironmentRuntime, expression: str) -> list[str]:
    return [r["title"] for r in runtime.read("get_records", {"query": {"filter": expression}})["body"]["items"]]


def after_create() -> EnvironmentRuntime:
    runtime = EnvironmentRuntime(build_from(capture()))
    runtime.read("post_records", {"body": {"title": "delta", "views": 6, "status": "open"}})
    return runtime


def test_the_expression_is_learned_and_answers_over_the_state():
    bundle = build_from(capture())
    learned = {q.param: (q.kind, q.rule_id) for q in bundle.view.view("get_records").learned_queries}
    assert learned == {"filter": ("expression", "learned-query.filter-expression")}
    runtime = after_create()
    assert titles(runtime, "(status='open')") == ["alpha", "gamma", "delta"]
    assert titles(runtime, "(views>=6 && status='open')") == ["alpha", "gamma", "delta"]  # never recorded
    assert titles(runtime, "(views>=8)") == ["alpha"]
    assert titles(runtime, "title~'ELT'") == ["delta"]
    answer = runtime.read("get_records", {"query": {"filter": "(status='open')"}})["body"]
    assert answer["totalItems"] == 3


def test_what_is_no_such_expression_is_refused_with_what_is_accepted():
    runtime = after_create()
    either = runtime.call_tool("get_records", {"query": {"filter": "(views>1 || status='open')"}})
    assert either.is_error and "joined by '&&'" in either.structured["message"]
    unknown = runtime.call_tool("get_records", {"query": {"filter": "(rating>1)"}})
    assert unknown.is_error and "'rating'" in unknown.structured["message"]
    # comparisons no recording made (!= on a text, < on a number) are not guessed
    other = runtime.call_tool("get_records", {"query": {"filter": "(status!='open')"}})
    assert other.is_error and "'!=:text'" in other.structured["message"], other.structured
    below = runtime.call_tool("get_records", {"query": {"filter": "(views<7)"}})
    assert below.is_error and "'<:number'" in below.structured["message"]
    wildcard = runtime.call_tool("get_records", {"query": {"filter": "(title~'de%a')"}})
    assert wildcard.is_error and "wildcards" in wildcard.structured["message"]


def test_a_counter_a_query_changes_alone_still_counts_the_state():
    bundle = build_from(capture())
    roles = {m.pointer: m.role for m in bundle.view.view("get_records").envelope_members}
    assert roles["/totalItems"] == "count"
    runtime = after_create()
    listed = runtime.read("get_records")["body"]
    assert listed["totalItems"] == 4
    assert [r["title"] for r in listed["items"]] == ["alpha", "Beta notes", "gamma", "delta"]
