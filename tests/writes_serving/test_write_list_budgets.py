"""A write tool's argument descriptions and refusals list as many values as the bundle's budgets say
(``rules/budgets.yaml``), as a read tool's do: a path parameter's recorded ids
(``path_values_quoted``) and the body members accepted (``names_quoted``); json-server's served
posts with bounds under the table's values (so each assertion fails with the old constants). What
is accepted does not change."""

from __future__ import annotations

from write_calls import NEW_POST

from capenv.interpreter.bundle.io import Bundle
from capenv.serving.runtime import EnvironmentRuntime

PATCH = "patch_posts_by_post_id"


def served_with(bundle: Bundle, **budgets: int) -> EnvironmentRuntime:
    view = bundle.view.model_copy(update={"budgets": bundle.view.budgets.model_copy(update=budgets)})
    return EnvironmentRuntime(bundle.model_copy(update={"view": view}))


def post_id_description(runtime: EnvironmentRuntime) -> str:
    return next(s for s in runtime.tools() if s.name == PATCH).input_schema["properties"]["post_id"]["description"]


def refusal(runtime: EnvironmentRuntime, tool: str, arguments: dict) -> str:
    answer = runtime.call_tool(tool, arguments)
    assert answer.is_error, answer
    return answer.structured["message"]


def test_path_values_quoted_bound_a_write_tools_recorded_ids(json_server_bundle: Bundle) -> None:
    assert json_server_bundle.view.budgets.path_values_quoted == 5
    assert post_id_description(served_with(json_server_bundle)).startswith(
        'path parameter {post_id}; recorded: "1", "3", "9999" (')
    fewer = served_with(json_server_bundle, path_values_quoted=1)
    assert post_id_description(fewer).startswith('path parameter {post_id}; recorded: "1" and 2 more (')
    assert 'recorded: "1" and 2 more (' in refusal(fewer, PATCH, {"body": {"views": 1}})
    fewer.close()


def test_names_quoted_bound_the_body_members_a_write_tool_accepts(json_server_bundle: Bundle) -> None:
    assert json_server_bundle.view.budgets.names_quoted == 20
    unknown = {"body": NEW_POST, "extra": 1}
    assert refusal(served_with(json_server_bundle), "post_posts", unknown).endswith(
        '"body" (an object of "title", "author", "views", "published", "tags")')
    fewer = served_with(json_server_bundle, names_quoted=2)
    assert refusal(fewer, "post_posts", unknown).endswith('"body" (an object of "title", "author" and 3 more)')
    assert not fewer.call_tool("post_posts", {"body": NEW_POST}).is_error  # still served
    fewer.close()
