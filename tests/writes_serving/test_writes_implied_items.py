"""Writes at an item path no read shows (``view-implied-items``): a type read only through its list
(``GET /users`` listing ``{id: 7, …}``), its entities patched, replaced and deleted at
``/users/{id}`` and never read there. The path is the type's item path where every written value is
an identity the list showed whole and no other collection lists the entity; the plans then relate
the writes to the type, the gate checks them through the list reads, and serving writes the state
the list answers. No item read exists there, so none is answered from the state. Where the list
is read only paged or filtered, the path's values are not the identities it shows, or another
collection lists the same entity, the writes stay unrelated (not served)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state, served_over_http, send_json

USERS = [{"id": n, "name": f"u{n}", "email": f"u{n}@example.org"} for n in (5, 6, 7)]


def users(query: str | None = None, also: str | None = None) -> HarBuilder:
    """Users listed (with ``query``); user 6 renamed (PATCH), user 5 replaced (PUT), user 7 deleted,
    the list read after each. ``also``: another collection listing user 7 as well."""
    har = HarBuilder()
    listed = [dict(u) for u in USERS]
    har.call("GET", "/users", query=query, response=listed)
    if also:
        har.call("GET", also, response=[USERS[2]])
    listed[1] = {**listed[1], "name": "six"}
    har.call("PATCH", "/users/6", body={"name": "six"}, response=listed[1])
    har.call("GET", "/users", query=query, response=listed)
    listed[0] = {"id": 5, "name": "five", "email": "five@example.org"}
    har.call("PUT", "/users/5", body={"name": "five", "email": "five@example.org"}, response=listed[0])
    har.call("GET", "/users", query=query, response=listed)
    har.call("DELETE", "/users/7", status=204)
    har.call("GET", "/users", query=query, response=listed[:2])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(users(), tmp_path_factory.mktemp("implied") / "capture.har")


def test_the_writes_are_the_listed_types_item_writes_and_served(bundle) -> None:
    (users_type,) = bundle.view.types
    assert users_type.item_template == "/users/{user_id}" and users_type.item_tools == ()
    for method, effect in (("PATCH", "update"), ("PUT", "update"), ("DELETE", "delete")):
        written = plan(bundle, method, "/users/{user_id}")
        assert (written.effect, written.type, written.served) == (effect, "users", True), written.reason
        assert written.checked_record_ordinals, "the gate checked it through the list reads"


def test_served_writes_change_what_the_list_answers(bundle) -> None:
    with served_over_http(bundle) as serving:
        status, answer = send_json(serving, "/users/5", {"name": "cinq"}, method="PATCH")
        assert status == 200 and answer == {"id": 5, "name": "cinq", "email": "u5@example.org"}, answer
        assert send_json(serving, "/users/7", None, method="DELETE")[0] == 204
        status, listed = send_json(serving, "/users", None, method="GET")
        assert status == 200 and listed == [{"id": 5, "name": "cinq", "email": "u5@example.org"},
                                            {"id": 6, "name": "u6", "email": "u6@example.org"}], listed
        # deleted: refused as not held, not answered
        status, answer = send_json(serving, "/users/7", {"name": "x"}, method="PATCH")
        assert status == 404 and "7" in answer["message"], answer


def test_no_item_read_is_answered_at_the_implied_path(bundle) -> None:
    status, answer, before, after = sent_beside_the_state(bundle, "GET", "/users/5", None)
    assert status == 405 and before == after, answer


def test_a_write_of_an_unlisted_id_is_refused_state_unchanged(bundle) -> None:
    status, answer, before, after = sent_beside_the_state(bundle, "PATCH", "/users/99", {"name": "x"})
    assert status == 404 and before == after, answer


@pytest.mark.parametrize("method", ["PATCH", "PUT", "DELETE"])
def test_a_list_read_only_paged_or_filtered_shows_no_absence(method, tmp_path) -> None:
    for query in ("page=1", "role=admin"):
        built = build_from(users(query=query), tmp_path / f"{query.split('=')[0]}.har")
        assert built.view.types[0].item_template is None
        written = plan(built, method, "/users/{user_id}")
        assert (written.effect, written.served) == ("none", False)
        # the plan says why: the table's failed condition
        assert any("view-implied-items" in (e.reason or "") and "page or a filter" in (e.reason or "")
                   for e in written.traces), [e.reason for e in written.traces]


def test_an_entity_two_collections_list_is_not_implied(tmp_path) -> None:
    built = build_from(users(also="/admins"), tmp_path / "admins.har")
    assert {t.name: t.item_template for t in built.view.types}["users"] is None
    assert not plan(built, "DELETE", "/users/{user_id}").served
    misses = [e for e in built.view.traces if e.rule_id == "implied-item.listed-identities"]
    assert misses and "two collections list the same entity" in str(misses[0].model_dump()), misses


def test_values_that_are_not_the_listed_identities_are_not_implied(tmp_path) -> None:
    har = HarBuilder().call("GET", "/users", response=USERS)
    for user in USERS[:2]:
        har.call("PATCH", f"/users/{user['name']}", body={"email": "new@example.org"},
                 response={**user, "email": "new@example.org"})
    har.call("GET", "/users", response=[{**u, "email": "new@example.org"} if u["id"] != 7 else u for u in USERS])
    built = build_from(har, tmp_path / "names.har")
    assert built.view.types[0].item_template is None
    assert plan(built, "PATCH", "/users/{user_id}").effect == "none"


TASKS = {1: [{"id": n, "title": f"t{n}", "done": False} for n in (11, 12, 13)],
         2: [{"id": n, "title": f"t{n}", "done": False} for n in (21, 22)]}


def tasks(shared: bool = False) -> HarBuilder:
    """Tasks listed under two projects (``shared``: project 2 lists task 12 as well); task 12 patched,
    task 21 replaced, task 13 deleted, each project's list read after."""
    held = {p: [dict(t) for t in listed] for p, listed in TASKS.items()}
    extra = lambda p: [held[1][1]] if shared and p == 2 else []  # noqa: E731
    har = HarBuilder().call("GET", "/projects", response=[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])
    for p in held:
        har.call("GET", f"/projects/{p}/tasks", response=held[p] + extra(p))
    held[1][1] = {**held[1][1], "done": True}
    har.call("PATCH", "/projects/1/tasks/12", body={"done": True}, response=held[1][1])
    held[2][0] = {"id": 21, "title": "x", "done": True}
    har.call("PUT", "/projects/2/tasks/21", body={"title": "x", "done": True}, response=held[2][0])
    for p in held:
        har.call("GET", f"/projects/{p}/tasks", response=held[p] + extra(p))
    har.call("DELETE", "/projects/1/tasks/13", status=204)
    held[1] = held[1][:2]
    har.call("GET", "/projects/1/tasks", response=held[1])
    return har


