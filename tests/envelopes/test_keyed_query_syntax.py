"""The query syntax of qs-parsed APIs with no filter root (Feathers): ``$limit``/``$skip`` paging,
``field[$gt]`` comparisons and ``$sort[field]=1|-1`` keyed sorts, in a ``{total, limit, skip,
data}`` page whose ``total`` counts what the query selects and whose ``limit`` is answered only to
a call sending ``$limit``. Each is learned only where a recording proves it, answered from the
state after a served create, and refused where the recordings prove nothing (a direction never
sent, more keyed sorts than a recording combined)."""

from __future__ import annotations

from urllib.parse import quote

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

M1, M2, M3, M4 = ({"id": n, "text": t, "userId": u, "createdAt": c}
                  for n, t, u, c in ((1, "hello", 1, 1000), (2, "build?", 2, 2000), (3, "logs", 1, 3000),
                                     (4, "noon", 3, 4000)))
NEW = {"id": 5, "text": "coffee", "userId": 2, "createdAt": 5000}
SENT = {"text": "coffee", "userId": 2, "createdAt": 5000}
"""The create's body: the client sends createdAt (a value no rule could make: the field's values differ
across the held entities, so it is no constant; field.constant since d534e2a)."""


def page(items: list, total: int, query: dict[str, str]) -> dict:
    answer = {"total": total, "skip": int(query.get("$skip", 0)), "data": items}
    if "$limit" in query:
        answer["limit"] = int(query["$limit"])
    return answer


def encoded(pairs: dict[str, str]) -> str:
    return "&".join(f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in pairs.items())


def capture(*queries: tuple[dict[str, str], list, int]) -> HarBuilder:
    every = [M1, M2, M3, M4]
    har = (HarBuilder()
           .call("GET", "/messages", response=page(every, 4, {}))
           .call("GET", "/messages/1", response=M1))
    for query, answer, total in queries:
        har.call("GET", "/messages", query=encoded(query), response=page(answer, total, query))
    return (har.call("POST", "/messages", body=SENT, status=201, response=NEW)
            .call("GET", "/messages/5", response=NEW)
            .call("GET", "/messages", response=page(every + [NEW], 5, {})))


PROVING = (({"$sort[createdAt]": "-1", "$limit": "2"}, [M4, M3], 4),
           ({"createdAt[$gt]": "1500"}, [M2, M3, M4], 3),
           ({"userId[$ne]": "1", "$limit": "1"}, [M2], 2),
           ({"$limit": "3", "$skip": "1"}, [M2, M3, M4], 4))


def learned(bundle) -> dict:
    return {q.param: (q.kind, q.rule_id) for q in bundle.view.view("get_messages").learned_queries}


def after_create(bundle) -> EnvironmentRuntime:
    runtime = EnvironmentRuntime(bundle)
    created = runtime.read("post_messages", {"body": SENT})
    assert created["body"] == NEW, created
    return runtime


def answer(runtime: EnvironmentRuntime, query: dict) -> dict:
    return runtime.read("get_messages", {"query": query})["body"]


def test_keyed_sorts_field_operators_and_dollar_paging_are_learned():
    bundle = build_from(capture(*PROVING))
    assert learned(bundle) == {
        "$sort[createdAt]": ("sort", "learned-query.sort-keyed"), "$limit": ("limit", "learned-query.limit"),
        "createdAt[$gt]": ("compare", "learned-query.field-operator-compare"),
        "userId[$ne]": ("compare", "learned-query.field-operator-compare"), "$skip": ("start", "learned-query.start")}
    roles = {m.pointer: m.role for m in bundle.view.view("get_messages").envelope_members}
    assert roles == {"/total": "count", "/skip": "query-echo", "/limit": "query-echo"}, roles


def test_a_page_after_a_served_create_counts_what_the_query_selects():
    runtime = after_create(build_from(capture(*PROVING)))
    newest = answer(runtime, {"$sort[createdAt]": "-1", "$limit": "3"})
    assert newest == {"total": 5, "skip": 0, "limit": 3, "data": [NEW, M4, M3]}, newest
    ascending = answer(runtime, {"$sort[createdAt]": "1", "$limit": "2"})
    assert [m["id"] for m in ascending["data"]] == [1, 2] and ascending["total"] == 5
    later = answer(runtime, {"createdAt[$gt]": "3500"})
    assert later == {"total": 2, "skip": 0, "data": [M4, NEW]}, later  # no limit member: none was sent
    others = answer(runtime, {"userId[$ne]": "1", "$limit": "5"})
    assert [m["id"] for m in others["data"]] == [2, 4, 5] and others["total"] == 3 and others["limit"] == 5


def test_a_direction_never_sent_and_more_keyed_sorts_than_recorded_are_refused():
    # must not: $sort[createdAt]=desc is no direction the recordings show (Feathers refuses it, 400)
    runtime = after_create(build_from(capture(*PROVING, ({"$sort[userId]": "1"}, [M1, M3, M2, M4], 4))))
    refused = runtime.call_tool("get_messages", {"query": {"$sort[createdAt]": "desc"}})
    assert refused.is_error and "'-1'" in refused.structured["message"], refused.structured
    # must not: two keyed sorts together, which no recording combined
    refused = runtime.call_tool("get_messages", {"query": {"$sort[userId]": "1", "$sort[createdAt]": "-1"}})
    assert refused.is_error and "at most 1" in refused.structured["message"], refused.structured


def test_two_keyed_sorts_apply_in_the_order_sent_once_a_recording_combines_them():
    runtime = after_create(build_from(capture(
        *PROVING, ({"$sort[userId]": "1", "$sort[createdAt]": "-1"}, [M3, M1, M2, M4], 4))))
    combined = answer(runtime, {"$sort[userId]": "-1", "$sort[createdAt]": "1"})
    assert [m["id"] for m in combined["data"]] == [4, 2, 5, 1, 3], combined


def test_a_keyed_sort_the_recording_contradicts_is_not_learned():
    # must not: a recording answering $sort[createdAt]=-1 oldest first shows the name means something else
    bundle = build_from(capture(({"$sort[createdAt]": "-1"}, [M1, M2, M3, M4], 4)))
    assert "$sort[createdAt]" not in learned(bundle)


def test_a_filter_value_of_another_kind_than_the_field_holds_is_refused():
    # must not: Feathers validates userId=abc and read=1 (400) and reads userId=1.0 as 1; a model
    # comparing the text would answer an empty page for each
    runtime = after_create(build_from(capture(*PROVING, ({"userId": "2"}, [M2], 1))))
    for query in ({"userId": "abc"}, {"userId": "1.0"}, {"userId": "+2"}, {"createdAt[$gt]": "soon"}):
        refused = runtime.call_tool("get_messages", {"query": query})
        assert refused.is_error and "no plain number" in refused.structured["message"], (query, refused.structured)
    assert [m["id"] for m in answer(runtime, {"userId": "2"})["data"]] == [2, 5]
    assert answer(runtime, {"createdAt[$gt]": "-1"})["total"] == 5


def test_a_boolean_filter_reads_only_true_and_false():
    from capenv.interpreter.bundle.models import QuerySpec
    from capenv.serving.reads.queries import unproven

    specs = (QuerySpec(param="read", kind="equals", field="read", rule_id="learned-query.equals"),)
    kinds = {"read": {"boolean"}}
    assert unproven(specs, (("read", "false"),), {"read"}, kinds) is None
    for value in ("1", "yes", "False"):  # must not: Feathers refuses read=1 (400)
        reason = unproven(specs, (("read", value),), {"read"}, kinds)
        assert reason is not None and "neither true nor false" in reason, (value, reason)
