"""A write names its entity only as the capture shows it can be: an entity the state holds alike
under two parents (an application answering it under any parent, as Superset's annotation 1 read
under layer 2) is refused a write at either, which would change one copy and leave the other
showing it as it was; and a write at an item path whose reads also take another key member (a
dashboard read by its slug) is refused that member unless one of its own recorded calls named its
entity by it (Superset answers a DELETE by slug 404), saying which identity to send."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

N1 = {"id": 1, "text": "first", "layer": 1}
N2 = {"id": 2, "text": "second", "layer": 1}
N3 = {"id": 3, "text": "third", "layer": 2}


def notes_capture() -> HarBuilder:
    """Notes under layers; note 1 is also answered under layer 2 (the parent is ignored); notes deleted."""
    return (HarBuilder()
            .call("GET", "/layers/1/notes", response=[N1, N2])
            .call("GET", "/layers/2/notes", response=[N3])
            .call("GET", "/layers/1/notes/1", response=N1)
            .call("GET", "/layers/1/notes/2", response=N2)
            .call("GET", "/layers/2/notes/3", response=N3)
            .call("GET", "/layers/2/notes/1", response=N1)
            .call("DELETE", "/layers/1/notes/2", status=204)
            .call("GET", "/layers/1/notes/2", status=404, response={"message": "Not found"})
            .call("GET", "/layers/1/notes", response=[N1])
            .call("DELETE", "/layers/2/notes/3", status=204)
            .call("GET", "/layers/2/notes/3", status=404, response={"message": "Not found"}))


BOARDS = [{"id": 1, "slug": "ops", "title": "Ops"}, {"id": 2, "slug": "sales", "title": "Sales"},
          {"id": 3, "slug": "hr", "title": "HR"}]


def boards_capture(delete_by_slug: bool) -> HarBuilder:
    """Boards read by id and by slug; deleted by id, and by slug when ``delete_by_slug``."""
    har = (HarBuilder()
           .call("GET", "/boards", response=BOARDS)
           .call("GET", "/boards/1", response=BOARDS[0])
           .call("GET", "/boards/sales", response=BOARDS[1])
           .call("GET", "/boards/3", response=BOARDS[2])
           .call("DELETE", "/boards/3", status=204)
           .call("GET", "/boards/3", status=404, response={"message": "Not found"}))
    if delete_by_slug:
        har.call("DELETE", "/boards/sales", status=204)
        har.call("GET", "/boards/2", status=404, response={"message": "Not found"})
    return har


def delete(runtime: EnvironmentRuntime, path: str) -> tuple[int, str]:
    answer = runtime.http(HttpRequest("DELETE", path, (), (), b""))
    return answer.status, answer.body.decode()


def test_a_write_of_an_entity_held_alike_under_two_parents_is_refused(tmp_path) -> None:
    bundle = build_from(notes_capture(), tmp_path / "capture.har")
    assert plan(bundle, "DELETE", "/layers/{layer_id}/notes/{note_id}").served
    runtime = EnvironmentRuntime(bundle)
    for path in ("/layers/2/notes/1", "/layers/1/notes/1"):
        status, body = delete(runtime, path)
        assert status == 400 and "held alike under 2 collections" in body, body
    assert runtime.http(HttpRequest("GET", "/layers/1/notes/1", (), (), b"")).status == 200
    assert delete(runtime, "/layers/1/notes/2")[0] == 204  # held under one parent: served


def test_a_write_by_a_key_its_calls_never_used_is_refused(tmp_path) -> None:
    bundle = build_from(boards_capture(delete_by_slug=False), tmp_path / "capture.har")
    removal = plan(bundle, "DELETE", "/boards/{board_id}")
    assert removal.served and not removal.either_key_named
    runtime = EnvironmentRuntime(bundle)
    status, body = delete(runtime, "/boards/ops")
    assert status == 400 and "'slug' 'ops'" in body and "name it by 'id' (1)" in body, body
    assert runtime.http(HttpRequest("GET", "/boards/ops", (), (), b"")).status == 200
    assert delete(runtime, "/boards/1")[0] == 204


def test_a_write_recorded_by_that_key_takes_it(tmp_path) -> None:
    bundle = build_from(boards_capture(delete_by_slug=True), tmp_path / "capture.har")
    removal = plan(bundle, "DELETE", "/boards/{board_id}")
    assert removal.served and removal.either_key_named
    runtime = EnvironmentRuntime(bundle)
    assert delete(runtime, "/boards/ops")[0] == 204
    assert runtime.http(HttpRequest("GET", "/boards/1", (), (), b"")).status == 404
