"""Entities identified by their own address (``identity-field.own-address``): where no member of an
item read's answer carries the path's value but one member is the very path it was read at
(origin-relative, Pulp's ``pulp_href``, or an absolute URL, Barbican's ``secret_ref``), that member is
the type's identity and the path's value its last segment (``EntityType.address``). Item reads are
then answered from the state for every held entity (not only at the paths the capture read, as a
document replays), an id never held gets the recorded absence when shaped as the held ids' segments
and is refused otherwise, and a write answered 202 with a task's address is refused
(``verdict.deferred-to-address``) rather than answered with the exemplar's task.

Without the rule the item reads were documents (replayed at their recorded paths, refused
elsewhere) and the types keyed by ``name``."""

from __future__ import annotations

from support.capture_runs import build_from, plan, tool_name
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

API = "/api/v3/repos/"
UUIDS = ("019b0000-0000-7000-8000-000000000002", "019b0000-0000-7000-8000-000000000006",
         "019b0000-0000-7000-8000-000000000010")
MISSING = "019b0000-0000-7000-8000-0000000000ff"
ORIGIN = "http://127.0.0.1:3000"


def repo(href: str, name: str, description: str | None = None) -> dict:
    return {"pulp_href": href, "name": name, "description": description, "retain": 2}


def relative_app() -> HarBuilder:
    repos = [repo(f"{API}{u}/", n) for u, n in zip(UUIDS, ("web", "docs", "legacy"))]
    return (HarBuilder()
            .call("GET", API, response={"count": 3, "next": None, "results": repos})
            .call("GET", f"{API}{UUIDS[0]}/", response=repos[0])
            .call("GET", f"{API}{UUIDS[1]}/", response=repos[1])
            .call("GET", f"{API}{MISSING}/", status=404, response={"detail": "No Repository matches the given query."})
            .call("GET", f"{API}not-a-uuid/", status=404, response={"detail": "Not found."}))


def get(runtime: EnvironmentRuntime, path: str):
    answer = runtime.http(HttpRequest("GET", path, (), (), b""))
    return answer.status, (loads(answer.body) if answer.body else None)


def entity_type(bundle, name_fragment: str):
    return next(t for t in bundle.view.types if name_fragment in t.collection_template)


def test_an_href_identity_is_the_type_s_identity_and_its_segment_the_path_value():
    bundle = build_from(relative_app())
    repos = entity_type(bundle, "/repos")
    assert repos.id_field == "pulp_href"
    assert repos.address is not None and repos.address.origin == "" and repos.address.trailing_slash
    item = tool_name(bundle, "GET", f"{API}{{repo_id}}/")
    assert next(v.kind for v in bundle.view.views if v.tool == item) == "item"


def test_an_entity_whose_item_read_was_never_recorded_is_answered_from_the_state():
    runtime = EnvironmentRuntime(build_from(relative_app()))
    status, body = get(runtime, f"{API}{UUIDS[2]}/")  # listed only: no recording names this path
    assert (status, body) == (200, repo(f"{API}{UUIDS[2]}/", "legacy"))
    assert get(runtime, f"{API}{UUIDS[0]}/") == (200, repo(f"{API}{UUIDS[0]}/", "web"))


def test_an_id_never_held_gets_the_absence_and_a_path_of_another_shape_is_refused():
    runtime = EnvironmentRuntime(build_from(relative_app()))
    status, body = get(runtime, f"{API}019b0000-0000-7000-8000-0000000000ee/")
    assert status == 404 and body == {"detail": "No Repository matches the given query."}
    status, body = get(runtime, f"{API}something-else/")
    # the application answers "Not found." to an id that is no UUID: never its UUID absence
    assert body != {"detail": "No Repository matches the given query."}


