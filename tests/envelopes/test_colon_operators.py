"""json-server 1.0's filters spelled as a field, a colon and an operator word (``views:gt=10``,
``title:contains=ing``, ``role:in=editor,viewer``, ``role:ne=admin``, ``label:startsWith=e``):
learned where the recordings prove them (``learned-query.compare-colon``, ``text-colon``,
``text-colon-ignoring-case``, ``in-colon``) and answered over the state after a served create; a
value the recordings do not prove (a word where a number is held, a text whose letter case decides
the match where no recording showed the reading) is refused."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

P1, P2, P3 = ({"id": i, "title": t, "views": v, "role": r}
              for i, t, v, r in (("1", "Hello json-server", 120, "admin"), ("2", "Paging and sorting", 45, "editor"),
                                 ("3", "Embedding children", 8, "viewer")))
NEW = {"id": "a1b2", "title": "Probing more", "views": 60, "role": "editor"}


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=[P1, P2, P3])
            .call("GET", "/posts/1", response=P1)
            .call("GET", "/posts", query=[("views:gt", "100")], response=[P1])
            .call("GET", "/posts", query=[("views:lte", "45")], response=[P2, P3])
            .call("GET", "/posts", query=[("title:contains", "ing")], response=[P2, P3])
            .call("GET", "/posts", query=[("role:in", "editor,viewer")], response=[P2, P3])
            .call("GET", "/posts", query=[("role:ne", "admin")], response=[P2, P3])
            .call("POST", "/posts", body={"title": "Probing more", "views": 60, "role": "editor"}, response=NEW)
            .call("GET", "/posts/a1b2", response=NEW)
            .call("GET", "/posts", response=[P1, P2, P3, NEW]))


def ids(runtime: EnvironmentRuntime, query: dict) -> list[str]:
    result = runtime.call_tool("get_posts", {"query": query})
    assert not result.is_error, result.structured
    return [p["id"] for p in result.structured["body"]]


def test_the_colon_operators_are_learned():
    view = build_from(capture()).view.view("get_posts")
    learned = {q.param: (q.kind, q.field, q.operator, q.rule_id) for q in view.learned_queries}
    assert learned == {
        "views:gt": ("compare", "views", ">", "learned-query.compare-colon"),
        "views:lte": ("compare", "views", "<=", "learned-query.compare-colon"),
        "title:contains": ("text", "title", "contains", "learned-query.text-colon"),
        "role:in": ("in", "role", "in", "learned-query.in-colon"),
        "role:ne": ("compare", "role", "!=", "learned-query.compare-colon")}


def test_they_answer_over_the_state_after_a_served_create():
    runtime = EnvironmentRuntime(build_from(capture()))
    created = runtime.call_tool("post_posts", {"body": {"title": "Probing more", "views": 60, "role": "editor"}})
    assert not created.is_error, created.structured
    new = created.structured["body"]["id"]
    assert ids(runtime, {"views:gt": "50"}) == ["1", new]
    assert ids(runtime, {"views:lte": "60"}) == ["2", "3", new]
    assert ids(runtime, {"title:contains": "ing"}) == ["2", "3", new]
    assert ids(runtime, {"role:in": "editor"}) == ["2", new]
    assert ids(runtime, {"role:ne": "viewer", "views:gt": "40"}) == ["1", "2", new]


def test_what_the_recordings_do_not_prove_is_refused():
    runtime = EnvironmentRuntime(build_from(capture()))
    word = runtime.call_tool("get_posts", {"query": {"views:gt": "ten"}})
    assert word.is_error and "no plain number" in word.structured["message"]
    case = runtime.call_tool("get_posts", {"query": {"title:contains": "hello"}})  # 'Hello' only ignoring case
    assert case.is_error and "letter" in case.structured["message"]
    unknown = runtime.call_tool("get_posts", {"query": {"views:gte": "10"}})  # never recorded
    assert unknown.is_error
