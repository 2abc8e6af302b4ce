"""A learned equality filter sent a text that a listed entity holds in other letter case is refused,
never evaluated: applications differ (a case-insensitive lookup lists the entity, an exact one does
not), and the recordings proved the filter only with texts spelled as held, so an empty page would
be a wrong answer where the application compares ignoring case (FlexGet's ?name=classics lists
"Classics")."""

import pytest

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, held_texts, unproven

SPECS = (QuerySpec(param="name", kind="equals", field="name"),
         QuerySpec(param="views", kind="equals", field="views"))
MEMBERS = [{"id": 1, "name": "Classics", "views": 3}, {"id": 2, "name": "Watchlist", "views": 9}]
FIELDS = {"id", "name", "views"}


@pytest.mark.parametrize("value", ["classics", "CLASSICS", "watchList"])
def test_a_text_held_in_other_letter_case_is_refused(value):
    reason = unproven(SPECS, (("name", value),), FIELDS, None, held_texts(MEMBERS))
    assert reason is not None and "letter case" in reason and "name" in reason


@pytest.mark.parametrize("value,ids", [("Classics", [1]), ("Nope", [])])
def test_a_text_spelled_as_held_or_held_by_none_is_answered(value, ids):
    assert unproven(SPECS, (("name", value),), FIELDS, None, held_texts(MEMBERS)) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, SPECS, (("name", value),))] == ids


def test_two_entities_differing_only_in_case_refuse_either_spelling():
    members = MEMBERS + [{"id": 3, "name": "classics", "views": 1}]
    assert unproven(SPECS, (("name", "Classics"),), FIELDS, None, held_texts(members)) is not None
