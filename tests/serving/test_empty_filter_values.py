"""A learned filter sent with an empty value is refused, never evaluated: the recordings prove the
filter on values, and applications differ on an empty one (one ignores it and lists everything,
another matches members holding the empty text or none, a third refuses it), so the state cannot
tell which answer the application gives."""

import pytest

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, unproven

SPECS = (QuerySpec(param="name", kind="equals", field="name"),
         QuerySpec(param="title_contains", kind="text", field="title", operator="icontains"),
         QuerySpec(param="min_views", kind="compare", field="views", operator=">="),
         QuerySpec(param="ids", kind="in", field="id", separator=","),
         QuerySpec(param="q", kind="search"),
         QuerySpec(param="limit", kind="limit"))
FIELDS = {"id", "name", "title", "views"}
MEMBERS = [{"id": 1, "name": "alpha", "title": "First", "views": 3},
           {"id": 2, "name": None, "title": "Second", "views": 9}]


@pytest.mark.parametrize("name", ["name", "title_contains", "min_views", "ids", "q"])
def test_an_empty_filter_value_is_refused(name):
    reason = unproven(SPECS, ((name, ""),), FIELDS)
    assert reason is not None and name in reason and "empty" in reason


def test_a_form_encoded_empty_value_is_empty_too():
    assert unproven(SPECS, (("name", ""), ("limit", "1")), FIELDS) is not None


@pytest.mark.parametrize("query,ids", [((("name", "alpha"),), [1]), ((("min_views", "5"),), [2]),
                                       ((("q", "second"),), [2]), ((("ids", "1,2"),), [1, 2])])
def test_a_filter_with_a_value_evaluates_as_before(query, ids):
    assert unproven(SPECS, query, FIELDS) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, SPECS, query)] == ids
