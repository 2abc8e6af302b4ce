"""A learned sort whose spelling may list several keys sorts by no more keys than a recording
proved: Waterline answers sort=genre ASC,year DESC with 400, so a capture that only sorted by one
key proves nothing of two."""

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, unproven

FIELDS = {"id", "genre", "year"}
MEMBERS = [{"id": 1, "genre": "b", "year": 2}, {"id": 2, "genre": "a", "year": 1}, {"id": 3, "genre": "a", "year": 3}]


def _sort(proven_keys):
    return QuerySpec(param="sort", kind="sort", separator=",", direction_separator=" ",
                     directions={"asc": "asc", "desc": "desc"}, proven_keys=proven_keys)


def test_more_keys_than_proven_are_refused():
    reason = unproven((_sort(1),), (("sort", "genre ASC,year DESC"),), FIELDS)
    assert reason is not None and "at most 1" in reason
    assert unproven((_sort(1),), (("sort", "year DESC"),), FIELDS) is None


def test_proven_keys_sort_as_before():
    query = (("sort", "genre ASC,year DESC"),)
    assert unproven((_sort(2),), query, FIELDS) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, (_sort(2),), query)] == [3, 2, 1]
