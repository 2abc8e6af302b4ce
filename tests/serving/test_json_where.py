"""A where parameter spelled as a JSON object of comparisons (Waterline's blueprints, Parse):
evaluated over the state as the recordings proved it, refused for anything else (a list of values,
an ``or``, a text operator, a field held as an object such as a populated reference, a literal of
another kind than the field holds, which Waterline converts: inPrint="false" lists the books not in
print)."""

import pytest

from capenv.interpreter.bundle.filter_expressions import Clause, parse_json_object
from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import evaluate_queries, unproven, value_kinds

OPERATORS = {">": ">", ">=": ">=", "<": "<", "<=": "<=", "!=": "!=", "in": "in", "nin": "!in"}
WHERE = QuerySpec(param="where", kind="expression", syntax="json-object", operators=OPERATORS,
                  proven_clauses=("<:number", "==:boolean", "==:null", "==:text", ">:number", ">=:number",
                                  "in:list-number"))
BOOKS = [{"id": 1, "title": "A", "year": 1969, "genre": "fiction", "inPrint": True, "author": {"id": 1}},
         {"id": 2, "title": "B", "year": 1974, "genre": "fiction", "inPrint": False, "author": {"id": 1}},
         {"id": 3, "title": "C", "year": 1975, "genre": "science", "inPrint": True, "author": None},
         {"id": 4, "title": "D", "year": None, "genre": "essay", "inPrint": True, "author": {"id": 2}}]
FIELDS = {"id", "title", "year", "genre", "inPrint", "author"}
KINDS = value_kinds(BOOKS)


def test_parse_reads_equalities_and_operator_members():
    assert parse_json_object('{"year":{">=":1970,"<":1980},"genre":"fiction"}', OPERATORS) == [
        Clause("year", ">=", 1970), Clause("year", "<", 1980), Clause("genre", "==", "fiction")]


def test_parse_reads_a_list_of_one_kind_for_in():
    assert parse_json_object('{"id":{"in":[1,3]}}', OPERATORS) == [Clause("id", "in", (1, 3))]


@pytest.mark.parametrize("text", ['{"id":{"in":[1,"2"]}}', '{"id":{"in":[]}}', '{"id":{"in":[null]}}',
                                  '{"id":{">":[1]}}', '{"id":{"in":3}}', '{"or":[{"genre":"x"}]}', '{"title":{"contains":"a"}}',
                                  '{"year":{">":{"$x":1}}}', '[{"year":1}]', '{}', '{"year":NaN}', '{"year":',
                                  '{"a b":1}', '"fiction"'])
def test_parse_refuses_anything_else(text):
    assert parse_json_object(text, OPERATORS) is None


@pytest.mark.parametrize("where,ids", [('{"year":{">":1970}}', [2, 3]), ('{"genre":"fiction","inPrint":true}', [1]),
                                       ('{"year":{">=":1969,"<":1975}}', [1, 2]), ('{"year":null}', [4]),
                                       ('{"id":{"in":[4,2,9]}}', [2, 4])])
def test_a_proven_where_filters_the_state(where, ids):
    query = (("where", where),)
    assert unproven((WHERE,), query, FIELDS, KINDS) is None
    assert [m["id"] for m in evaluate_queries(BOOKS, (WHERE,), query)] == ids


@pytest.mark.parametrize("where,says", [('{"author":1}', "object or array"), ('{"colour":"red"}', "no field"),
                                        ('{"id":{"nin":[1,2]}}', "proves"), ('{"id":{"in":["1"]}}', "with a text"),
                                        ('{"id":{"in":[1,"2"]}}', "JSON object"), ('{"year":{"!=":1969}}', "proves"),
                                        ('{"title":{">":"B"}}', "proves"), ('{"inPrint":"false"}', "held as a boolean"),
                                        ('{"year":"1974"}', "held as a number"), ('{"inPrint":1}', "with a number")])
def test_other_wheres_are_refused(where, says):
    reason = unproven((WHERE,), (("where", where),), FIELDS, KINDS)
    assert reason is not None and says in reason


# LoopBack's filter={"where": {...}}: the comparisons inside one member, its own operator names.
LOOPBACK = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "neq": "!=", "inq": "in", "nin": "!in"}
FILTER = QuerySpec(param="filter", kind="expression", syntax="json-object", operators=LOOPBACK, within="where",
                   proven_clauses=("==:boolean", ">:number", "in:list-number"))


def test_parse_reads_the_comparisons_inside_the_named_member():
    assert parse_json_object('{"where":{"year":{"gt":1970},"inPrint":true}}', LOOPBACK, "where") == [
        Clause("year", ">", 1970), Clause("inPrint", "==", True)]


@pytest.mark.parametrize("text", ['{"where":{"year":1970},"limit":2}', '{"order":["year DESC"]}', '{"year":1970}',
                                  '{"where":[{"year":1970}]}', '{"where":{}}', '[{"where":{"year":1}}]'])
def test_parse_refuses_a_filter_with_anything_beside_the_member(text):
    assert parse_json_object(text, LOOPBACK, "where") is None


@pytest.mark.parametrize("value,ids", [('{"where":{"year":{"gt":1970}}}', [2, 3]), ('{"where":{"inPrint":false}}', [2]),
                                       ('{"where":{"id":{"inq":[3,1]}}}', [1, 3])])
def test_a_proven_filter_where_filters_the_state(value, ids):
    query = (("filter", value),)
    assert unproven((FILTER,), query, FIELDS, KINDS) is None
    assert [m["id"] for m in evaluate_queries(BOOKS, (FILTER,), query)] == ids


def test_a_filter_beside_an_order_is_refused():
    reason = unproven((FILTER,), (("filter", '{"where":{"inPrint":true},"order":["year DESC"]}'),), FIELDS, KINDS)
    assert reason is not None and "JSON object" in reason
