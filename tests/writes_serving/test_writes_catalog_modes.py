"""The catalog of write tools in each mode (write-effects "Serving › Catalog"): in state mode
the served write tools, each description naming its effect and target type, its required and
accepted members, members accepted only with their recorded value (and that value), the
envelope and the recorded query, with input schemas that say the same; ``--replay-only`` and a
bundle whose state is unavailable list no write tool. The discovery budget charges them."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from support.served import CALL_TIMEOUT_SECONDS, stdio_parameters
from write_calls import NEW_POST, accepted, refused

from capenv.serving.runtime import EnvironmentRuntime


def specs(runtime: EnvironmentRuntime) -> dict:
    return {spec.name: spec for spec in runtime.tools()}


def with_plan(bundle, tool: str, **changes):
    """The bundle with one write plan changed (a recorded query, an envelope, a member rule)."""
    writes = tuple(p.model_copy(update=changes) if p.tool == tool else p for p in bundle.view.writes)
    return bundle.model_copy(update={"view": bundle.view.model_copy(update={"writes": writes})})


def with_member(bundle, tool: str, member: str, **changes):
    plan = next(p for p in bundle.view.writes if p.tool == tool)
    members = tuple(m.model_copy(update=changes) if m.member == member else m for m in plan.members)
    return with_plan(bundle, tool, members=members)


# --- state mode ----------------------------------------------------------------------------


def test_state_mode_lists_the_served_write_tools_after_the_reads(runtime, json_server_bundle) -> None:
    served = [p.tool for p in json_server_bundle.view.writes if p.served]
    listed = [spec.name for spec in runtime.tools()]
    assert listed[-len(served):] == served and runtime.catalog_report()["writes"] == served
    assert "put_users_by_user_id" not in listed  # unexplained-change: not served


@pytest.mark.parametrize("tool,opening", [
    ("post_posts", 'Creates a "posts" entity in the served state (POST /posts)'),
    ("patch_posts_by_post_id", 'Updates a "posts" entity in the served state (PATCH /posts/{post_id})'),
    ("delete_comments_by_comment_id", 'Deletes a "comments" entity in the served state'),
    ("patch_profile", "Writes the document at /profile in the served state"),
])
def test_a_description_names_the_effect_and_its_target(runtime, tool: str, opening: str) -> None:
    description = specs(runtime)[tool].description
    assert description.startswith(opening) and "later reads and data/get show the change" in description


def test_descriptions_list_required_and_accepted_members(runtime) -> None:
    described = {name: spec.description for name, spec in specs(runtime).items()}
    assert 'Required body members: "title", "author", "views", "published", "tags".' in described["post_posts"]
    assert 'Accepted body members: "views", "author".' in described["patch_posts_by_post_id"]
    assert "Send at least 1 member." in described["patch_posts_by_post_id"]
    assert '"id" is accepted only with its recorded value 99.' in described["patch_users_by_user_id"]
    assert "removes this entity alone" in described["delete_comments_by_comment_id"]
    assert "does not reorder lists" in described["patch_posts_by_post_id"]


def test_input_schemas_say_the_same(runtime) -> None:
    schemas = {name: spec.input_schema for name, spec in specs(runtime).items()}
    create = schemas["post_posts"]
    assert create["required"] == ["body"] and create["additionalProperties"] is False
    body = create["properties"]["body"]
    assert body["required"] == ["title", "author", "views", "published", "tags"]
    assert body["additionalProperties"] is False
    assert {n: p["type"] for n, p in body["properties"].items()} == {
        "title": "string", "author": "string", "views": "integer", "published": "boolean", "tags": "array"}
    patch = schemas["patch_posts_by_post_id"]
    assert patch["required"] == ["post_id", "body"] and patch["properties"]["body"]["minProperties"] == 1
    assert schemas["patch_users_by_user_id"]["properties"]["body"]["properties"]["id"] == {
        "type": "integer", "const": 99, "description": "accepted only with its recorded value"}
    delete = schemas["delete_comments_by_comment_id"]
    assert delete["required"] == ["comment_id"] and "body" not in delete["properties"]


@pytest.mark.parametrize("value,shown", [(True, "true"), ("", '""'), ("x" * 130, None)], ids=["bool", "empty", "long"])
def test_a_recorded_only_value_is_a_const_the_schema_enforces(json_server_bundle, value, shown) -> None:
    bundle = with_member(json_server_bundle, "patch_users_by_user_id", "id", recorded_value=value,
                         kind="boolean" if value is True else "string")
    runtime = EnvironmentRuntime(bundle)
    member = specs(runtime)["patch_users_by_user_id"].input_schema["properties"]["body"]["properties"]["id"]
    assert member["const"] == value  # the schema says it, so a client that follows it is never refused for it
    description = specs(runtime)["patch_users_by_user_id"].description
    if shown is None:  # past 120 characters of JSON the value is not spelled out
        assert '"id" is accepted only with its recorded value.' in description
    else:
        assert f'"id" is accepted only with its recorded value {shown}.' in description
    other = runtime.call_tool("patch_users_by_user_id", {"user_id": "1", "body": {"id": False if value is True else "other"}})
    assert other.is_error and "accepted only with its recorded value" in other.structured["message"]
    other = False if value is True else "y"
    message = refused(runtime, "patch_users_by_user_id", {"user_id": "1", "body": {"id": other}})["message"]
    assert "recorded value" in message


def test_a_recorded_query_and_an_array_envelope(json_server_bundle) -> None:
    bundle = with_plan(json_server_bundle, "post_posts", body_envelope="posts", body_envelope_kind="array",
                       query=(("source", "html"), ("draft", "")))
    runtime = EnvironmentRuntime(bundle)
    spec = specs(runtime)["post_posts"]
    assert 'The body wraps its object as {"posts": [ {…} ]}.' in spec.description
    assert 'The recorded query source="html", draft="" is always sent.' in spec.description
    query = spec.input_schema["properties"]["query"]["properties"]
    assert query["source"] == {"type": "string", "enum": ["html"], "default": "html"}
    assert "enum" not in query["draft"] and "empty" in query["draft"]["description"]
    body = spec.input_schema["properties"]["body"]
    assert body["required"] == ["posts"]
    assert body["properties"]["posts"]["minItems"] == body["properties"]["posts"]["maxItems"] == 1

    assert "posts" in refused(runtime, "post_posts", {"body": NEW_POST})["message"]  # not wrapped
    refused(runtime, "post_posts", {"body": {"posts": [NEW_POST, NEW_POST]}})
    refused(runtime, "post_posts", {"body": {"posts": [NEW_POST]}, "query": {"source": "markdown"}})
    refused(runtime, "post_posts", {"body": {"posts": [NEW_POST]}, "query": {"draft": "1"}})
    refused(runtime, "post_posts", {"body": {"posts": [NEW_POST]}, "query": {"other": "x"}})
    created = accepted(runtime, "post_posts", {"body": {"posts": [NEW_POST]}})  # the query defaults
    assert created["state"]["view"] == "create"
    again = accepted(runtime, "post_posts", {"body": {"posts": [{**NEW_POST, "title": "Another new post"}]},
                                             "query": {"source": "html", "draft": ""}})
    assert again["state"]["id"] == created["state"]["id"] + 1


def test_an_object_envelope(bundle_of) -> None:
    """Kinto's record create wraps its object as {"data": {…}} (when the gate serves it)."""
    bundle = bundle_of("kinto")
    plan = next((p for p in bundle.view.writes if p.served and p.body_envelope), None)
    if plan is None:
        pytest.skip("this build of the Kinto capture serves no enveloped write")
    runtime = EnvironmentRuntime(bundle)
    spec = specs(runtime)[plan.tool]
    assert f'{{"{plan.body_envelope}": ' in spec.description
    # a plan dispatching on a collection segment: each served value's body wraps it
    for schema in spec.input_schema.get("oneOf") or [spec.input_schema]:
        assert schema["properties"]["body"]["required"] == [plan.body_envelope]


