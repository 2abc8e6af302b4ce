"""Every refusal of write-effects "Serving › Refusals", on served json-server (and Prefect)
write tools: a tool error whose message says what is accepted, and data/get byte for byte as
before. Updates and deletes of entities the state does not hold answer the recorded 404
instead, the tool's own recording first."""

from __future__ import annotations

from typing import Any

import pytest

from write_calls import NEW_POST, accepted, entities, refused, unchanged_answer, with_state

from capenv.serving.runtime import EnvironmentRuntime

POST_MEMBERS = ("author", "published", "tags", "title", "views")


def deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


# --- the body --------------------------------------------------------------------------


@pytest.mark.parametrize("body", [[NEW_POST], "a post", 7, True, None], ids=["array", "string", "number", "bool",
                                                                              "null"])
def test_a_body_that_is_not_an_object(runtime: EnvironmentRuntime, body: Any) -> None:
    error = refused(runtime, "post_posts", {"body": body})
    assert "must be a JSON object" in error["message"], error


def test_an_update_and_a_document_write_refuse_a_body_that_is_not_an_object(runtime) -> None:
    assert "JSON object" in refused(runtime, "patch_posts_by_post_id", {"post_id": "1", "body": ["views"]})["message"]
    assert "JSON object" in refused(runtime, "patch_profile", {"body": "dark"})["message"]


def test_a_missing_required_member_is_named(runtime) -> None:
    message = refused(runtime, "post_posts", {"body": {"title": "t", "author": "a"}})["message"]
    assert "missing required member(s)" in message
    assert all(name in message for name in ("views", "published", "tags"))
    put = refused(runtime, "put_posts_by_post_id", {"post_id": "1", "body": {"title": "t"}})["message"]
    assert "missing required member(s)" in put and "author" in put


def test_a_patch_must_send_at_least_one_member(runtime) -> None:
    message = refused(runtime, "patch_posts_by_post_id", {"post_id": "1", "body": {}})["message"]
    assert "at least 1" in message and "views" in message and "author" in message


def test_a_member_that_is_not_accepted_names_the_accepted_members(runtime) -> None:
    message = refused(runtime, "post_posts", {"body": {**NEW_POST, "rating": 5}})["message"]
    assert "'rating' is not accepted" in message
    assert "accepted members: " + ", ".join(POST_MEMBERS) in message
    patch = refused(runtime, "patch_posts_by_post_id", {"post_id": "1", "body": {"title": "x"}})["message"]
    assert "'title' is not accepted" in patch and "accepted members: author, views" in patch


def test_a_member_accepted_only_as_recorded_names_the_recorded_value(runtime) -> None:
    message = refused(runtime, "patch_users_by_user_id", {"user_id": "1", "body": {"id": 5}})["message"]
    assert "accepted only with its recorded value 99" in message


@pytest.mark.parametrize("member,value,kind", [("title", 1, "string"), ("views", "7", "integer"),
                                               ("published", "yes", "boolean"), ("tags", {"a": 1}, "array"),
                                               ("views", None, "integer")])
def test_a_value_of_another_json_type(runtime, member: str, value: Any, kind: str) -> None:
    message = refused(runtime, "post_posts", {"body": {**NEW_POST, member: value}})["message"]
    assert f"'{member}' must be a JSON {kind}" in message


def test_a_document_write_refuses_a_value_of_another_json_type(runtime) -> None:
    assert "'theme' must be a JSON string" in refused(runtime, "patch_profile", {"body": {"theme": 3}})["message"]
    assert "'bio' must be a JSON string" in refused(runtime, "put_profile",
                                                    {"body": {"name": "n", "bio": ["b"]}})["message"]


@pytest.mark.parametrize("body", [
    {**NEW_POST, "__proto__": {"admin": True}},
    {**NEW_POST, "tags": [{"__proto__": 1}]},
], ids=["member", "nested"])
def test_a_proto_member(runtime, body: dict) -> None:
    refused(runtime, "post_posts", {"body": body})


