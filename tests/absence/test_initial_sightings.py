"""An entity a recording made before the capture's first write shows, which the state never took in
(a list the view could not take as a list of its type, its elements keyed by two members), is not
answered missing: the learned absence would be a wrong answer where the application holds it
(docs/absence.md). An object of another shape naming the same values is no such sighting, and an
id the state held at its start that a served write removed is answered missing."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"error": "Object Not Found"}
ANN_A = {"user": "ann", "space": "alpha", "level": "write"}
BOB_B = {"user": "bob", "space": "bravo", "level": "read"}
EVE_B = {"user": "eve", "space": "bravo", "level": "read"}   # only ever listed, never read alone
CY_C = {"user": "cy", "space": "charlie", "level": "admin"}
DOT_C = {"user": "dot", "space": "charlie", "level": "read"}


def grants_app() -> HarBuilder:
    """Grants read one by one at /spaces/{space}/grants/{user}; /grants lists every grant (two keys
    each), /members every member (no level: another shape); a grant deleted and read missing."""
    return (HarBuilder()
            .call("GET", "/spaces", response=[{"name": n} for n in ("alpha", "bravo", "charlie")])
            .call("GET", "/grants", response=[ANN_A, EVE_B, BOB_B, CY_C, DOT_C])
            .call("GET", "/members", response=[{"user": "carl", "space": "alpha"}, {"user": "ann", "space": "alpha"}])
            .call("GET", "/spaces/alpha/grants/ann", response=ANN_A)
            .call("GET", "/spaces/bravo/grants/bob", response=BOB_B)
            .call("GET", "/spaces/charlie/grants/cy", response=CY_C)
            .call("GET", "/spaces/charlie/grants/dot", response=DOT_C)
            .call("GET", "/spaces/alpha/grants/zed", status=404, response=MISSING)
            .call("DELETE", "/spaces/bravo/grants/bob", status=204)
            .call("GET", "/spaces/bravo/grants/bob", status=404, response=MISSING)
            .call("DELETE", "/spaces/charlie/grants/cy", status=204)
            .call("GET", "/spaces/charlie/grants/cy", status=404, response=MISSING)
            .call("GET", "/spaces/charlie/grants/dot", response=DOT_C))


def http(runtime: EnvironmentRuntime, method: str, path: str):
    return runtime.http(HttpRequest(method, path, (), (), b""))


def test_an_entity_an_initial_recording_shows_is_refused_not_answered_missing():
    runtime = EnvironmentRuntime(build_from(grants_app()))
    answer = http(runtime, "GET", "/spaces/bravo/grants/eve")
    assert answer.status == 404 and b"Object Not Found" not in answer.body
    assert b"but record 2, made before" in answer.body, answer.body  # names the recording that shows it
    assert http(runtime, "GET", "/spaces/alpha/grants/nobody").body == b'{"error":"Object Not Found"}'


def test_an_object_of_another_shape_is_no_sighting():
    runtime = EnvironmentRuntime(build_from(grants_app()))
    # /members names carl in space alpha, but holds no level as every grant does: no grant of his is shown
    assert http(runtime, "GET", "/spaces/alpha/grants/carl").body == b'{"error":"Object Not Found"}'


def test_an_id_the_state_held_and_a_served_write_removed_is_answered_missing():
    runtime = EnvironmentRuntime(build_from(grants_app()))
    assert http(runtime, "GET", "/spaces/alpha/grants/ann").status == 200
    assert http(runtime, "DELETE", "/spaces/alpha/grants/ann").status == 204
    assert http(runtime, "GET", "/spaces/alpha/grants/ann").body == b'{"error":"Object Not Found"}'


def test_an_absence_recorded_for_the_call_later_does_not_outweigh_an_initial_sighting():
    """Eve's grant is only ever listed before the first write; a read of it recorded 404 after an
    unmodelled write (a move away, say) tells nothing of what the application holds at serving's
    start, so the call is refused naming the listing, not answered with that later 404."""
    har = grants_app().call("POST", "/spaces/bravo/grants/eve/move", body={"to": "alpha"}, status=204)
    har.call("GET", "/spaces/bravo/grants/eve", status=404, response=MISSING)
    runtime = EnvironmentRuntime(build_from(har))
    answer = http(runtime, "GET", "/spaces/bravo/grants/eve")
    assert answer.status == 404 and b"Object Not Found" not in answer.body
    assert b"made before the capture's first write" in answer.body, answer.body


def names_app() -> HarBuilder:
    """Shelves read one by one at /{shelf}; /_names lists every shelf's name, a system one
    (``_spare``) among them, never read alone; a shelf never listed answers 404."""
    shelves = [{"name": "north", "rows": 4}, {"name": "south", "rows": 2}]
    har = HarBuilder().call("GET", "/_names", response=["_spare", "north", "south"])
    for shelf in shelves:
        har.call("GET", f"/{shelf['name']}", response=shelf)
    return har.call("GET", "/west", status=404, response=MISSING).call("GET", "/east", status=404, response=MISSING)


def test_an_id_an_initial_list_of_names_holds_beside_held_ids_is_not_answered_missing():
    # must not: the learned 404 for "_spare", which the application lists beside the shelves it holds
    runtime = EnvironmentRuntime(build_from(names_app()))
    answer = http(runtime, "GET", "/_spare")
    assert answer.status == 404 and b"Object Not Found" not in answer.body
    assert b"but record 1, made before" in answer.body, answer.body
    missing = http(runtime, "GET", "/up")  # listed nowhere: the learned absence stands
    assert missing.status == 404 and b"Object Not Found" in missing.body
    assert http(runtime, "GET", "/north").status == 200


def test_a_delete_of_an_entity_an_initial_recording_shows_is_refused_not_answered_missing():
    # must not: the learned 404 for eve's grant, which /grants showed held; the state stays as it was
    runtime = EnvironmentRuntime(build_from(grants_app()))
    before = runtime.data_get()
    answer = http(runtime, "DELETE", "/spaces/bravo/grants/eve")
    assert answer.status == 404 and b"Object Not Found" not in answer.body
    assert b"but record 2, made before" in answer.body, answer.body
    assert runtime.data_get() == before
    missing = http(runtime, "DELETE", "/spaces/alpha/grants/zed")  # shown nowhere: answered missing
    assert missing.status == 404 and b"Object Not Found" in missing.body


def later_listing_app() -> HarBuilder:
    """Settings read one by one before any write; the whole list read only after the capture's own
    writes: it shows ``region``, which a write made, and ``cluster_id``, which no write named."""
    return (HarBuilder()
            .call("GET", "/settings/name", response={"name": "name", "value": "main"})
            .call("GET", "/settings/colour", status=404, response=MISSING)
            .call("PUT", "/settings/region", body={"value": "north"}, status=201, response={"name": "region", "value": "north"})
            .call("GET", "/settings/region", response={"name": "region", "value": "north"})
            .call("GET", "/settings", response=[{"name": "cluster_id", "value": "c-0001"},
                                                {"name": "name", "value": "main"},
                                                {"name": "region", "value": "north"}])
            .call("DELETE", "/settings/region", status=204)
            .call("GET", "/settings/region", status=404, response=MISSING))


def test_an_entity_a_later_recording_shows_that_no_write_named_is_refused_not_answered_missing():
    # must not: the learned 404 for cluster_id, which the application held from its start (no
    # write of the capture named it) though the state took in only what the early item read showed
    runtime = EnvironmentRuntime(build_from(later_listing_app()))
    answer = http(runtime, "GET", "/settings/cluster_id")
    assert answer.status == 404 and b"Object Not Found" not in answer.body, answer.body
    assert b"made after the capture's writes, none of which named it" in answer.body, answer.body
    # region was made by the capture's own write: a fresh application does not hold it
    assert http(runtime, "GET", "/settings/region").body == b'{"error":"Object Not Found"}'
    assert http(runtime, "GET", "/settings/elsewhere").body == b'{"error":"Object Not Found"}'


def default_space_app() -> HarBuilder:
    """As ``grants_app``, but /grants lists ann's grant in the default space too, with the space
    ``""`` (the application names that space otherwise in paths)."""
    ann_default = {"user": "ann", "space": "", "level": "read"}
    return (HarBuilder()
            .call("GET", "/spaces", response=[{"name": n} for n in ("alpha", "bravo", "charlie")])
            .call("GET", "/grants", response=[ANN_A, ann_default, BOB_B, CY_C, DOT_C])
            .call("GET", "/spaces/alpha/grants/ann", response=ANN_A)
            .call("GET", "/spaces/bravo/grants/bob", response=BOB_B)
            .call("GET", "/spaces/charlie/grants/cy", response=CY_C)
            .call("GET", "/spaces/charlie/grants/dot", response=DOT_C)
            .call("GET", "/spaces/alpha/grants/zed", status=404, response=MISSING)
            .call("DELETE", "/spaces/bravo/grants/bob", status=204)
            .call("GET", "/spaces/bravo/grants/bob", status=404, response=MISSING)
            .call("DELETE", "/spaces/charlie/grants/cy", status=204)
            .call("GET", "/spaces/charlie/grants/cy", status=404, response=MISSING))


def test_a_path_value_an_object_holds_as_empty_text_may_name_it():
    # must not: the learned 404 for ann's grant under "main", which may be the space /grants shows as ""
    runtime = EnvironmentRuntime(build_from(default_space_app()))
    for method in ("GET", "DELETE"):
        answer = http(runtime, method, "/spaces/main/grants/ann")
        assert answer.status == 404 and b"Object Not Found" not in answer.body, answer.body
        assert b"but record 2, made before" in answer.body, answer.body
    # a grant no recording shows is still answered missing in a space whose grants the state holds;
    # under one whose grants the capture never read, what it holds is not known (test_unheld_collections)
    assert http(runtime, "GET", "/spaces/charlie/grants/zed").body == b'{"error":"Object Not Found"}'
    answer = http(runtime, "GET", "/spaces/main/grants/zed")
    assert answer.status == 404 and b"Object Not Found" not in answer.body, answer.body


def parts_app() -> HarBuilder:
    """Notes read whole at /notes/{name} (two of them), others only through a part of themselves
    (/notes/{name}/meta) before any write; a note never read answers 404."""
    alpha, beta = {"name": "alpha", "text": "one"}, {"name": "beta", "text": "two"}
    return (HarBuilder()
            .call("GET", "/notes/alpha", response=alpha)
            .call("GET", "/notes/beta", response=beta)
            .call("GET", "/notes/gamma/meta", response={"name": "gamma", "size": 3})
            .call("GET", "/notes/zeta", status=404, response=MISSING)
            .call("PUT", "/notes/alpha", body={"name": "alpha", "text": "uno"}, response={"name": "alpha", "text": "uno"})
            .call("GET", "/notes/alpha", response={"name": "alpha", "text": "uno"})
            .call("GET", "/notes/delta/meta", response={"name": "delta", "size": 1}))


def test_an_entity_whose_part_an_initial_recording_answered_is_refused_not_answered_missing():
    # must not: the learned 404 for gamma, whose /meta the application answered 200 before any write
    runtime = EnvironmentRuntime(build_from(parts_app()))
    answer = http(runtime, "GET", "/notes/gamma")
    assert answer.status == 404 and b"Object Not Found" not in answer.body
    assert b"(a path extending this one)" in answer.body, answer.body
    # a part read only after the first write tells nothing of the start: the learned absence stands
    assert http(runtime, "GET", "/notes/delta").body == b'{"error":"Object Not Found"}'
    assert http(runtime, "GET", "/notes/omega").body == b'{"error":"Object Not Found"}'


VAR_A = {"id": "4a344bbc-a8fc-424a-b854-a0d2b4231c44", "name": "env", "value": "prod"}
VAR_B = {"id": "259da44e-5072-4f0f-9fe9-079cd66ccfd9", "name": "greeting", "value": "hello"}
NOT_FOUND = {"detail": "Variable not found."}


def variables_app() -> HarBuilder:
    """Variables read by id and by name (/variables/name/{name}); only a read-only POST
    (/variables/filter) lists them all before any write, which the state does not take in; three
    made later are read back by name."""
    har = (HarBuilder()
            .call("POST", "/variables/filter", body={}, response=[VAR_A, VAR_B])
            .call("POST", "/variables/filter", body={"limit": 1}, response=[VAR_A])
            .call("GET", f"/variables/{VAR_A['id']}", response=VAR_A)
            .call("GET", "/variables/name/env", response=VAR_A)
            .call("GET", "/variables/name/no_such_var", status=404, response=NOT_FOUND)
            .call("GET", "/variables/00000000-0000-4000-8000-000000000042", status=404, response=NOT_FOUND))
    for n in range(3):
        made = {"id": f"a06bcac0-d1ad-43e1-beaa-500b98f5d7c{n}", "name": f"var_{n}", "value": n}
        har.call("POST", "/variables", body={"name": made["name"], "value": n}, status=201, response=made)
        har.call("GET", f"/variables/name/var_{n}", response=made)
        har.call("GET", f"/variables/{made['id']}", response=made)
    return har


def test_an_entity_a_read_only_post_listed_is_refused_by_another_key_path():
    """Prefect's /variables/filter listed greeting before any write; the read by name at a path
    other than the type's item path answered it missing (a wrong answer) before."""
    runtime = EnvironmentRuntime(build_from(variables_app()))
    answer = http(runtime, "GET", "/variables/name/greeting")
    assert answer.status == 404 and b"Variable not found" not in answer.body, answer.body
    assert b"made before the capture's first write" in answer.body, answer.body
    assert http(runtime, "GET", "/variables/name/nobody").body == b'{"detail":"Variable not found."}'