# --- the other modes -----------------------------------------------------------------------


def test_replay_only_lists_no_write_tool(json_server_bundle) -> None:
    runtime = EnvironmentRuntime(json_server_bundle, replay_only=True)
    assert runtime.catalog_report()["writes"] == []
    assert all(e.handler == "read" and not e.from_state for e in runtime.catalog.entries.values())
    assert "no tool 'post_posts'" in refused(runtime, "post_posts", {"body": NEW_POST})["message"]


def test_an_unavailable_state_lists_no_write_tool(json_server_bundle) -> None:
    view = json_server_bundle.view.model_copy(update={"state_available": False})
    runtime = EnvironmentRuntime(json_server_bundle.model_copy(update={"view": view}))
    assert runtime.catalog_report()["writes"] == [] and not runtime.catalog_report()["state_available"]
    assert all(not e.from_state for e in runtime.catalog.entries.values())
    refused(runtime, "patch_profile", {"body": {"theme": "dark"}})


def test_replay_only_over_stdio_lists_only_the_read_tools(bundle_dir, json_server_bundle) -> None:
    reads = [e.name for e in EnvironmentRuntime(json_server_bundle).catalog.entries.values() if e.handler == "read"]

    async def main() -> list[str]:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(stdio_parameters(bundle_dir("json-server"), "--replay-only")) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

    assert anyio.run(main) == reads


def test_the_discovery_budget_charges_write_descriptions(runtime, json_server_bundle) -> None:
    report = runtime.catalog_report()
    writes = [s for s in runtime.tools() if s.name in report["writes"]]
    assert report["characters"] == sum(len(s.description) for s in runtime.tools())
    reads_only = EnvironmentRuntime(json_server_bundle, replay_only=True).catalog_report()
    assert report["characters"] > sum(len(s.description) for s in runtime.tools() if s not in writes) > 0
    assert reads_only["tools"] == report["tools"] - len(writes)
    view = json_server_bundle.view
    tight = view.model_copy(update={"budgets": view.budgets.model_copy(
        update={"discovery_characters": report["characters"] // 2})})
    squeezed = EnvironmentRuntime(json_server_bundle.model_copy(update={"view": tight}))
    hits = {hit["tool"] for hit in squeezed.catalog_report()["hits"]}
    assert hits & set(report["writes"]), "a tight budget samples write descriptions too"
    assert squeezed.catalog_report()["characters"] <= report["characters"] // 2
