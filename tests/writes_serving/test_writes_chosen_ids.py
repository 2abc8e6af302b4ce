"""A create whose client chooses the new entity's identity (a body member, ``WritePlan.chosen_id``;
or the path segment naming it) takes an id shaped like those the capture shows the type holding,
and refuses another (a space, a slash, a non-ASCII letter, an empty id, one far longer than any),
over HTTP and MCP alike, saying which ids it accepts, with the state unchanged: the capture cannot
show the application taking such an id, and an application may refuse it (an id naming a path, a
token alphabet). A create whose identity the application makes has no such check."""

from __future__ import annotations

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

SPACES = [{"id": "team-alpha", "title": "Alpha"}, {"id": "ops_2024", "title": "Ops"}]
UNSHAPED = ["has space", "a/b", "caf\u00e9-team", "", "x" * 100, "Team-Beta"]


def spaces_capture(chosen_in: str) -> HarBuilder:
    """Spaces named by the client: in the body's ``id`` (``body``) or in the create's path (``path``)."""
    har = HarBuilder()
    held = list(SPACES)
    har.call("GET", "/spaces", response=held)
    for space in SPACES:
        har.call("GET", f"/spaces/{space['id']}", response=space)
    for new_id, title in (("research-lab", "Lab"), ("q3-plans", "Plans")):
        made = {"id": new_id, "title": title}
        held = [*held, made]
        if chosen_in == "body":
            har.call("POST", "/spaces", body={"id": new_id, "title": title}, status=201, response=made)
        else:
            har.call("POST", f"/spaces/{new_id}", body={"title": title}, status=201, response=made)
        har.call("GET", f"/spaces/{new_id}", response=made)
        har.call("GET", "/spaces", response=held)
    return har


def create_call(chosen_in: str, space_id: str) -> tuple[str, dict]:
    if chosen_in == "body":
        return "/spaces", {"id": space_id, "title": "New"}
    from urllib.parse import quote
    return "/spaces/" + quote(space_id, safe=""), {"title": "New"}


@pytest.fixture(scope="module", params=["body", "path"])
def built(request, tmp_path_factory):
    return request.param, build_from(spaces_capture(request.param),
                                     tmp_path_factory.mktemp(request.param) / "capture.har")


def create_plan(chosen_in: str, bundle):
    return plan(bundle, "POST", "/spaces" if chosen_in == "body" else "/spaces/{space_id}")


def test_the_plan_holds_the_ids_shape(built) -> None:
    chosen_in, bundle = built
    create = create_plan(chosen_in, bundle)
    assert create.served, create.reason
    assert create.chosen_id is not None and create.chosen_id.field == "id"
    assert create.chosen_id.rule_id == "chosen-id.characters"


def test_an_id_of_the_held_shape_is_created(built) -> None:
    chosen_in, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            path, body = create_call(chosen_in, "design_team-7")
            status, answer = send_json(serving, path, body)
            assert status == 201 and answer["id"] == "design_team-7", answer
    finally:
        runtime.close()


@pytest.mark.parametrize("space_id", UNSHAPED)
def test_an_id_of_another_shape_is_refused_over_http(built, space_id) -> None:
    chosen_in, bundle = built
    if chosen_in == "path" and space_id == "":
        pytest.skip("an empty path segment names the collection, not a space")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            path, body = create_call(chosen_in, space_id)
            status, answer = send_json(serving, path, body)
            assert status == 400, answer
            message = answer["message"]
            assert "ids drawing only on" in message and "'team-alpha'" in message, message
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
    finally:
        runtime.close()


def test_an_id_of_another_shape_is_refused_over_mcp(built) -> None:
    chosen_in, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            create = create_plan(chosen_in, bundle).tool
            arguments = ({"body": {"id": "has space", "title": "New"}} if chosen_in == "body"
                         else {"space_id": "has space", "body": {"title": "New"}})
            result = anyio.run(call_tool, serving, runtime, create, arguments)
            said = str(result.content)
            assert result.is_error is True and "ids drawing only on" in said and "team-alpha" in said, said
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            arguments = ({"body": {"id": "new-space", "title": "New"}} if chosen_in == "body"
                         else {"space_id": "new-space", "body": {"title": "New"}})
            result = anyio.run(call_tool, serving, runtime, create, arguments)
            assert result.is_error is False, result.content
    finally:
        runtime.close()


def test_an_identity_the_application_makes_is_not_judged() -> None:
    har = HarBuilder().call("GET", "/notes", response=[{"id": 1, "text": "a"}]).call(
        "GET", "/notes/1", response={"id": 1, "text": "a"})
    har.call("POST", "/notes", body={"text": "b"}, status=201, response={"id": 2, "text": "b"})
    har.call("GET", "/notes/2", response={"id": 2, "text": "b"})
    create = plan(build_from(har), "POST", "/notes")
    assert create.served and create.chosen_id is None
