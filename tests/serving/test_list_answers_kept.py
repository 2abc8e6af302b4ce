"""A list answer lists the state's entities without copying them (``render.render_entities``):
an answer already handed out must still say what it said after later writes change, add or
remove those entities, since the state puts a new entity in place of an edited one."""

from __future__ import annotations

import copy

from capenv.serving.runtime import EnvironmentRuntime


def test_a_list_answer_handed_out_is_not_changed_by_later_writes(json_server) -> None:
    runtime = EnvironmentRuntime(json_server)
    answer, comments = runtime.read("get_posts"), runtime.read("get_comments")
    listed, listed_comments = copy.deepcopy(answer["body"]), copy.deepcopy(comments["body"])
    assert [post["id"] for post in listed] == [1, 2, 3] and listed_comments[0]["id"] == 1
    assert runtime.read("patch_posts_by_post_id", {"post_id": "1", "body": {"views": 999, "author": "x"}})["status"] == 200
    assert runtime.read("post_posts", {"body": {"title": "t", "author": "a", "views": 1, "published": True,
                                                  "tags": ["b"]}})["status"] == 201
    assert runtime.read("delete_comments_by_comment_id", {"comment_id": "1"})["status"] in (200, 204)
    assert answer["body"] == listed and comments["body"] == listed_comments
    again = runtime.read("get_posts")["body"]
    assert again[0]["views"] == 999 and again[0]["author"] == "x" and len(again) == 4
    assert runtime.read("get_comments")["body"][0]["id"] != 1
    runtime.close()
