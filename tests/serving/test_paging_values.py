"""A learned paging parameter reads only whole numbers of 0 or more: the state cannot answer a
negative, fractional or other value as the application does (one reads limit=-1 as no limit, a
slice would drop the last member), so such a value is refused, never evaluated."""

import pytest

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, unproven

SPECS = (QuerySpec(param="limit", kind="limit"), QuerySpec(param="skip", kind="offset"),
         QuerySpec(param="page", kind="page", operator="1"), QuerySpec(param="sort", kind="sort"))
MEMBERS = [{"id": i, "title": f"t{i}"} for i in range(1, 6)]


@pytest.mark.parametrize("name,value", [("limit", "-1"), ("limit", "2.5"), ("skip", "-2"), ("skip", "two"),
                                        ("page", "-1"), ("limit", "+3"), ("limit", ""), ("limit", "٣")])
def test_a_paging_value_that_is_no_whole_number_is_refused(name, value):
    query = ((name, value), ("limit", "2")) if name == "page" else ((name, value),)
    reason = unproven(SPECS, query, {"id", "title"})
    assert reason is not None and f"{name}=" in reason  # (form-decoded: "+3" reads " 3")


@pytest.mark.parametrize("query,ids", [((("limit", "2"),), [1, 2]), ((("limit", "2"), ("skip", "3")), [4, 5]),
                                       ((("limit", "2"), ("page", "2")), [3, 4])])
def test_whole_numbers_page_as_before(query, ids):
    assert unproven(SPECS, query, {"id", "title"}) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, SPECS, query)] == ids


def test_a_non_paging_parameter_keeps_any_value():
    assert unproven(SPECS, (("sort", "title"),), {"id", "title"}) is None
