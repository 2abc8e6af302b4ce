"""The gate learns whether a create's sequence reuses a deleted value (table ``sequence-reuse``):
a recorded create after the delete of the entity holding the largest id that drew one more than
it proves the sequence goes past it (served creates after such a delete draw on); one that drew
the deleted id again names that create; without such a create, serving refuses a create after the
delete of the entity holding the largest id, saying why and what it accepts."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def _app(after_delete: int | None):
    """Items 1 and 2; a create (3), read back; item 3 deleted, its absence read; then, with
    ``after_delete``, a create drawing that id, read back."""
    builder = items_app()
    builder.call("POST", "/items", body={"title": "new"}, status=201, response={"id": 3, "title": "new"})
    builder.call("GET", "/items/3", response={"id": 3, "title": "new"})
    builder.call("DELETE", "/items/3", status=204)
    builder.call("GET", "/items/3", status=404, response={"error": "not found"})
    if after_delete is not None:
        builder.call("POST", "/items", body={"title": "again"}, status=201,
                     response={"id": after_delete, "title": "again"})
        builder.call("GET", f"/items/{after_delete}", response={"id": after_delete, "title": "again"})
    builder.call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
                 + ([{"id": after_delete, "title": "again"}] if after_delete is not None else []))
    return build_from(builder)


def _id_params(bundle) -> dict:
    return next(f.params for f in plan(bundle, "POST", "/items").fields if f.field == "id")


def _decided(bundle) -> list[tuple[str | None, str]]:
    return [(e.rule_id, e.outcome) for e in plan(bundle, "POST", "/items").traces if e.table == "sequence-reuse"
            and e.outcome != "miss"]


def _after_deleting_the_newest(bundle) -> tuple[EnvironmentRuntime, int]:
    runtime = EnvironmentRuntime(bundle)
    made = runtime.call_tool("post_items", {"body": {"title": "x"}})
    assert made.is_error is False, made.structured
    newest = made.structured["state"]["id"]
    deleted = runtime.call_tool("delete_items_by_item_id", {"item_id": str(newest)})
    assert deleted.is_error is False, deleted.structured
    return runtime, newest


def test_a_create_drawing_one_past_the_deleted_largest_proves_the_sequence_fresh():
    bundle = _app(after_delete=4)
    assert _decided(bundle) == [("sequence-reuse.fresh-after-delete", "match")]
    assert _id_params(bundle).get("fresh_after_delete") is True
    runtime, newest = _after_deleting_the_newest(bundle)
    try:
        again = runtime.call_tool("post_items", {"body": {"title": "y"}})
        assert again.is_error is False and again.structured["state"]["id"] == newest + 1, again.structured
    finally:
        runtime.close()


def test_a_create_taking_the_deleted_id_again_is_named_and_such_a_create_refused():
    bundle = _app(after_delete=3)
    assert _decided(bundle) == [("sequence-reuse.deleted-value-taken", "match")]
    params = _id_params(bundle)
    assert params.get("reuse_seen") and not params.get("fresh_after_delete")
    runtime, newest = _after_deleting_the_newest(bundle)
    try:
        before = runtime.data_get()
        refused = runtime.call_tool("post_items", {"body": {"title": "y"}})
        assert refused.is_error is True, refused.structured
        message = refused.structured["message"]
        assert f"holds id {newest!r}" in message and f"record {params['reuse_seen']}" in message, message
        assert runtime.data_get() == before
    finally:
        runtime.close()


def test_without_a_create_after_such_a_delete_the_create_is_refused_until_a_reset():
    bundle = _app(after_delete=None)
    assert _decided(bundle) == [(None, "default")]
    assert "fresh_after_delete" not in _id_params(bundle) and "reuse_seen" not in _id_params(bundle)
    runtime, newest = _after_deleting_the_newest(bundle)
    try:
        refused = runtime.call_tool("post_items", {"body": {"title": "y"}})
        assert refused.is_error is True and "unproven" in refused.structured["message"], refused.structured
        runtime.data_reset()
        made = runtime.call_tool("post_items", {"body": {"title": "y"}})
        assert made.is_error is False and made.structured["state"]["id"] == newest, made.structured
    finally:
        runtime.close()


def test_a_delete_below_the_largest_leaves_creates_served():
    runtime = EnvironmentRuntime(_app(after_delete=None))
    try:
        assert runtime.call_tool("delete_items_by_item_id", {"item_id": "1"}).is_error is False
        made = runtime.call_tool("post_items", {"body": {"title": "y"}})
        assert made.is_error is False and made.structured["state"]["id"] == 3, made.structured
    finally:
        runtime.close()
