"""The catalog's presentation bounds are the bundle's budgets (``rules/budgets.yaml``), not Python
constants: how many recorded query values a schema lists as examples (``query_examples``) and how
many served paths a 404 for a path no tool answers names (``paths_named``), how many recorded values
of a parameter a description shows (``described_values``) and how long a value or name it quotes
(``quoted_value_characters``). The same bundle served
with other budgets shows otherwise; what is accepted does not change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.har_builder import HarBuilder  # noqa: E402

from capenv.interpreter.bundle.io import Bundle  # noqa: E402
from capenv.interpreter.bundle.jsonvalue import loads  # noqa: E402
from capenv.interpreter.pipeline import build_bundle  # noqa: E402
from capenv.serving.runtime import EnvironmentRuntime  # noqa: E402
from capenv.serving.runtime_api import HttpRequest  # noqa: E402

ITEMS = [{"id": i, "name": f"n{i}", "tag": "a" if i % 2 else "b"} for i in (1, 2, 3)]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Bundle:
    builder = HarBuilder()
    for value in ("x", "y", "z"):
        builder.call("GET", "/search", query=[("term", value)], response={"hits": [value]})
    har = (builder.call("GET", "/items", response=ITEMS)
           .call("GET", "/items/1", response=ITEMS[0])
           .call("GET", "/stats", response={"count": 3})
           .write(tmp_path_factory.mktemp("budgets") / "budgets.har"))
    return build_bundle(har)


def served_with(bundle: Bundle, **budgets: int) -> EnvironmentRuntime:
    view = bundle.view.model_copy(update={"budgets": bundle.view.budgets.model_copy(update=budgets)})
    return EnvironmentRuntime(bundle.model_copy(update={"view": view}))


def term_schema(runtime: EnvironmentRuntime) -> dict:
    spec = next(s for s in runtime.tools() if s.name == "get_search")
    return spec.input_schema["properties"]["query"]["properties"]["term"]


def test_query_examples_bound_the_values_a_schema_lists(bundle) -> None:
    assert bundle.view.budgets.query_examples == 12
    assert term_schema(served_with(bundle))["examples"] == ["x", "y", "z"]
    fewer = served_with(bundle, query_examples=2)
    schema = term_schema(fewer)
    assert "examples" not in schema and "x" in schema["description"], schema  # described instead
    assert fewer.read("get_search", {"query": {"term": "y"}})["body"] == {"hits": ["y"]}  # still answered


def test_paths_named_bound_the_paths_a_404_names(bundle) -> None:
    def named(runtime: EnvironmentRuntime) -> str:
        answer = runtime.http(HttpRequest("GET", "/nowhere", (), (), b""))
        assert answer.status == 404
        return loads(answer.body)["message"]

    everything = named(served_with(bundle))
    assert "GET /search" in everything and "GET /stats" in everything and "more" not in everything
    served = len(served_with(bundle).tools())
    one = named(served_with(bundle, paths_named=1))
    assert one.endswith(f"served paths: GET /search and {served - 1} more"), one


def description(runtime: EnvironmentRuntime, tool: str) -> str:
    return next(s.description for s in runtime.tools() if s.name == tool)


def test_described_values_bound_the_recorded_values_a_description_shows(bundle) -> None:
    assert bundle.view.budgets.described_values == 3
    assert '"term" (recorded "x", "y", "z")' in description(served_with(bundle), "get_search")
    fewer = served_with(bundle, described_values=1)
    assert '"term" (recorded "x" and 2 more)' in description(fewer, "get_search")
    assert fewer.read("get_search", {"query": {"term": "z"}})["body"] == {"hits": ["z"]}  # still answered


def test_quoted_value_characters_bound_what_a_description_quotes(bundle) -> None:
    assert bundle.view.budgets.quoted_value_characters == 40
    assert 'with fields "id", "name", "tag".' in description(served_with(bundle), "get_items")
    shorter = served_with(bundle, quoted_value_characters=3)
    text = description(shorter, "get_items")
    assert 'with fields "id", a 4-character value, "tag".' in text, text
    assert '"term" (recorded "x", "y", "z")' in description(shorter, "get_search")  # one character: quoted