def test_a_nested_proto_member_in_a_document_write(runtime) -> None:
    body = {"name": "n", "bio": "b", "links": {"__proto__": {}}}
    message = refused(runtime, "put_profile", {"body": body})["message"]
    assert "links" in message  # the schema refuses the member before the walk would see __proto__


@pytest.mark.parametrize("views", [float("inf"), float("nan")], ids=["inf", "nan"])
def test_a_number_that_is_not_json(runtime, views: Any) -> None:
    """NaN and the infinities are no JSON numbers: refused before anything is judged."""
    message = refused(runtime, "post_posts", {"body": {**NEW_POST, "views": views}})["message"]
    assert "not a JSON number" in message


def without_unproven_values(bundle: Any) -> EnvironmentRuntime:
    """A runtime of ``bundle`` whose writes judge no sent value by what the capture sent
    (write-sent-values), so that what a test checks is reached on its own."""
    writes = tuple(w.model_copy(update={"unproven_values": ()}) for w in bundle.view.writes)
    return EnvironmentRuntime(bundle.model_copy(update={"view": bundle.view.model_copy(update={"writes": writes})}))


@pytest.mark.parametrize("views", [1.5, 0.1, 1e300], ids=["1.5", "0.1", "1e300"])
def test_a_fraction_where_the_recording_sent_an_integer(json_server_bundle, views: Any) -> None:
    """A float arrives as the exact number of its shortest text, so it is judged by its JSON type
    (past the bound of the integers sent, 1e300 is refused for that too: write-sent-values)."""
    runtime = without_unproven_values(json_server_bundle)
    message = refused(runtime, "post_posts", {"body": {**NEW_POST, "views": views}})["message"]
    assert "must be a JSON integer" in message


@pytest.mark.parametrize("views", [2**70, 2**64], ids=["2^70", "2^64"])
def test_an_integer_past_64_bits_is_kept_exactly(json_server_bundle, views: int) -> None:
    """An unbounded integer from a client is kept as an exact number: data/get writes it as sent.
    (The capture sent views only as integers of zero up to 32 bits, so served json-server refuses such
    a one, write-sent-values: this checks the store on its own.)"""
    runtime = without_unproven_values(json_server_bundle)
    accepted(runtime, "post_posts", {"body": {**NEW_POST, "views": views}})
    assert str(views).encode() in runtime.data_get()
    document = runtime.data_get()
    runtime.data_add(document)
    assert runtime.data_get() == document


def test_nesting_past_the_limit(json_server_bundle) -> None:
    # the nesting budget alone: the capture sent tags only as arrays of strings, so the element kinds
    # (write-sent-values) would refuse a nested array first
    runtime = without_unproven_values(json_server_bundle)
    limit = json_server_bundle.view.budgets.max_nesting
    message = refused(runtime, "post_posts", {"body": {**NEW_POST, "tags": deep(limit)}})["message"]
    assert f"deeper than {limit}" in message
    accepted(runtime, "post_posts", {"body": {**NEW_POST, "tags": deep(limit - 1)}})  # the body's own level counts


# --- the 32 MiB data/add limit -----------------------------------------------------------


