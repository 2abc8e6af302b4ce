"""The json-server session of the write-effects Acceptance ("Real captures"), scripted over MCP on
the exported bundle: create a post, update it, delete a comment, write the profile; graded from
data/get (the new post with the sent fields and a new sequence id, the update's fields, the
comment gone, the profile changed, nothing else), and data/reset restores the initial state byte
for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from grader import ExpectedChange, grade
from support.served import (
    CALL_TIMEOUT_SECONDS, capenv, capture_path, data_get_url, data_reset_url, serving_http,
)

POST = {"title": "Written by an agent", "author": "agent", "views": 3, "published": False, "tags": ["mcp"]}
UPDATE = {"views": 42, "author": "editor"}
PROFILE = {"theme": "dark"}


def _ids(document: bytes, path: str) -> list[Any]:
    return next([e["id"] for e in c["entities"]] for c in json.loads(document)["collections"] if c["path"] == path)


def test_create_a_post_update_it_delete_a_comment_write_the_profile(tmp_path: Path) -> None:
    directory = tmp_path / "json-server"
    exported = capenv("export", str(capture_path("json-server")), "-o", str(directory))
    assert exported.returncode == 0, exported.stderr

    with serving_http(directory) as url:
        before = data_get_url(url)
        posts, comments = _ids(before, "/posts"), _ids(before, "/comments")
        gone = comments[0]

        async def play() -> dict[str, Any]:
            answers = {}
            with anyio.fail_after(4 * CALL_TIMEOUT_SECONDS):
                async with Client(url + "/mcp") as client:
                    for name, tool, arguments in (
                            ("create", "post_posts", {"body": POST}),
                            ("update", "patch_posts_by_post_id", None),
                            ("delete", "delete_comments_by_comment_id", {"comment_id": str(gone)}),
                            ("profile", "patch_profile", {"body": PROFILE})):
                        if arguments is None:  # the post just created
                            arguments = {"post_id": str(answers["create"]["state"]["id"]), "body": UPDATE}
                        result = await client.call_tool(tool, arguments)
                        assert result.is_error is False, (tool, result.structured_content)
                        answers[name] = result.structured_content
            return answers

        answers = anyio.run(play)
        new_id = answers["create"]["state"]["id"]
        assert isinstance(new_id, int) and new_id > max(posts), (new_id, posts)   # a new sequence value
        assert answers["create"]["body"]["id"] == new_id and answers["update"]["state"]["id"] == new_id
        assert {k: answers["update"]["body"][k] for k in UPDATE} == UPDATE
        after = data_get_url(url)
        problems = grade(before, after, [
            # the post was created, then updated: afterwards it holds the sent fields, the update's on top
            ExpectedChange("create", "/posts", new_id, {**POST, **UPDATE, "id": new_id}),
            ExpectedChange("delete", "/comments", gone),
            ExpectedChange("document", "/profile", fields=PROFILE),
        ])
        assert problems == [], "; ".join(problems)

        data_reset_url(url)
        assert data_get_url(url) == before, "data/reset did not restore the initial state byte for byte"