def test_a_nested_collections_item_path_is_implied_per_parent(tmp_path) -> None:
    built = build_from(tasks(), tmp_path / "tasks.har")
    assert {t.name: t.item_template for t in built.view.types}["tasks"] == "/projects/{project_id}/tasks/{task_id}"
    for method, effect in (("PATCH", "update"), ("PUT", "update"), ("DELETE", "delete")):
        written = plan(built, method, "/projects/{project_id}/tasks/{task_id}")
        assert (written.effect, written.served) == (effect, True), written.reason
    with served_over_http(built) as serving:
        # task 22 is project 2's, not project 1's
        status, answer = send_json(serving, "/projects/1/tasks/22", {"done": True}, method="PATCH")
        assert status == 404, answer
        assert send_json(serving, "/projects/2/tasks/22", {"done": True}, method="PATCH")[0] == 200


def test_a_task_two_projects_list_is_not_implied(tmp_path) -> None:
    built = build_from(tasks(shared=True), tmp_path / "shared.har")
    assert {t.name: t.item_template for t in built.view.types}["tasks"] is None
    assert not plan(built, "PATCH", "/projects/{project_id}/tasks/{task_id}").served


def test_an_item_read_recorded_only_absent_stays_refused(tmp_path) -> None:
    """A read of the implied path the capture shows only answering 404 (after the delete) is no item
    view: serving answers none of its entities from the state, held or not."""
    har = users()
    har.call("GET", "/users/7", status=404, response={"detail": "Not found."})
    built = build_from(har, tmp_path / "absent.har")
    assert built.view.types[0].item_template == "/users/{user_id}" and built.view.types[0].item_tools == ()
    with served_over_http(built) as serving:
        for path in ("/users/6", "/users/7"):
            status, answer = send_json(serving, path, None, method="GET")
            assert status in (404, 409) and "error" in answer, (path, answer)  # capenv's refusal, not the 404 body


NOTE_IDS = [f"{n}f3c2a1b-8d4e-4f6a-9b7c-1d2e3f4a5b6c" for n in (5, 6, 7)]


def test_an_enveloped_list_of_uuids_named_otherwise(tmp_path) -> None:
    """The list inside {"data": […], "meta": {"total"}}, the identity ``uuid``: the implied item path
    takes it, and the list's counter follows a served delete."""
    notes = [{"uuid": i, "title": f"n{k}", "status": "open"} for k, i in enumerate(NOTE_IDS)]
    wrapped = lambda listed: {"data": listed, "meta": {"total": len(listed)}}  # noqa: E731
    har = HarBuilder().call("GET", "/api/notes", response=wrapped(notes))
    notes[1] = {**notes[1], "status": "closed"}
    har.call("PATCH", f"/api/notes/{NOTE_IDS[1]}", body={"status": "closed"}, response={"data": notes[1]})
    har.call("GET", "/api/notes", response=wrapped(notes))
    har.call("DELETE", f"/api/notes/{NOTE_IDS[2]}", status=204)
    har.call("GET", "/api/notes", response=wrapped(notes[:2]))
    built = build_from(har, tmp_path / "notes.har")
    assert (built.view.types[0].item_template, built.view.types[0].id_field) == ("/api/notes/{note_id}", "uuid")
    with served_over_http(built) as serving:
        status, answer = send_json(serving, f"/api/notes/{NOTE_IDS[0]}", {"status": "closed"}, method="PATCH")
        assert status == 200 and answer == {"data": {"uuid": NOTE_IDS[0], "title": "n0", "status": "closed"}}, answer
        assert send_json(serving, f"/api/notes/{NOTE_IDS[2]}", None, method="DELETE")[0] == 204
        status, listed = send_json(serving, "/api/notes", None, method="GET")
        assert status == 200 and listed["meta"] == {"total": 2} and [n["uuid"] for n in listed["data"]] == NOTE_IDS[:2]
