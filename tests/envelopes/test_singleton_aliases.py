"""A read at a literal path naming one entity another read shows at its own path
(``view-singleton-aliases``): ``/users/me`` answered ``{"users": [{…}]}``, as an application
answering every entity as a list of one under its type's name does. Read as a list, it made a
type of its own holding copies of the users, and every user write went unserved (side-effect);
it is now the document the same object answered bare is, and the three envelopes agree: the
writes are served, the alias answered as recorded until a served write changes the entity it
shows, and refused (409) after, never answered stale."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ANN = {"id": "5f3c2a1b-8d4e-4f6a-9b7c-1d2e3f4a5b6c", "name": "Ann", "email": "ann@x.test", "bio": "a"}
BOB = {"id": "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", "name": "Bob", "email": "bob@x.test", "bio": "b"}


def _bare(value):
    return value


def _data(value):
    return {"data": value}


def _root_key(value):
    return {"users": value if isinstance(value, list) else [value]}


WRAPS = {"bare": (_bare, _bare), "data-envelope": (_data, _bare), "root-key-array": (_root_key, _root_key)}


def users(wrap, body, slash: str = "") -> HarBuilder:
    """Users read whole, by id and at /users/me (Ann), each updated and read back."""
    har = (HarBuilder()
           .call("GET", f"/api/users{slash}", response=wrap([ANN, BOB]))
           .call("GET", f"/api/users/{ANN['id']}{slash}", response=wrap(ANN))
           .call("GET", f"/api/users/{BOB['id']}{slash}", response=wrap(BOB))
           .call("GET", f"/api/users/me{slash}", response=wrap(ANN)))
    ann, bob = {**ANN, "bio": "a2"}, {**BOB, "bio": "b2"}
    for user in (ann, bob):
        har.call("PUT", f"/api/users/{user['id']}{slash}", body=body({"bio": user["bio"]}), response=wrap(user))
        har.call("GET", f"/api/users/{user['id']}{slash}", response=wrap(user))
        har.call("GET", f"/api/users/me{slash}", response=wrap(ann))
    har.call("GET", f"/api/users{slash}", response=wrap([ann, bob]))
    return har


def _http(runtime, method: str, path: str, body=None):
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                    json.dumps(body).encode() if body is not None else b""))


@pytest.mark.parametrize("slash", ["", "/"], ids=["plain", "trailing-slash"])
@pytest.mark.parametrize("envelope", list(WRAPS))
def test_a_me_alias_is_a_document_beside_a_served_type(envelope: str, slash: str):
    wrap, body = WRAPS[envelope]
    bundle = build_from(users(wrap, body, slash))
    kinds = {_template(bundle, v.tool): v.kind for v in bundle.view.views}
    assert kinds[f"/api/users/me{slash}"] == "document" and kinds[f"/api/users/{{user_id}}{slash}"] == "item", kinds
    assert len(bundle.view.types) == 1
    write = next(p for p in bundle.view.writes if p.method == "PUT")
    assert write.served, write.reason
    runtime = EnvironmentRuntime(bundle)
    before = _http(runtime, "GET", f"/api/users/me{slash}")
    assert before.status == 200 and json.loads(before.body) == wrap(ANN)
    assert _http(runtime, "PUT", f"/api/users/{ANN['id']}{slash}", body({"bio": "zzz"})).status == 200
    after = _http(runtime, "GET", f"/api/users/me{slash}")
    assert after.status == 409 and b'"bio":"a"' not in after.body, after.body


def _template(bundle, tool: str) -> str:
    return next(t.template for t in bundle.manifest.tools if t.name == tool)


def test_a_literal_collection_listing_one_entity_of_its_own_stays_a_list():
    """Each author's books, one each, shown nowhere else: a collection holding one entity, not an alias."""
    authors = [{"id": 1, "name": "Le Guin", "country": "US", "born": 1929},
               {"id": 2, "name": "Calvino", "country": "IT", "born": 1923}]
    books = {1: {"id": 11, "title": "The Dispossessed", "year": 1974, "pages": 387},
             2: {"id": 12, "title": "Invisible Cities", "year": 1972, "pages": 165}}
    har = HarBuilder().call("GET", "/api/authors", response={"authors": authors})
    for author in authors:
        har.call("GET", f"/api/authors/{author['id']}", response={"authors": [author]})
        har.call("GET", f"/api/authors/{author['id']}/books", response={"books": [books[author['id']]]})
    bundle = build_from(har)
    kinds = {_template(bundle, v.tool): v.kind for v in bundle.view.views}
    assert kinds["/api/authors/{author_id}/books"] == "list", kinds
    misses = [e for e in bundle.view.traces if e.table == "view-singleton-aliases" and e.outcome == "miss"]
    assert any("no read of another path" in (e.reason or "") for e in misses), misses


