"""How many values a refusal or an argument's description lists before "and N more" is the bundle's
budgets (``rules/budgets.yaml``), not Python constants: a path parameter's recorded values
(``path_values_quoted``), the query parameter names a tool accepts (``names_quoted``), the names a
refusal says were never recorded (``values_quoted``), a query parameter's recorded values
(``query_values_quoted``), the held entities' ids (``held_values_quoted``) and the served tools
(``tools_named``). The same bundle served with other budgets lists fewer; what is answered does not
change. Each bound below is under its table value, so each test fails with the old constant."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.har_builder import HarBuilder  # noqa: E402

from capenv.interpreter.bundle.io import Bundle  # noqa: E402
from capenv.interpreter.bundle.jsonvalue import loads  # noqa: E402
from capenv.interpreter.pipeline import build_bundle  # noqa: E402
from capenv.serving.read_call import CallRefused  # noqa: E402
from capenv.serving.runtime import EnvironmentRuntime  # noqa: E402
from capenv.serving.runtime_api import HttpRequest  # noqa: E402

ITEMS = [{"id": i, "name": f"n{i}"} for i in (1, 2, 3)]
ITEM = "get_items_by_item_id"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Bundle:
    builder = HarBuilder()
    for term in ("x", "y", "z"):
        builder.call("GET", "/search", query=[("term", term), ("page", "1")], response={"hits": [term]})
    builder.call("GET", "/items", response=ITEMS)
    for item in ITEMS:
        builder.call("GET", f"/items/{item['id']}", response=item)
    return build_bundle(builder.write(tmp_path_factory.mktemp("listing") / "listing.har"))


def served_with(bundle: Bundle, **budgets: int) -> EnvironmentRuntime:
    view = bundle.view.model_copy(update={"budgets": bundle.view.budgets.model_copy(update=budgets)})
    return EnvironmentRuntime(bundle.model_copy(update={"view": view}))


def message(runtime: EnvironmentRuntime, tool: str, arguments: dict) -> str:
    answer = runtime.call_tool(tool, arguments)
    assert answer.is_error, answer
    return answer.structured["message"]


def http_message(runtime: EnvironmentRuntime, query: tuple[tuple[str, str], ...]) -> str:
    answer = runtime.http(HttpRequest("GET", "/search", query, (), b""))
    assert answer.status == 400, answer
    return loads(answer.body)["message"]


def test_path_values_quoted_bound_a_path_parameters_recorded_values(bundle) -> None:
    assert bundle.view.budgets.path_values_quoted == 5
    assert 'recorded: "1", "2", "3" (' in message(served_with(bundle), ITEM, {})
    fewer = served_with(bundle, path_values_quoted=1)
    said = next(s for s in fewer.tools() if s.name == ITEM).input_schema["properties"]["item_id"]["description"]
    assert said.startswith('path parameter {item_id}; recorded: "1" and 2 more'), said
    assert 'recorded: "1" and 2 more (' in message(fewer, ITEM, {})  # a missing parameter's refusal
    assert fewer.read(ITEM, {"item_id": "3"})["body"] == ITEMS[2]  # still answered


def test_names_quoted_bound_the_query_parameters_a_tool_accepts(bundle) -> None:
    assert bundle.view.budgets.names_quoted == 20
    assert message(served_with(bundle), "get_search", {"query": {"term": 5}}).endswith(
        '"query" (an object of "term", "page")')
    fewer = served_with(bundle, names_quoted=1)
    assert message(fewer, "get_search", {"query": {"term": 5}}).endswith('"query" (an object of "term" and 1 more)')
    assert http_message(fewer, (("zz", "1"),)).endswith('recorded query parameters: "term" and 1 more')


def test_values_quoted_bound_the_names_a_refusal_says_were_never_recorded(bundle) -> None:
    assert bundle.view.budgets.values_quoted == 8
    sent = tuple((f"q{i}", "1") for i in range(3))
    assert http_message(served_with(bundle), sent).startswith('query parameter "q0", "q1", "q2" was never recorded')
    assert http_message(served_with(bundle, values_quoted=1), sent).startswith(
        'query parameter "q0" and 2 more was never recorded')


def test_query_values_quoted_bound_a_query_parameters_recorded_values(bundle) -> None:
    # the published schema refuses a number first; the inputs' own check, behind it, says the same
    assert bundle.view.budgets.query_values_quoted == 6

    def refused(runtime: EnvironmentRuntime) -> str:
        with pytest.raises(CallRefused) as refusal:
            runtime.catalog.get("get_search").inputs._query_pairs({"term": 5})
        return str(refusal.value)

    assert refused(served_with(bundle)).endswith('(recorded: "x", "y", "z")')
    assert refused(served_with(bundle, query_values_quoted=2)).endswith('(recorded: "x", "y" and 1 more)')


def test_query_values_quoted_bound_the_recorded_values_a_query_parameter_describes(bundle) -> None:
    # past query_examples the values are described rather than listed as examples
    def term(runtime: EnvironmentRuntime) -> dict:
        spec = next(s for s in runtime.tools() if s.name == "get_search")
        return spec.input_schema["properties"]["query"]["properties"]["term"]

    assert term(served_with(bundle, query_examples=2))["description"] == 'recorded: "x", "y", "z"'
    fewer = served_with(bundle, query_examples=2, query_values_quoted=1)
    assert term(fewer)["description"] == 'recorded: "x" and 2 more'
    assert fewer.read("get_search", {"query": {"term": "z", "page": "1"}})["body"] == {"hits": ["z"]}


def test_held_values_quoted_bound_the_ids_a_refusal_of_an_unheld_id_lists(bundle) -> None:
    assert bundle.view.budgets.held_values_quoted == 10
    assert message(served_with(bundle), ITEM, {"item_id": "9"}).endswith('holds "id" values "1", "2", "3"')
    assert message(served_with(bundle, held_values_quoted=1), ITEM, {"item_id": "9"}).endswith(
        'holds "id" values "1" and 2 more')


def test_tools_named_bound_the_tools_an_unknown_tool_names(bundle) -> None:
    assert bundle.view.budgets.tools_named == 200
    everything = message(served_with(bundle), "no_such_tool", {})
    assert everything.endswith('tools: "get_search", "get_items", "get_items_by_item_id"'), everything
    assert message(served_with(bundle, tools_named=1), "no_such_tool", {}).endswith('tools: "get_search" and 2 more')
