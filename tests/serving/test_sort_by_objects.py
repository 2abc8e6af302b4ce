"""A sort by a field the listed entities hold as objects or arrays (a populated reference): the
capture does not show how the application orders them (Sails refuses a sort by a populated
association, 400 E_INVALID_POPULATES), so the learned sort refuses it, saying what is accepted,
where it would have answered an order of its own."""

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, unproven, value_kinds

BOOKS = [{"id": 1, "title": "b", "author": {"id": 7, "name": "x"}, "tags": [1]},
         {"id": 2, "title": "a", "author": {"id": 8, "name": "y"}, "tags": []},
         {"id": 3, "title": "c", "author": None, "tags": [2, 3]}]
FIELDS = {"id", "title", "author", "tags"}
KINDS = value_kinds(BOOKS)
SORT = QuerySpec(param="sort", kind="sort")


def test_a_sort_by_a_field_held_as_objects_or_arrays_is_refused():
    for field in ("author", "tags"):
        reason = unproven((SORT,), (("sort", field),), FIELDS, KINDS)
        assert reason is not None and f"'{field}'" in reason and "object or array" in reason, reason


def test_a_sort_by_a_plain_field_is_answered():
    assert unproven((SORT,), (("sort", "title"),), FIELDS, KINDS) is None
    assert [b["id"] for b in evaluate_queries(BOOKS, (SORT,), (("sort", "title"),))] == [2, 1, 3]
