"""A sort by a text field over texts whose order depends on the collation (``apple`` beside
``World``: code points put it last, a case-insensitive collation first) is refused unless a
recording that proved the sort ordered such texts (``QuerySpec.text_order_proven``); texts both
orders agree on sort as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import held_texts, unproven
from capenv.serving.reads.text_order import collation_dependent
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SORT = QuerySpec(param="sort", kind="sort", descending_prefix="-")


@pytest.mark.parametrize("texts, dependent", [
    (["Draft", "Hello", "World"], False),
    (["alpha", "beta", "gamma"], False),
    (["p1", "p10", "p2"], False),
    (["Hello", "World", "apple"], True),     # case
    (["ab", "a b"], True),                   # a space a language collation passes over
    (["Zed", "Émile"], True),                # an accent
    (["Hello", "hello"], True),              # equal but for case
])
def test_collation_dependent_texts(texts, dependent):
    assert (collation_dependent(texts) is not None) == dependent


def test_a_sort_over_collation_dependent_texts_is_refused_unless_proven():
    members = [{"id": 1, "title": "Hello"}, {"id": 2, "title": "apple"}]
    query = (("sort", "title"),)
    reason = unproven((SORT,), query, {"id", "title"}, None, held_texts(members))
    assert reason is not None and "collation" in reason and "'apple'" in reason
    proven = SORT.model_copy(update={"text_order_proven": True})
    assert unproven((proven,), query, {"id", "title"}, None, held_texts(members)) is None
    assert unproven((SORT,), (("sort", "id"),), {"id", "title"}, None, held_texts(members)) is None


def _books(titles: list[str]) -> HarBuilder:
    books = [{"id": n + 1, "title": t} for n, t in enumerate(titles)]
    return (HarBuilder()
            .call("GET", "/books", response=books)
            .call("GET", "/books", query=[("sort", "title")], response=sorted(books, key=lambda b: b["title"]))
            .call("GET", "/books", query=[("sort", "-id")], response=books[::-1]))


def _sorted_titles(bundle) -> tuple[int, object]:
    answer = EnvironmentRuntime(bundle).http(HttpRequest("GET", "/books", (("sort", "title"),), (), b""))
    return answer.status, loads(answer.body)


def test_a_recording_that_sorted_such_texts_proves_the_order():
    status, body = _sorted_titles(build_from(_books(["Zebra", "apple", "Mango"])))
    assert status == 200, body
    assert [b["title"] for b in body] == ["Mango", "Zebra", "apple"]


def test_a_recording_that_sorted_only_agreeing_texts_proves_nothing_of_others():
    bundle = build_from(_books(["Zebra", "Apple", "Mango"]).call("GET", "/books/1", response={"id": 1, "title": "Zebra"}))
    status, _ = _sorted_titles(bundle)
    assert status == 200
    learned = next(v for v in bundle.view.views if v.kind == "list").learned_queries
    assert not any(q.text_order_proven for q in learned if q.kind == "sort")
