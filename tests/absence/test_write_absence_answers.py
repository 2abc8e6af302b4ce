"""An item DELETE the capture shows answering a 2xx for an id already deleted (Strapi 5 deletes a
missing document with a 204) is the application's answer to deleting a missing entity
(``write-absence.deleted-id-success``): serving gives it instead of the item view's 404. A
repeated DELETE answered 404 teaches nothing new: the recorded 404 stays the answer."""

from __future__ import annotations

from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

NOT_FOUND = {"error": "not found"}


def capture(second_delete_status: int) -> HarBuilder:
    again = {"status": 204} if second_delete_status == 204 else {"status": 404, "response": NOT_FOUND}
    return (items_app(builder=HarBuilder())
            .call("DELETE", "/items/1", status=204)                           # 4
            .call("GET", "/items/1", status=404, response=NOT_FOUND)          # 5
            .call("GET", "/items", response=[{"id": 2, "title": "t2"}])       # 6
            .call("DELETE", "/items/1", **again))                             # 7


def test_a_repeated_delete_answered_204_is_the_missing_answer():
    bundle = build_from(capture(204))
    learned = bundle.view.write_absences
    assert {tool: (r.status, r.ordinal) for tool, r in learned.items()} == {"delete_items_by_item_id": (204, 7)}
    traces = [e for e in bundle.view.traces if e.table == "write-absence-answers" and e.outcome == "match"]
    assert any("already deleted" in (e.reason or "") for e in traces)
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read("delete_items_by_item_id", {"item_id": "99"})
    assert answer["status"] == 204
    assert runtime.read("delete_items_by_item_id", {"item_id": "2"})["status"] == 204
    assert runtime.read("get_items")["body"] == [{"id": 1, "title": "t1"}]


def test_a_repeated_delete_answered_404_keeps_the_404():
    bundle = build_from(capture(404))
    assert bundle.view.write_absences == {}
    answer = EnvironmentRuntime(bundle).read("delete_items_by_item_id", {"item_id": "99"})
    assert (answer["status"], answer["body"]) == (404, NOT_FOUND)


def _tokens_capture() -> HarBuilder:
    ada = [{"id": "a2", "user": "ada", "note": "laptop"}]
    bob = [{"id": "a5", "user": "bob", "note": "ci"}]
    users = [{"name": "ada", "admin": True}, {"name": "bob", "admin": False}, {"name": "cy", "admin": False}]
    builder = HarBuilder().call("GET", "/users", response=users)
    for user in users:
        builder.call("GET", f"/users/{user['name']}", response=user)
    return (builder
            .call("GET", "/users/ada/tokens", response=ada)
            .call("GET", "/users/bob/tokens", response=bob)
            .call("GET", "/users/ada/tokens/a2", response=ada[0])
            .call("GET", "/users/bob/tokens/a5", response=bob[0])
            .call("DELETE", "/users/ada/tokens/a2", status=204)
            .call("GET", "/users/ada/tokens/a2", status=404, response={"message": "No such token a2 for user ada"})
            .call("DELETE", "/users/ada/tokens/a99", status=404,
                  response={"message": "No such token a99 for user ada"}))


def test_a_missing_entity_answer_names_every_path_value_of_the_call():
    # must not: the recorded 404 named user ada; a delete under bob names bob, never ada
    bundle = build_from(_tokens_capture())
    delete = next(w for w in bundle.view.writes if w.effect == "delete")
    assert delete.served, delete.reason
    tool = next(t for t in bundle.manifest.tools if t.name == delete.tool)
    names = [segment.strip("{}") for segment in tool.template.split("/") if segment.startswith("{")]
    answer = EnvironmentRuntime(bundle).read(delete.tool, dict(zip(names, ["bob", "a77"])))
    assert (answer["status"], answer["body"]) == (404, {"message": "No such token a77 for user bob"}), answer


def test_a_delete_of_an_id_of_another_shape_is_refused_as_its_item_read_is():
    """Every id the capture shows is an integer: a DELETE naming ``abc`` gets neither the learned
    404 nor a change (the application may refuse the id as invalid), an integer it does not hold
    gets the 404, as the item read's absence is given (``refuse_unshaped_id``)."""
    runtime = EnvironmentRuntime(build_from(capture(404)))
    before = runtime.data_get()
    refused = runtime.call_tool("delete_items_by_item_id", {"item_id": "abc"})
    assert refused.is_error and "integers written without leading zeros" in refused.structured["message"]
    refused_read = runtime.call_tool("get_items_by_item_id", {"item_id": "abc"})
    assert refused_read.is_error
    answer = runtime.read("delete_items_by_item_id", {"item_id": "99"})
    assert (answer["status"], answer["body"]) == (404, NOT_FOUND)
    assert runtime.data_get() == before


def _gone(item: str) -> dict:
    return {"error": {"code": 404, "message": f"Could not find item: {item}."}}


def _deleted_then_read(second_absence: bool) -> HarBuilder:
    """A delete the tool recorded no absence for; the item view's 404s name the id they read."""
    har = (items_app(builder=HarBuilder())
           .call("DELETE", "/items/1", status=204)
           .call("GET", "/items/1", status=404, response=_gone("1")))
    if second_absence:
        har = har.call("GET", "/items/77", status=404, response=_gone("77"))
    return har


def test_a_delete_of_a_missing_entity_answers_the_item_views_absence_for_the_calls_id():
    # must not: the 404 a read of item 1 recorded, naming item 1, given for a delete of item 99
    bundle = build_from(_deleted_then_read(second_absence=True))
    delete = next(w for w in bundle.view.writes if w.effect == "delete")
    assert delete.served and delete.tool not in bundle.view.write_absences
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    answer = runtime.read(delete.tool, {"item_id": "99"})
    assert (answer["status"], answer["body"]) == (404, _gone("99")), answer
    assert answer["state"]["view"] == "missing"
    assert runtime.data_get() == before


def test_a_delete_of_a_missing_entity_is_refused_when_one_absence_cannot_prove_its_text():
    # must not: "Could not find item: 1." answered for item 99 when no second absence proves the template
    bundle = build_from(_deleted_then_read(second_absence=False))
    delete = next(w for w in bundle.view.writes if w.effect == "delete")
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(delete.tool, {"item_id": "99"})
    assert refused.is_error and "item: 1" not in str(refused.structured)
    assert refused.structured["kind"] == "missing"
    assert runtime.data_get() == before
    assert runtime.read(delete.tool, {"item_id": "1"})["status"] == 204
    recorded = runtime.read(delete.tool, {"item_id": "1"})  # the recorded values: its text as recorded
    assert (recorded["status"], recorded["body"]) == (404, _gone("1"))


def test_a_plain_text_missing_entity_answer_names_the_calls_id():
    # must not: a text/plain 404 naming the recorded id (a99) answered verbatim for another id
    builder = _tokens_capture()
    builder.call("DELETE", "/users/bob/tokens/b98", status=404, response="No such token b98 for user bob",
                 response_type="text/plain")
    bundle = build_from(builder)
    delete = next(w for w in bundle.view.writes if w.effect == "delete")
    assert delete.served, delete.reason
    tool = next(t for t in bundle.manifest.tools if t.name == delete.tool)
    names = [segment.strip("{}") for segment in tool.template.split("/") if segment.startswith("{")]
    answer = EnvironmentRuntime(bundle).read(delete.tool, dict(zip(names, ["ada", "a77"])))
    assert answer["status"] == 404, answer
    assert "b98" not in str(answer) and "bob" not in str(answer), answer
    assert "No such token a77 for user ada" in str(answer), answer
