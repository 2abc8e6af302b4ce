"""A read-only POST (a batch of reads, a search) answers by replay, and its recording shows the
entities as the capture began; once a served write changes their type, serving refuses the
replay (``ReplayTable.reads_types``). Where the type's ids are too short to name an entity alone
(``{"id": 1}``), an answer object holding the id beside one of the entity's strings
(``replay_short_id_min_string``: ``"title": "Buy milk"``) shows it all the same: before, the
replay answered the old title after a served rename. A clock both hold (entities seeded at one
instant) names nothing."""

from __future__ import annotations

from pathlib import Path

from support.capture_runs import build_from, items_app, plan
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime

BATCH = {"operations": [{"operation": "getItem", "path": "/items/1"}]}
SEEDED = "2026-01-01T09:00:00.000Z"


def capture(shown: dict, entities: list[dict]):
    har = items_app(entities)
    har.call("POST", "/batch", body=BATCH, response={"responses": [{"status": 200, "body": shown}]})
    har.call("PATCH", "/items/1", body={"title": "a"}, response={**entities[0], "title": "a"})
    har.call("GET", "/items/1", response={**entities[0], "title": "a"})
    return har


def batch_after_rename(tmp_path: Path, shown: dict, entities: list[dict]) -> tuple[int, object]:
    bundle = build_from(capture(shown, entities), tmp_path / "capture.har")
    assert [p.tool for p in bundle.view.read_only_posts] == ["post_batch"]
    assert plan(bundle, "PATCH", "/items/{item_id}").served
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send(serving, "POST", "/batch", BATCH)
            assert status == 200 and answer["responses"][0]["body"] == shown, answer  # the state as recorded
            status, _ = send(serving, "PATCH", "/items/1", {"title": "x"})
            assert status == 200
            return send(serving, "POST", "/batch", BATCH)
    finally:
        runtime.close()


def test_a_batch_showing_an_item_by_a_short_id_is_refused_once_it_changed(tmp_path: Path):
    entities = [{"id": 1, "title": "Buy milk"}, {"id": 2, "title": "Walk dog"}]
    status, answer = batch_after_rename(tmp_path, entities[0], entities)
    assert status == 409 and "items" in answer["message"], answer


def test_a_shared_clock_names_no_entity(tmp_path: Path):
    """The answer's object holds id 1 and the seeding instant every item holds, nothing else of
    item 1 (a login answering its user): it shows no item, and its replay stays answered."""
    entities = [{"id": 1, "title": "Buy milk", "created": SEEDED}, {"id": 2, "title": "Walk dog", "created": SEEDED}]
    shown = {"id": 1, "name": "Editor", "created": SEEDED}
    status, answer = batch_after_rename(tmp_path, shown, entities)
    assert status == 200 and answer["responses"][0]["body"] == shown, answer
