"""A list answer learns from its collection's member counts (``HeldCollection.member_counts``,
kept by every edit) that its entities show only the view's members and hold every required
one, without looking at each entity: the counts must stay what a fresh count says across
creates, updates, deletes, data/reset and data/add, and an entity holding a member the view does
not show, or lacking one it requires, must still be left out or refused as a look at each would."""

from __future__ import annotations


from capenv.serving.runtime import EnvironmentRuntime
from support.installed_state import install_entities
from capenv.serving.state.edits import members_held
from capenv.serving.state.index import HeldCollection


def assert_counts_right(runtime: EnvironmentRuntime) -> None:
    for collection in runtime._holder.working().collections.values():
        counts = dict(members_held(collection))
        recount = HeldCollection(collection.path, collection.type, {}, entities=collection.entities)
        assert counts == members_held(recount), collection.path


def served(runtime: EnvironmentRuntime, tool: str, arguments: dict | None = None) -> dict:
    answer = runtime.read(tool, arguments or {})
    assert "status" in answer and answer["status"] < 300, answer
    return answer


def test_the_counts_stay_right_across_creates_updates_deletes_reset_and_data_add(json_server) -> None:
    runtime = EnvironmentRuntime(json_server)
    assert_counts_right(runtime)
    served(runtime, "post_comments", {"body": {"body": "y", "postId": 1}})
    served(runtime, "patch_comments_by_comment_id", {"comment_id": "1", "body": {"edited": True}})  # a member more
    served(runtime, "delete_comments_by_comment_id", {"comment_id": "2"})
    assert_counts_right(runtime)
    assert members_held(runtime._holder.working().collections["/comments"])["edited"] == 1
    runtime.data_reset()
    assert_counts_right(runtime)
    install_entities(runtime, "/comments", [{"id": 1, "body": "a", "postId": 1}, {"id": 2, "body": "b", "extra": 1}])
    assert_counts_right(runtime)
    runtime.close()


def test_a_member_the_view_does_not_show_is_left_out_and_a_lacking_one_refuses(json_server) -> None:
    runtime = EnvironmentRuntime(json_server)
    whole = [{"id": 1, "body": "a", "postId": 1}, {"id": 2, "body": "b", "postId": 1, "edited": True}]
    install_entities(runtime, "/comments", whole)
    assert served(runtime, "get_comments")["body"] == whole  # counted: every comment shown whole
    served(runtime, "post_comments", {"body": {"body": "c", "postId": 1}})
    install_entities(runtime, "/comments", [*whole, {"id": 3, "body": "c", "postId": 1, "extra": 1}, {"id": 4, "body": "d"}])
    refusal = runtime.read("get_comments")
    assert refusal["error"] == "refused" and 'lacks "postId"' in refusal["message"]
    served(runtime, "delete_comments_by_comment_id", {"comment_id": "4"})  # the counts follow the delete
    assert served(runtime, "get_comments")["body"] == [*whole, {"id": 3, "body": "c", "postId": 1}]
    served(runtime, "delete_comments_by_comment_id", {"comment_id": "3"})
    assert served(runtime, "get_comments")["body"] == whole
    runtime.close()
