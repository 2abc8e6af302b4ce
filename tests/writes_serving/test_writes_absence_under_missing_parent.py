"""A delete the capture shows answering success for an id it had already deleted (an idempotent
delete) under a parent the state holds: that recorded answer says nothing of a delete under a
parent that does not exist, which the application may answer 404 for the parent. Serving answers
the recorded success only where the call's collection is held, and refuses the call elsewhere,
where it once answered 204 for a label of a board that never existed."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

LABELS = [{"key": key, "value": value} for key, value in (("red", "urgent"), ("blue", "later"), ("green", "done"))]


def capture() -> HarBuilder:
    """Boards and board b2's label read; board b1's labels read; red deleted (204), read back 404 and gone from the list, deleted
    again (204 as well); blue deleted, read back 404."""
    har = HarBuilder()
    har.call("GET", "/boards", response={"boards": [{"id": "b1", "name": "ops"}, {"id": "b2", "name": "dev"}]})
    har.call("GET", "/boards/b2/labels", response={"labels": [{"key": "grey", "value": "icebox"}]})
    har.call("GET", "/boards/b2/labels/grey", response={"key": "grey", "value": "icebox"})
    har.call("GET", "/boards/b1/labels", response={"labels": LABELS})
    for label in LABELS:
        har.call("GET", f"/boards/b1/labels/{label['key']}", response=label)
    har.call("DELETE", "/boards/b1/labels/red", status=204)
    har.call("GET", "/boards/b1/labels/red", status=404, response={"error": "no such label"})
    har.call("GET", "/boards/b1/labels", response={"labels": LABELS[1:]})
    har.call("DELETE", "/boards/b1/labels/red", status=204)
    har.call("DELETE", "/boards/b1/labels/blue", status=204)
    har.call("GET", "/boards/b1/labels/blue", status=404, response={"error": "no such label"})
    har.call("GET", "/boards/b1/labels", response={"labels": LABELS[2:]})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("absence-parent") / "capture.har")


def test_a_recorded_success_for_a_missing_id_is_not_answered_under_a_parent_never_held(bundle) -> None:
    delete = plan(bundle, "DELETE", "/boards/{board_id}/labels/{label_id}")
    assert delete.served, delete.reason
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        # the recorded answer, where the collection is held: a label never there deletes as 204
        status, _ = send_json(serving, "/boards/b1/labels/purple", None, method="DELETE")
        assert status == 204
        # must not: 204 under a board nothing recorded
        status, answer = send_json(serving, "/boards/b9/labels/red", None, method="DELETE")
        assert status == 400 and "no recording shows" in answer["message"], (status, answer)
