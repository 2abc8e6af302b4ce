"""A learned text filter (contains, starts or ends with) is refused where its answer depends on
what no recording shows: letter case deciding whether a held text matches, or a character SQL
LIKE reads as a wildcard (% or _). A Datasette hunt (session 17) found title__contains=MACHIN
answered with no rows and title__contains=% and _ with none, where Datasette (SQLite's LIKE)
lists 'Computing machinery' and every article."""

import pytest

from capenv.interpreter.bundle.models import QuerySpec
from capenv.interpreter.rules_engine import load_rules
from capenv.serving.reads.queries import evaluate_queries, held_texts, unproven

# The wildcards the text rules yield (rules/view-learned-queries.yaml), as a learned query carries them.
WILDCARDS = tuple(load_rules().rule("learned-query.text-double-underscore").yields["wildcards"])
SPECS = (QuerySpec(param="title__contains", kind="text", field="title", operator="contains", wildcards=WILDCARDS),
         QuerySpec(param="title_has", kind="text", field="title", operator="icontains", wildcards=WILDCARDS),
         QuerySpec(param="title_starts", kind="text", field="title", operator="startswith", wildcards=WILDCARDS))
FIELDS = {"id", "title"}
MEMBERS = [{"id": 1, "title": "Computing machinery"}, {"id": 2, "title": "A bug in the relay"},
           {"id": 3, "title": "snake_case names"}]


def reason(name: str, value: str) -> str | None:
    return unproven(SPECS, ((name, value),), FIELDS, texts=held_texts(MEMBERS))


@pytest.mark.parametrize("name,value", [("title__contains", "MACHIN"), ("title_has", "MACHIN"),
                                        ("title_starts", "computing")])
def test_a_text_whose_letter_case_decides_a_match_is_refused(name, value):
    found = reason(name, value)
    assert found is not None and "letter case" in found and "Computing machinery" in found


@pytest.mark.parametrize("value", ["%", "_", "a%b", "snake_case"])
def test_a_text_holding_a_like_wildcard_is_refused(value):
    assert set(WILDCARDS) == {"%", "_"}
    found = reason("title__contains", value)
    assert found is not None and "wildcard" in found


def test_a_rule_yielding_no_wildcards_reads_the_characters_as_themselves():
    literal = (QuerySpec(param="title__contains", kind="text", field="title", operator="contains"),)
    assert unproven(literal, (("title__contains", "_case"),), FIELDS, texts=held_texts(MEMBERS)) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, literal, (("title__contains", "_case"),))] == [3]


@pytest.mark.parametrize("name,value,ids", [("title__contains", "machin", [1]), ("title_has", "relay", [2]),
                                            ("title_starts", "A ", [2]), ("title__contains", "in", [1, 2])])
def test_a_text_both_readings_agree_on_is_answered(name, value, ids):
    assert reason(name, value) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, SPECS, ((name, value),))] == ids


def test_a_letter_case_a_recording_proved_is_answered():
    proven = (QuerySpec(param="title_has", kind="text", field="title", operator="icontains", text_case_proven=True),)
    assert unproven(proven, (("title_has", "MACHIN"),), FIELDS, texts=held_texts(MEMBERS)) is None
    assert [m["id"] for m in evaluate_queries(MEMBERS, proven, (("title_has", "MACHIN"),))] == [1]