@pytest.mark.parametrize("envelope", ["bare", "data-envelope"])
def test_a_write_at_the_alias_path_is_not_served_as_a_document_write(envelope: str):
    """``PATCH /users/me`` changes the user in the application; served as a write of the ``me``
    document it left the users list and the user's item read answering the old bio (a wrong
    answer, before ``document-copy.is-an-entity``): the object it writes names a held user by
    its identity and shows that user's members, so it is refused as copied-entity."""
    wrap, body = WRAPS[envelope]
    har = (HarBuilder()
           .call("GET", "/api/users", response=wrap([ANN, BOB]))
           .call("GET", f"/api/users/{ANN['id']}", response=wrap(ANN))
           .call("GET", f"/api/users/{BOB['id']}", response=wrap(BOB))
           .call("GET", "/api/users/me", response=wrap(ANN)))
    for bio in ("a2", "a3"):
        har.call("PATCH", "/api/users/me", body=body({"bio": bio}), response=wrap({**ANN, "bio": bio}))
        har.call("GET", "/api/users/me", response=wrap({**ANN, "bio": bio}))
    bundle = build_from(har)
    write = next(p for p in bundle.view.writes if p.method == "PATCH")
    assert not write.served and write.reason == "copied-entity", (write.served, write.reason)
    copies = [e for e in write.traces if e.table == "document-copies" and e.outcome == "match"]
    assert [e.rule_id for e in copies] == ["document-copy.is-an-entity"] or envelope != "bare", copies
    runtime = EnvironmentRuntime(bundle)
    assert _http(runtime, "PATCH", "/api/users/me", body({"bio": "zzz"})).status >= 400
    listed = _http(runtime, "GET", "/api/users")
    assert b"zzz" not in listed.body and listed.status == 200


@pytest.mark.parametrize("envelope", list(WRAPS))
def test_a_delete_of_the_user_an_alias_document_shows_whole_is_refused(envelope: str):
    """``/session/me`` (no collection above it) answers the caller's user; a served delete of that
    user left it answering the user the state no longer holds (a wrong answer in the bare case,
    before: serving looked for copies only nested inside a document, never the document itself).
    The delete is refused, naming the document, and another user's delete is served."""
    wrap, _ = WRAPS[envelope]
    cy = {"id": "9c8b7a6d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", "name": "Cy", "email": "cy@x.test", "bio": "c"}
    har = (HarBuilder()
           .call("GET", "/api/users", response=wrap([ANN, BOB, cy]))
           .call("GET", f"/api/users/{ANN['id']}", response=wrap(ANN))
           .call("GET", f"/api/users/{BOB['id']}", response=wrap(BOB))
           .call("GET", "/api/session/me", response=wrap(ANN)))
    for gone, left in ((BOB, [ANN, cy]), (cy, [ANN])):
        har.call("DELETE", f"/api/users/{gone['id']}", status=204)
        har.call("GET", f"/api/users/{gone['id']}", status=404, response={"error": "not found"})
        har.call("GET", "/api/users", response=wrap(left))
    har.call("GET", "/api/session/me", response=wrap(ANN))
    runtime = EnvironmentRuntime(build_from(har))
    refused = _http(runtime, "DELETE", f"/api/users/{ANN['id']}")
    assert refused.status == 400 and b"/api/session/me" in refused.body, refused.body
    me = _http(runtime, "GET", "/api/session/me")
    assert me.status == 200 and json.loads(me.body) == wrap(ANN)
    assert _http(runtime, "GET", f"/api/users/{ANN['id']}").status == 200
    assert _http(runtime, "DELETE", f"/api/users/{BOB['id']}").status == 204


