"""A batch call (``POST /batch`` wrapping other calls, as Kinto's ``/v1/batch``) lies on no state
type's path: the gate counts it a write of unknown reach, which excuses no modelled write. A
served update whose first read after it shows its entity otherwise, with a batch that wrote the
same entity between, stays contradicted (the batch may explain the difference, but does not show
the update applied as modelled), and serving refuses the batch itself (405: a write it does not
serve), leaving the state as it was."""

from __future__ import annotations

from pathlib import Path

from support.capture_runs import build_from, items_app, plan, summary
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client


def capture(*, batch: dict | None, shown: dict):
    """Items 1 and 2; PATCH /items/1 {"title": "a"} answered with the item, then (``batch``) a
    batch call, then the item's read (``shown``), then item 2 renamed and read back (a plain
    PATCH the read confirms)."""
    har = items_app()
    har.call("PATCH", "/items/1", body={"title": "a"}, response={"id": 1, "title": "a"})
    if batch is not None:
        har.call("POST", "/batch", body=batch, response=[{"status": 200}])
    har.call("GET", "/items/1", response=shown)
    har.call("PATCH", "/items/2", body={"title": "b"}, response={"id": 2, "title": "b"})
    har.call("GET", "/items/2", response={"id": 2, "title": "b"})
    return har


BATCH = {"requests": [{"method": "PATCH", "path": "/items/1", "body": {"title": "z"}}]}


def test_without_a_batch_the_update_is_served():
    bundle = build_from(capture(batch=None, shown={"id": 1, "title": "a"}))
    assert plan(bundle, "PATCH", "/items/{item_id}").served, summary(bundle)


def test_a_batch_writing_the_entity_excuses_no_difference():
    bundle = build_from(capture(batch=BATCH, shown={"id": 1, "title": "z"}))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert not update.served and update.contradicted_by == 6, summary(bundle)


def test_serving_refuses_the_batch(tmp_path: Path):
    bundle = build_from(capture(batch=BATCH, shown={"id": 1, "title": "a"}), tmp_path / "capture.har")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send(serving, "POST", "/batch", BATCH)
            assert status == 405 and "does not serve" in answer["message"], answer
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
    finally:
        runtime.close()
