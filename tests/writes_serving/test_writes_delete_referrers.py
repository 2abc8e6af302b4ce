"""A served delete of an entity other entities name (``WritePlan.referrers``): the application may
delete them along, clear their reference or refuse, none of which a delete models, so serving
refuses exactly that delete, over HTTP and MCP, with the state unchanged; a delete of an entity
nothing names is served as the capture showed. References are learned from the entities the
capture shows: a comment's ``post`` object repeating its post (whatever it is called), a tag
link's ``post_id`` named after the type.
"""

from __future__ import annotations

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json

from capenv.serving.runtime import EnvironmentRuntime

POSTS = [{"id": n, "title": title, "views": n * 10}
         for n, title in enumerate(["Cards", "Relays", "Tapes", "Drums"], start=1)]
COMMENTS = [{"id": 1, "about": {"id": 1, "title": "Cards"}, "body": "first"},
            {"id": 2, "about": {"id": 1, "title": "Cards"}, "body": "second"}]
LINKS = [{"id": 1, "post_id": 2, "tag": "hardware"}]


def capture() -> HarBuilder:
    """Posts read, then a post nothing names (4) deleted and read back; comments name post 1
    under ``about`` (an object repeating it), tag links post 2 by ``post_id``."""
    har = HarBuilder()
    har.call("GET", "/posts", response=POSTS)
    for post in POSTS:
        har.call("GET", f"/posts/{post['id']}", response=post)
    har.call("GET", "/comments", response=COMMENTS)
    har.call("GET", "/links", response=LINKS)
    har.call("DELETE", "/posts/4", status=204)
    har.call("GET", "/posts/4", status=404, response={"error": "not found"})
    har.call("GET", "/posts", response=POSTS[:3])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("referrers") / "capture.har")


def test_the_delete_plan_names_what_refers_to_its_type(bundle) -> None:
    delete = plan(bundle, "DELETE", "/posts/{post_id}")
    assert delete.served, delete.reason
    assert {(r.type, r.member, r.id_member, r.rule_id) for r in delete.referrers} == {
        ("comments", "about", "id", "referrer.projected-objects"),
        ("links", "post_id", None, "referrer.named-member")}
    described = next(s for s in EnvironmentRuntime(bundle).tools() if s.name == delete.tool).description
    assert 'a held "comments" (about), "links" (post_id) entity names is refused' in described


def test_a_referenced_entity_is_not_deleted_and_the_others_are(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    tool = plan(bundle, "DELETE", "/posts/{post_id}").tool
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/posts/1", None, method="DELETE")  # two comments name it
        assert status == 400 and "comments 1 (about)" in answer["message"], answer
        result = anyio.run(call_tool, serving, runtime, tool, {"post_id": 2})  # a tag link names it
        assert result.is_error and "links 1 (post_id)" in result.content[0].text
        assert send_json(serving, "/posts/1", None, method="GET")[0] == 200  # the state is unchanged
        assert send_json(serving, "/posts/2", None, method="GET")[0] == 200
        assert send_json(serving, "/posts/3", None, method="DELETE")[0] == 204  # nothing names post 3
        assert send_json(serving, "/posts/3", None, method="GET")[0] == 404