def test_a_document_of_another_kind_numbered_alike_is_no_copy():
    """``/users/me`` is user 1; category 1 shows an equal ``description`` (empty in both) and other
    members otherwise: the document is no copy of the category, whose update is served (it was
    refused naming /users/me, WordPress's category 1, while serving took a document itself for a
    copy on its id and one equal member)."""
    me = {"id": 1, "name": "admin", "description": "", "slug": "admin"}
    categories = [{"id": 1, "name": "Uncategorized", "description": "", "slug": "uncategorized"},
                  {"id": 2, "name": "News", "description": "", "slug": "news"}]
    har = (HarBuilder()
           .call("GET", "/api/users/me", response=me)
           .call("GET", "/api/categories", response=categories))
    for category in categories:
        har.call("GET", f"/api/categories/{category['id']}", response=category)
    for category in categories:
        changed = {**category, "description": f"about {category['slug']}"}
        har.call("PUT", f"/api/categories/{category['id']}", body={"description": changed["description"]},
                 response=changed)
        har.call("GET", f"/api/categories/{category['id']}", response=changed)
    runtime = EnvironmentRuntime(build_from(har))
    answer = _http(runtime, "PUT", "/api/categories/1", {"description": "general"})
    assert answer.status == 200, answer.body
    assert json.loads(answer.body)["description"] == "general"


@pytest.mark.parametrize("slash", ["", "/"], ids=["plain", "trailing-slash"])
def test_an_alias_filling_a_member_the_listings_leave_null_is_a_document(slash: str):
    """``/current-user/`` answered ``{"users": [{…}]}`` with the caller's ``settings`` the listing
    and the item read leave null (a fuller projection of the same user): read as a list it was a
    type of its own holding a copy of Ann, and every user write went unserved (side-effect). It is
    the document the same object answered bare is: the user writes are served, Ann's update
    refused while the alias document holds her copy (naming it), Bob's applied."""
    ann = {**ANN, "settings": None}
    me = {**ANN, "settings": {"theme": "dark", "locale": "en"}}
    bob = {**BOB, "settings": None}
    har = (HarBuilder()
           .call("GET", f"/api/current-user{slash}", response=_root_key(me))
           .call("GET", f"/api/users{slash}", response=_root_key([ann, bob]))
           .call("GET", f"/api/users/{ANN['id']}{slash}", response=_root_key(ann))
           .call("GET", f"/api/users/{BOB['id']}{slash}", response=_root_key(bob)))
    for user in ({**ann, "bio": "a2"}, {**bob, "bio": "b2"}):
        har.call("PUT", f"/api/users/{user['id']}{slash}", body=_root_key({"bio": user["bio"]}),
                 response=_root_key(user))
        har.call("GET", f"/api/users/{user['id']}{slash}", response=_root_key(user))
    har.call("GET", f"/api/current-user{slash}", response=_root_key({**me, "bio": "a2"}))
    bundle = build_from(har)
    kinds = {_template(bundle, v.tool): v.kind for v in bundle.view.views}
    assert kinds[f"/api/current-user{slash}"] == "document", kinds
    assert [t.name for t in bundle.view.types] == ["users"]
    write = next(p for p in bundle.view.writes if p.method == "PUT")
    assert write.served, write.reason
    runtime = EnvironmentRuntime(bundle)
    assert json.loads(_http(runtime, "GET", f"/api/current-user{slash}").body) == _root_key(me)
    refused = _http(runtime, "PUT", f"/api/users/{ANN['id']}{slash}", _root_key({"bio": "zzz"}))
    assert refused.status == 400 and b"/api/current-user" in refused.body, refused.body
    answer = _http(runtime, "PUT", f"/api/users/{BOB['id']}{slash}", _root_key({"bio": "zzz"}))
    assert answer.status == 200 and json.loads(answer.body)["users"][0]["bio"] == "zzz", answer.body
    assert json.loads(_http(runtime, "GET", f"/api/users/{BOB['id']}{slash}").body)["users"][0]["bio"] == "zzz"
    assert json.loads(_http(runtime, "GET", f"/api/current-user{slash}").body) == _root_key(me)


def test_an_alias_showing_another_value_where_the_listing_shows_one_stays_a_list():
    """Filling a null is a fuller projection; another non-null value is another entity's: the
    literal read listing it stays a list (its members differ from the user shown elsewhere)."""
    ann = {**ANN, "settings": None}
    other = {**ANN, "email": "someone@else.test", "settings": {"theme": "dark"}}
    har = (HarBuilder()
           .call("GET", "/api/current-user", response=_root_key(other))
           .call("GET", "/api/users", response=_root_key([ann, {**BOB, "settings": None}]))
           .call("GET", f"/api/users/{ANN['id']}", response=_root_key(ann)))
    bundle = build_from(har)
    kinds = {_template(bundle, v.tool): v.kind for v in bundle.view.views}
    assert kinds["/api/current-user"] == "list", kinds
