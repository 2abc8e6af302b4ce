"""A repeated item DELETE answered 2xx with a body that counts nothing (an ORM's delete result:
``{"raw": [], "affected": 0}`` beside the first delete's ``affected: 1``) is the application's
answer to deleting a missing entity, as a repeated 204 is (``write-absence.deleted-id-success``):
the body names no entity, so serving gives it for any id it does not hold. A repeated delete
answered a body holding anything (an id, a true flag, a non-zero count) teaches nothing: it may
describe the entity the call named."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

DELETED = {"raw": [], "affected": 1}
NOTHING = {"raw": [], "affected": 0}


def capture(second_answer: dict) -> HarBuilder:
    return (items_app(builder=HarBuilder())
            .call("DELETE", "/items/1", response=DELETED)                           # 4
            .call("GET", "/items/1", status=404, response={"error": "not found"})   # 5
            .call("GET", "/items", response=[{"id": 2, "title": "t2"}])             # 6
            .call("DELETE", "/items/1", response=second_answer))                    # 7


def test_a_repeated_delete_counting_nothing_is_the_missing_answer():
    bundle = build_from(capture(NOTHING))
    learned = bundle.view.write_absences
    assert {tool: (r.status, r.ordinal) for tool, r in learned.items()} == {"delete_items_by_item_id": (200, 7)}
    delete = next(w for w in bundle.view.writes if w.effect == "delete")
    assert delete.served, delete.reason
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    answer = runtime.read("delete_items_by_item_id", {"item_id": "99"})
    assert (answer["status"], answer["body"]) == (200, NOTHING), answer
    assert runtime.data_get() == before


@pytest.mark.parametrize("second_answer", [{"raw": [], "affected": 1}, {"id": 1, "deleted": True},
                                           {"deleted": "1"}], ids=["a count", "the entity", "a text"])
def test_a_repeated_delete_answering_something_teaches_no_missing_answer(second_answer):
    # must not: a body that may describe the entity named is never given for another id
    bundle = build_from(capture(second_answer))
    assert bundle.view.write_absences == {}