@pytest.mark.parametrize("name,arguments", [
    # many short tags (each within the length the recorded tags bound), not one long title: text far
    # longer than any a recorded call sent is refused as such first (write-stored-text)
    ("post_posts", lambda big: {"body": {**NEW_POST, "tags": [big[:45]] * (len(big) // 45 + 1)}}),
    ("put_posts_by_post_id",
     lambda big: {"post_id": "1", "body": {**NEW_POST, "tags": [big[:45]] * (len(big) // 45 + 1)}}),
    ("patch_profile", lambda big: {"body": {"theme": big}}),
], ids=["create", "update", "document-write"])
def test_a_write_past_the_data_add_limit_is_a_resource_constraint(json_server_bundle, name, arguments) -> None:
    # the size budget alone: an array far longer than any a recorded call sent is refused as such first
    # (write-sent-values' array length), so the writes' learned value shapes are left out here
    runtime = without_unproven_values(json_server_bundle)
    limit = json_server_bundle.view.budgets.max_state_bytes
    big = "x" * limit
    error = refused(runtime, name, arguments(big))
    assert error["kind"] == "resource_constraint" and str(limit) in error["message"]
    assert "budget max_state_bytes" in error["message"] and "delete what this episode created" in error["message"]


def test_a_write_up_to_the_limit_is_served_and_one_byte_more_is_not(runtime, json_server_bundle) -> None:
    limit = json_server_bundle.view.budgets.max_state_bytes
    size = len(runtime.data_get())
    # the document with a one-character theme (an empty text is refused: every recorded call sent a non-empty one)
    probe = accepted(runtime, "patch_profile", {"body": {"theme": "x"}})
    grown = limit - len(runtime.data_get())
    assert probe["state"]["view"] == "document-write" and grown > 0 and size > 0
    assert refused(runtime, "patch_profile", {"body": {"theme": "x" * (grown + 2)}})["kind"] == "resource_constraint"
    accepted(runtime, "patch_profile", {"body": {"theme": "x" * (grown + 1)}})
    assert len(runtime.data_get()) == limit


# --- entities the state does not hold ----------------------------------------------------


@pytest.mark.parametrize("name,arguments", [
    ("patch_posts_by_post_id", {"post_id": "404", "body": {"views": 1}}),
    ("put_posts_by_post_id", {"post_id": "404", "body": NEW_POST}),
    ("put_comments_by_comment_id", {"comment_id": "404", "body": {"body": "b", "postId": 1}}),
    ("patch_comments_by_comment_id", {"comment_id": "404", "body": {"edited": True}}),
    ("patch_users_by_user_id", {"user_id": "404", "body": {"role": "admin"}}),
    ("delete_comments_by_comment_id", {"comment_id": "404"}),
    ("delete_users_by_user_id", {"user_id": "404"}),
])
def test_an_update_or_delete_of_a_missing_entity_answers_the_recorded_404(runtime, name, arguments) -> None:
    answer = unchanged_answer(runtime, name, arguments)
    assert (answer["status"], answer["body"]) == (404, {})
    assert answer["state"]["source"] == "state" and answer["state"]["view"] == "missing"
    assert answer["state"]["type"] == name.split("_")[1]


def test_a_deleted_entity_is_missing_for_the_next_update_and_delete(runtime) -> None:
    accepted(runtime, "delete_comments_by_comment_id", {"comment_id": "2"})
    assert unchanged_answer(runtime, "delete_comments_by_comment_id", {"comment_id": "2"})["status"] == 404
    assert unchanged_answer(runtime, "patch_comments_by_comment_id",
                            {"comment_id": "2", "body": {"edited": True}})["state"]["view"] == "missing"


def test_the_tools_own_recorded_absence_answers_before_the_item_views(bundle_of) -> None:
    """Prefect's delete recorded its own 404 ("no-such-pool"); the item view recorded another. It is
    answered for the call's id: the recorded message named the recorded call's."""
    bundle = bundle_of("prefect")
    own = [c.response for c in bundle.replay.tools["delete_work_pools_by_work_pool_id"] if c.response.status == 404]
    view = bundle.view.view("get_work_pools_by_work_pool_id").missing
    assert own and view is not None and own[-1].body != view.body
    runtime = EnvironmentRuntime(bundle)
    answer = unchanged_answer(runtime, "delete_work_pools_by_work_pool_id", {"work_pool_id": "nowhere"})
    expected = {"detail": own[-1].body["detail"].replace("no-such-pool", "nowhere")}
    assert own[-1].body["detail"] != expected["detail"]
    assert (answer["status"], answer["body"]) == (404, expected)
    assert answer["state"]["view"] == "missing"


def test_with_no_recorded_absence_an_update_of_a_missing_entity_is_a_tool_error(json_server_bundle) -> None:
    views = tuple(v.model_copy(update={"missing": None}) for v in json_server_bundle.view.views)
    tools = {name: tuple(c for c in calls if c.response.status not in (400, 404, 410))
             for name, calls in json_server_bundle.replay.tools.items()}
    bundle = json_server_bundle.model_copy(update={
        "view": json_server_bundle.view.model_copy(update={"views": views}),
        "replay": json_server_bundle.replay.model_copy(update={"tools": tools})})
    runtime = EnvironmentRuntime(bundle)
    error = refused(runtime, "patch_posts_by_post_id", {"post_id": "404", "body": {"views": 1}})
    assert error["kind"] == "missing" and "'404'" in error["message"]
    assert refused(runtime, "delete_comments_by_comment_id", {"comment_id": "404"})["kind"] == "missing"


# --- collections and documents -----------------------------------------------------------


def test_a_create_in_another_collection_than_its_tied_one(runtime) -> None:
    message = refused(runtime, "post_posts_comments", {"post_id": "1", "body": {"body": "hi"}})["message"]
    # the schema says it (a pattern of its spellings): only "5", since no call shows another value
    assert "only with \"5\"" in message and "creating in /comments" in message, message
    refused(runtime, "post_posts_comments", {"post_id": "5/x", "body": {"body": "hi"}})


@pytest.mark.parametrize("spelling", ["5", "%35"])
def test_a_tied_create_accepts_its_collection_in_either_spelling(runtime, spelling: str) -> None:
    created = accepted(runtime, "post_posts_comments", {"post_id": spelling, "body": {"body": "hi"}})
    assert created["state"]["collection"] == "/comments" and created["body"]["postId"] == "5"


def test_a_document_write_at_another_path_than_the_state_holds_it_at(runtime) -> None:
    def move(state: dict) -> None:
        state["documents"] = [{**d, "path": "/settings"} for d in state["documents"]]

    with_state(runtime, move)
    error = refused(runtime, "patch_profile", {"body": {"theme": "dark"}})
    assert "/profile" in error["message"]


# --- the answer and the query ------------------------------------------------------------


def test_a_rendered_response_missing_a_recorded_field(runtime) -> None:
    """Post 1 without "tags": the update's recorded answer carried it, so the answer would lack it."""
    def drop_tags(state: dict) -> None:
        posts = next(c for c in state["collections"] if c["path"] == "/posts")
        del posts["entities"][0]["value"]["tags"]

    with_state(runtime, drop_tags)
    message = refused(runtime, "patch_posts_by_post_id", {"post_id": "1", "body": {"views": 5}})["message"]
    assert "tags" in message and "lack" in message
    assert entities(runtime, "/posts")[0]["value"]["views"] == 120


@pytest.mark.parametrize("query", [{"_embed": "comments"}, {"x": ""}], ids=["unknown", "empty"])
def test_a_query_the_recording_did_not_send(runtime, query) -> None:
    assert "not accepted" in refused(runtime, "post_posts", {"body": NEW_POST, "query": query})["message"]


def test_arguments_the_tool_does_not_take(runtime) -> None:
    assert "does not take" in refused(runtime, "post_posts", {"body": NEW_POST, "id": 9})["message"]
    assert "post_id" in refused(runtime, "delete_posts_by_post_id", {})["message"]
    assert "post_id" in refused(runtime, "delete_posts_by_post_id", {"post_id": 1.5})["message"]  # 1 is an id


def test_an_unserved_write_tool_is_no_tool(runtime) -> None:
    assert "no tool 'put_users_by_user_id'" in refused(runtime, "put_users_by_user_id",
                                                       {"user_id": "1", "body": {}})["message"]
