"""The compiled precheck of a tool's input schema only ever accepts what jsonschema accepts
(``bundle/schema_precheck``): whatever it says yes to, the Draft 2020-12 validator says yes to,
and the usual calls of every tool take it (else the fast path would never run)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.catalog.argument_schema import ArgumentSchema, _plain
from capenv.interpreter.bundle.schema_precheck import compile_precheck
from capenv.serving.read_call import CallRefused
from capenv.serving.runtime import EnvironmentRuntime

CAPTURES = ("json-server", "kinto", "prefect", "strapi")


@pytest.fixture(scope="module")
def schemas(bundle_dir: Callable[[str], Path]) -> list[ArgumentSchema]:
    found = []
    for name in CAPTURES:
        runtime = EnvironmentRuntime(read_bundle(bundle_dir(name)))
        found += [entry.inputs.checked for entry in runtime.catalog.entries.values()]
        runtime.close()
    return found


def _names(schema: Any) -> list[str]:
    """Every property name the schema spells, at any depth: what generated objects use as keys."""
    names: list[str] = []
    if isinstance(schema, dict):
        names += list(schema.get("properties", {}))
        for value in schema.values():
            names += _names(value)
    elif isinstance(schema, list):
        for value in schema:
            names += _names(value)
    return names


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(), st.text(max_size=3),
                    st.sampled_from(["", "1", "a", "posts"]), st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([JsonNumber("1.0"), JsonNumber("2"), 1.0, 0.0]))


def values(keys: list[str]) -> st.SearchStrategy[Any]:
    key = st.sampled_from(keys) if keys else st.text(max_size=2)
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.lists(inner, max_size=2).map(tuple),
        st.dictionaries(st.one_of(key, st.text(max_size=2)), inner, max_size=4)), max_leaves=12)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_what_the_precheck_accepts_jsonschema_accepts(schemas: list[ArgumentSchema], data: st.DataObject) -> None:
    schema = data.draw(st.sampled_from(schemas))
    keys = _names(schema.schema)
    arguments = data.draw(st.one_of(values(keys), st.dictionaries(st.sampled_from(keys or ["x"]), values(keys),
                                                                  max_size=4)))
    if schema.precheck is not None and schema.precheck(arguments):
        assert schema.validator.is_valid(_plain(arguments)), (schema.tool, arguments)


def test_every_published_schema_compiles(schemas: list[ArgumentSchema]) -> None:
    # a write dispatching on a collection segment publishes a oneOf (one branch per served value),
    # which only jsonschema decides: an accepting check cannot know the other branches reject
    assert [s.tool for s in schemas if s.precheck is None and "oneOf" not in str(s.schema)] == []


def test_the_usual_call_takes_the_fast_path(bundle_dir: Callable[[str], Path]) -> None:
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")))
    create = runtime.catalog.get("post_posts").inputs.checked
    read = runtime.catalog.get("get_posts_by_post_id").inputs.checked
    body = {"title": "t", "author": "a", "views": 1, "published": True, "tags": ["b"]}
    assert create.precheck({"body": body})
    assert not create.precheck({"body": {**body, "views": "1"}}) and not create.precheck({"body": {"title": "t"}})
    assert read.precheck({"post_id": "1"}) and read.precheck({"post_id": 1})
    assert not read.precheck({"post_id": ""}) and not read.precheck({})
    with pytest.raises(CallRefused, match='"post_id" must not be empty'):
        read.check({"post_id": ""}, lambda: "a post id")
    runtime.close()


@pytest.mark.parametrize("schema", [
    {"type": "string", "pattern": "(?<"},  # a pattern Python cannot compile (a tied create's compiles)
    {"type": "object", "properties": {"x": {"format": "date"}}},
    {"$ref": "#/$defs/x"},
    {"type": "decimal"},
])
def test_a_keyword_it_does_not_decide_leaves_the_schema_to_jsonschema(schema: dict) -> None:
    assert compile_precheck(schema) is None


@pytest.mark.parametrize("schema, value", [
    ({"type": "integer"}, 1.0),            # an integer to jsonschema, left to it
    ({"type": "integer"}, True),
    ({"const": 1}, True),                  # True is not 1
    ({"enum": [{"a": 1}]}, {"a": 1}),      # not a scalar: left to jsonschema
    ({"type": "array"}, ("a",)),            # a tuple is an array only once written as JSON
    ({"minLength": 1}, JsonNumber("1.5")),
    ({"properties": {"a": {"type": "string"}}}, {1: "x"}),
    ({"uniqueItems": True}, ["a", "a"]),      # refused by jsonschema, in its words
    ({"uniqueItems": True}, [{"a": 1}, {"a": 2}]),  # objects: left to jsonschema
])
def test_what_it_leaves_to_jsonschema(schema: dict, value: Any) -> None:
    check = compile_precheck(schema)
    assert check is not None and not check(value)


def test_unique_items_accepts_arrays_of_distinct_scalars() -> None:
    """``uniqueItems`` (write-sent-values' distinct-elements) compiles: true and 1 differ, as in JSON."""
    check = compile_precheck({"type": "array", "uniqueItems": True})
    assert check is not None
    assert check([]) and check(["a", "b"]) and check([True, 1]) and check([None, "None"]) and not check([1, 1])


def test_bounds_and_kept_apart_keywords_compile_and_only_accept() -> None:
    """``minimum``/``maximum`` and ``allOf`` (write-sent-values publishes them) compile: a value
    within accepted, one outside or a float left to jsonschema."""
    from capenv.interpreter.bundle.schema_precheck import compile_precheck

    check = compile_precheck({"type": "array", "items": {"minimum": 0}, "allOf": [{"items": {"type": ["integer"]}}]})
    assert check is not None
    assert check([0, 3]) and not check([-1]) and not check(["1"]) and not check([1.5])


@pytest.mark.parametrize("patterns", [
    ["[<>&]", "^\\s|\\s$", "^$", "[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]", "[\\r\\n]", "^.{51,}$"],  # write-stored-text's
    ["(a)\\1", "b"],          # a back reference: its group would be numbered otherwise in an alternation
    ["(?i)abc", "x"],         # a global flag, refused inside an alternation: searched one by one
    ["^a$"], [],
])
@pytest.mark.parametrize("text", ["", " ", "a", "aa", "ABC", "x&y", "two\nlines", "b" * 60, "plain text"])
def test_any_pattern_finds_what_one_search_per_pattern_finds(patterns: list[str], text: str) -> None:
    from capenv.interpreter.bundle.schema_precheck import any_pattern

    assert any_pattern(patterns)(text) == any(re.search(p, text) is not None for p in patterns)