def linked_users_app() -> HarBuilder:
    """Users read one by one at /users/{name} (a number or a name); a ticket read before any write
    links its owner by URL, a user never read alone; a name never shown read missing."""
    link = "http://127.0.0.1/api/users/"
    return (HarBuilder()
            .call("GET", "/api/users/alice", response={"id": 27, "Name": "alice", "RealName": "Alice"})
            .call("GET", "/api/users/29", response={"id": 29, "Name": "bob", "RealName": "Bob"})
            .call("GET", "/api/users/bob", response={"id": 29, "Name": "bob", "RealName": "Bob"})
            .call("GET", "/api/tickets/1", response={"id": 1, "Subject": "Jam",
                                                     "Owner": {"type": "user", "id": "Nobody", "_url": link + "Nobody"}})
            .call("GET", "/api/users/zed", status=404, response={"message": "Not Found"})
            .call("GET", "/api/users/999", status=404, response={"message": "Not Found"}))


def test_an_entity_an_initial_answer_links_to_is_refused_not_answered_missing():
    runtime = EnvironmentRuntime(build_from(linked_users_app()))
    answer = http(runtime, "GET", "/api/users/Nobody")
    assert answer.status == 404 and b"Not Found" not in answer.body
    assert b"answered a link to this very path" in answer.body, answer.body
    # an id no answer links to keeps the learned absence
    assert http(runtime, "GET", "/api/users/777").body == b'{"message":"Not Found"}'


def test_a_held_name_in_another_letter_case_is_refused_not_answered_missing():
    """The path takes a number or a name (an either key): BOB is looked up by name, where bob is held."""
    runtime = EnvironmentRuntime(build_from(linked_users_app()))
    answer = http(runtime, "GET", "/api/users/BOB")
    assert answer.status == 409 and b"call it by" in answer.body and b"bob" in answer.body, answer.body