def absolute_app() -> HarBuilder:
    """Absolute URLs without a trailing slash around integer ids (a hyperlinked serializer's url)."""
    secrets = [{"secret_ref": f"{ORIGIN}/v1/secrets/{n}", "name": name, "status": "ACTIVE"}
               for n, name in ((3, "alpha"), (7, "beta"), (12, "gamma"))]
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/v1/secrets", response={"total": 3, "secrets": secrets})
            .call("GET", "/v1/secrets/3", response=secrets[0])
            .call("GET", "/v1/secrets/12", response=secrets[2])
            .call("GET", "/v1/secrets/99", status=404, response={"code": 404, "title": "Not Found"}))


def test_absolute_addresses_around_integer_ids():
    bundle = build_from(absolute_app())
    secrets = entity_type(bundle, "/secrets")
    assert secrets.id_field == "secret_ref"
    assert secrets.address is not None and secrets.address.origin == ORIGIN and not secrets.address.trailing_slash
    runtime = EnvironmentRuntime(bundle)
    assert get(runtime, "/v1/secrets/7") == (200, {"secret_ref": f"{ORIGIN}/v1/secrets/7", "name": "beta",
                                                   "status": "ACTIVE"})
    assert get(runtime, "/v1/secrets/41") == (404, {"code": 404, "title": "Not Found"})


def test_a_member_equal_to_the_path_value_stays_the_identity_beside_a_self_link():
    """An id the path carries wins over the entity's own address (rule order): users keep ``id``."""
    users = [{"id": n, "url": f"/api/users/{n}/", "username": u} for n, u in ((1, "admin"), (2, "alice"))]
    bundle = build_from(HarBuilder()
                        .call("GET", "/api/users/", response=users)
                        .call("GET", "/api/users/1/", response=users[0])
                        .call("GET", "/api/users/2/", response=users[1]))
    found = entity_type(bundle, "/users")
    assert found.id_field == "id" and found.address is None


def test_an_update_answered_202_with_a_task_address_is_not_served():
    repos = [repo(f"{API}{u}/", n) for u, n in zip(UUIDS[:2], ("web", "docs"))]
    changed = {**repos[0], "description": "new"}
    task = "/api/v3/tasks/01a24bb0-21e9-7ebb-ae8e-d4970496f20b/"
    har = (HarBuilder()
           .call("GET", API, response={"count": 2, "results": repos})
           .call("GET", f"{API}{UUIDS[0]}/", response=repos[0])
           .call("GET", f"{API}{UUIDS[1]}/", response=repos[1])
           .call("PATCH", f"{API}{UUIDS[0]}/", body={"description": "new"}, status=202, response={"task": task})
           .call("GET", task, response={"pulp_href": task, "state": "completed", "created_resources": []})
           .call("GET", f"{API}{UUIDS[0]}/", response=changed)
           .call("GET", API, response={"count": 2, "results": [changed, repos[1]]}))
    patch = plan(build_from(har), "PATCH", f"{API}{{repo_id}}/")
    assert patch.effect == "update"
    assert not patch.served and patch.reason == "deferred-to-address", (patch.served, patch.reason)




def test_a_list_spelling_the_address_otherwise_than_the_item_reads_takes_no_address():
    """The list shows absolute URLs where the item reads show origin-relative paths: a path value would
    name no listed entity as the state holds it, so the type takes no address (its item reads are
    proven against the state as any other's, here replayed) and a listed-only entity is never
    answered missing."""
    listed = [repo(f"{ORIGIN}{API}{u}/", n) for u, n in zip(UUIDS, ("web", "docs", "legacy"))]
    har = (HarBuilder()
           .call("GET", API, response={"count": 3, "next": None, "results": listed})
           .call("GET", f"{API}{UUIDS[0]}/", response=repo(f"{API}{UUIDS[0]}/", "web"))
           .call("GET", f"{API}{UUIDS[1]}/", response=repo(f"{API}{UUIDS[1]}/", "docs"))
           .call("GET", f"{API}{MISSING}/", status=404, response={"detail": "No Repository matches the given query."}))
    bundle = build_from(har)
    assert entity_type(bundle, "/repos").address is None
    status, body = get(EnvironmentRuntime(bundle), f"{API}{UUIDS[2]}/")
    assert body != {"detail": "No Repository matches the given query."}, (status, body)
