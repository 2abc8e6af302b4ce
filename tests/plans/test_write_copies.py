"""An update or delete whose entity the capture also shows as an entity of another collection (the
same identity listed at another path: Prefect's tag limits listed again by the v2 limits filter) is
not served (``write-copies``, reason ``copied-entity``): the write would leave that copy as it was.
A related entity embedded inside another entity's answer is no copy."""

from __future__ import annotations

from typing import Callable

from support.capture_runs import build_from
from support.har_builder import HarBuilder

ONE = {"id": "3c9e2b7a-1d4f-4e8a-9b6c-0f2a5d7e8c11", "tag": "one", "limit": 1}
TWO = {"id": "8a1f4c2e-7b3d-4a9f-8e5c-2d6b0a9f1e22", "tag": "two", "limit": 2}
MISSING = {"detail": "not found"}


def limits_app(copy_listed: bool, embedded: bool = False) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/limits", response=[ONE, TWO])
           .call("GET", f"/limits/{ONE['id']}", response=ONE)
           .call("GET", f"/limits/{TWO['id']}", response=TWO))
    if copy_listed:  # the same limits, as entities of another collection
        har.call("GET", "/v2/limits", response=[{"id": ONE["id"], "name": "tag:one"},
                                                  {"id": TWO["id"], "name": "tag:two"}])
    if embedded:  # shown inside another entity only
        har.call("GET", "/jobs", response=[{"id": "job-00000001", "limits": [ONE, TWO]}])
    return (har.call("DELETE", f"/limits/{ONE['id']}", status=204)
            .call("GET", f"/limits/{ONE['id']}", status=404, response=MISSING)
            .call("GET", "/limits", response=[TWO]))


def delete_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "DELETE")


def test_a_delete_of_an_entity_another_collection_lists_is_not_served():
    plan = delete_plan(build_from(limits_app(copy_listed=True)))
    assert not plan.served and plan.reason == "copied-entity"
    assert any(e.rule_id == "copy.identity-elsewhere" and e.outcome == "match" for e in plan.traces)
    assert any("/v2/limits also shows as an object of another collection" in (e.reason or "") for e in plan.traces)


def test_the_same_delete_with_no_copy_or_only_an_embedding_is_served():
    for embedded in (False, True):
        plan = delete_plan(build_from(limits_app(copy_listed=False, embedded=embedded)))
        assert plan.served, (embedded, plan.reason)


def enveloped_limits_app(copy_listed: bool, item: Callable[[dict], dict], page: Callable[[list], dict]
                         ) -> HarBuilder:
    """``limits_app`` with each item read answered ``item(entity)`` and each list ``page(rows)``."""
    har = (HarBuilder()
           .call("GET", "/limits", response=page([ONE, TWO]))
           .call("GET", f"/limits/{ONE['id']}", response=item(ONE))
           .call("GET", f"/limits/{TWO['id']}", response=item(TWO)))
    if copy_listed:
        har.call("GET", "/v2/limits", response=page([{"id": ONE["id"], "name": "tag:one"},
                                                       {"id": TWO["id"], "name": "tag:two"}]))
    return (har.call("DELETE", f"/limits/{ONE['id']}", status=204)
            .call("GET", f"/limits/{ONE['id']}", status=404, response=MISSING)
            .call("GET", "/limits", response=page([TWO])))


def wrapped_limits_app(copy_listed: bool) -> HarBuilder:
    """``limits_app`` with every answer inside a ``{"data": …}`` envelope, lists inside a page
    envelope in it: the copy is an entity two members deep (``{"data": {"entries": [{…}]}}``)."""
    def page(rows: list) -> dict:
        return {"data": {"entries": rows, "total": len(rows)}}
    return enveloped_limits_app(copy_listed, lambda item: {"data": item}, page)


def test_a_copy_listed_inside_an_envelope_around_an_envelope_is_still_a_copy():
    # found by wrapping every answer of a capture in {"data": …}: Mailman's members, also listed by
    # a list's roster at {"data": {"entries": [...]}}, had their updates and deletes served
    plan = delete_plan(build_from(wrapped_limits_app(copy_listed=True)))
    assert not plan.served and plan.reason == "copied-entity"
    assert any("/v2/limits also shows as an object of another collection" in (e.reason or "") for e in plan.traces)
    plan = delete_plan(build_from(wrapped_limits_app(copy_listed=False)))
    assert plan.served, plan.reason


def status_wrapped_limits_app(copy_listed: bool) -> HarBuilder:
    """``limits_app`` with every answer as ``{"code": 0, "msg": "ok", "data": …}`` and lists as
    ``{"list": [...], "total": n}`` inside: the root holds one object beside scalars only."""
    def wrap(value: object) -> dict:
        return {"code": 0, "msg": "ok", "data": value}

    def page(rows: list) -> dict:
        return wrap({"list": rows, "total": len(rows)})
    return enveloped_limits_app(copy_listed, wrap, page)


def test_a_copy_listed_inside_a_status_envelope_is_still_a_copy():
    # found by answering every 2xx as {"code": 0, "msg": "ok", "data": …}: Mailman's members, also
    # listed by a list's roster, had their updates and deletes served (writes 2/16 -> 6/16)
    plan = delete_plan(build_from(status_wrapped_limits_app(copy_listed=True)))
    assert not plan.served and plan.reason == "copied-entity", plan.reason
    plan = delete_plan(build_from(status_wrapped_limits_app(copy_listed=False)))
    assert plan.served, plan.reason


def keyed_wrapped_limits_app(copy_listed: bool) -> HarBuilder:
    """``limits_app`` with every answer as ``{"data": {"<key>": …}}`` (a root key inside a data
    envelope), lists inside a page envelope in it: the copy is an entity three members deep
    (``{"data": {"limits": {"entries": [{…}], "total": n}}}``)."""
    def wrap(key: str, value: object) -> dict:
        return {"data": {key: value}}

    def page(key: str, rows: list) -> dict:
        return wrap(key, {"entries": rows, "total": len(rows)})
    return enveloped_limits_app(copy_listed, lambda item: wrap("limit", item), lambda rows: page("limits", rows))


def test_a_copy_listed_three_envelopes_deep_is_still_a_copy():
    # found by rewriting answers as {"data": {"<key>": …}} around the application's own page
    # envelope: Mailman's members, also listed by a list's roster, had their updates and deletes
    # served (writes 2/16 -> 6/16), Nautobot's one more
    plan = delete_plan(build_from(keyed_wrapped_limits_app(copy_listed=True)))
    assert not plan.served and plan.reason == "copied-entity", plan.reason
    plan = delete_plan(build_from(keyed_wrapped_limits_app(copy_listed=False)))
    assert plan.served, plan.reason


DOMAINS = [{"mail_host": "ant.example", "description": "Ants", "base_url": None},
           {"mail_host": "bee.example", "description": "Bees", "base_url": None}]
LIST = {"list_id": "talk.ant.example", "list_name": "talk", "mail_host": "ant.example", "volume": 1,
        "advertised": True, "member_count": 2, "description": "Talk about ants"}


OTHER_LIST = {"list_id": "chat.bee.example", "list_name": "chat", "mail_host": "bee.example", "volume": 1,
              "advertised": True, "member_count": 0, "description": "Chat about bees"}


def domains_app(write: str, list_replayed: bool = False) -> HarBuilder:
    """Domains keyed by mail_host; a list, an entity of its own, names its domain by mail_host. With
    ``list_replayed``, the list is first read after a write (another domain's update), so the state
    does not hold it and only replay answers it."""
    har = (HarBuilder()
           .call("GET", "/domains", response=DOMAINS)
           .call("GET", "/domains/ant.example", response=DOMAINS[0])
           .call("GET", "/domains/bee.example", response=DOMAINS[1]))
    bees = DOMAINS[1]
    if list_replayed:
        bees = {**DOMAINS[1], "description": "Bees, all of them"}
        har.call("PATCH", "/domains/bee.example", body={"description": "Bees, all of them"}, response=bees)
        har.call("GET", "/domains/bee.example", response=bees)
    har.call("GET", "/lists/talk.ant.example", response=LIST)
    if write == "update":
        patched = {**DOMAINS[0], "description": "Ants, all of them"}
        har.call("PATCH", "/domains/ant.example", body={"description": "Ants, all of them"}, response=patched)
        return har.call("GET", "/domains/ant.example", response=patched).call("GET", "/domains", response=[patched,
                                                                                                          DOMAINS[1]])
    har.call("DELETE", "/domains/ant.example", status=204)
    return har.call("GET", "/domains/ant.example", status=404, response=MISSING).call("GET", "/domains",
                                                                                       response=[bees])


def test_an_update_of_an_entity_another_entity_names_is_served_and_its_delete_is_not():
    update = next(p for p in build_from(domains_app("update")).view.writes if p.method == "PATCH")
    assert update.served, update.reason
    assert any(e.rule_id == "copy.identity-elsewhere" and "another entity naming it" in (e.reason or "")
               for e in update.traces)
    delete = delete_plan(build_from(domains_app("delete")))
    assert not delete.served and delete.reason == "copied-entity"  # the list may go with its domain


def test_a_delete_whose_only_copy_is_a_replayed_read_of_the_type_is_served():
    """The list naming the domain is read only after a write, so replay answers it, and that read
    reads the domains (it names an initial one by its identity, ``ReplayTable.reads_types``): serving
    refuses it once a served write changed the domains, so the delete leaves no copy answering stale.
    Held by the state as a document naming the domain at its root, which the per-call copy check
    does not take for a copy, the list stays one the delete leaves as it was (above)."""
    bundle = build_from(domains_app("delete", list_replayed=True))
    delete = delete_plan(bundle)
    assert delete.served, delete.reason
    kept = [e for e in delete.traces if e.rule_id == "copy.identity-elsewhere"]
    assert kept and kept[0].outcome == "miss" and "serving keeps from answering it stale" in kept[0].reason
    assert "is replayed and reads domains" in kept[0].reason
    reader = next(name for name, types in bundle.replay.reads_types.items() if "lists" in name)
    assert "domains" in bundle.replay.reads_types[reader]

PEER = {"deviceID": "AAAA111-BBBB222-CCCC333", "name": "phone", "paused": False}
OTHER = {"deviceID": "DDDD444-EEEE555-FFFF666", "name": "nas", "paused": False}
SHARE = {"id": "photos", "label": "Photos",
         "devices": [{"deviceID": p["deviceID"], "introducedBy": ""} for p in (PEER, OTHER)]}


def peers_app() -> HarBuilder:
    """A folder lists the peers it is shared with by id beside members of its own (Syncthing's
    folder devices); one peer is renamed, the other deleted."""
    renamed = {**PEER, "name": "pixel"}
    return (HarBuilder()
            .call("GET", "/peers", response=[PEER, OTHER])
            .call("GET", f"/peers/{PEER['deviceID']}", response=PEER)
            .call("GET", f"/peers/{OTHER['deviceID']}", response=OTHER)
            .call("GET", "/shares/photos", response=SHARE)
            .call("PATCH", f"/peers/{PEER['deviceID']}", body={"name": "pixel"}, status=204)
            .call("GET", f"/peers/{PEER['deviceID']}", response=renamed)
            .call("GET", "/peers", response=[renamed, OTHER])
            .call("DELETE", f"/peers/{OTHER['deviceID']}", status=204)
            .call("GET", f"/peers/{OTHER['deviceID']}", status=404, response=MISSING)
            .call("GET", "/peers", response=[renamed]))


def test_an_object_naming_the_entity_without_a_field_the_update_writes_is_no_copy_of_it():
    """The folder's entries show no field the rename writes: the rename leaves nothing stale there.
    The delete still leaves an entry behind, so it stays unserved."""
    bundle = build_from(peers_app())
    update = next(p for p in bundle.view.writes if p.method == "PATCH")
    assert update.served, update.reason
    assert delete_plan(bundle).reason == "copied-entity"


def folder(name: str, children: list[dict]) -> dict:
    return {"key": name, "kind": "folder", "title": name.rsplit("/", 1)[-1], "children": children}


def document(key: str, words: int) -> dict:
    return {"key": key, "kind": "doc", "title": key.rsplit("/", 1)[-1], "words": words, "owner": "ann"}


def tree_app(pointer_only: bool) -> HarBuilder:
    """Documents and folders of one type keyed by path; a folder holds its documents under
    ``children``, whole, or (``pointer_only``) as pointers naming them by key alone."""
    first, second = document("notes/alpha.txt", 120), document("notes/beta.txt", 80)
    shown = [{"key": d["key"], "kind": "ref"} for d in (first, second)] if pointer_only else [first, second]
    return (HarBuilder()
            .call("GET", "/docs", response=[folder("notes", [])])
            .call("GET", "/docs/notes", response=folder("notes", shown))
            .call("GET", "/docs/notes/alpha.txt", response=first)
            .call("GET", "/docs/notes/beta.txt", response=second)
            .call("DELETE", "/docs/notes/beta.txt", status=204)
            .call("GET", "/docs/notes/beta.txt", status=404, response=MISSING)
            .call("GET", "/docs", response=[folder("notes", [])]))


def test_a_delete_in_a_tree_whose_entities_hold_copies_of_one_another_is_not_served():
    """A folder's read holds its documents whole: any document may sit in its folder's children,
    which a delete of the document alone would leave there (whether or not a read showed the
    deleted one's copy)."""
    plan = delete_plan(build_from(tree_app(pointer_only=False)))
    assert not plan.served and plan.reason == "copied-entity"
    assert any(e.rule_id == "copy.nested-in-entity" and e.outcome == "match" for e in plan.traces)


def test_a_folder_naming_its_documents_by_pointers_holds_no_copies():
    plan = delete_plan(build_from(tree_app(pointer_only=True)))
    assert not any(e.rule_id == "copy.nested-in-entity" and e.outcome == "match" for e in plan.traces)


ERIN = {"id": "0e0a89de-5488-426c-9d65-0539efb8a7ee", "username": "erin", "firstname": "Erin",
        "isActive": True, "createdAt": "2026-01-05T10:00:00Z"}
KIM = {"id": "9bc9f304-69a0-4db5-b42b-700ef69b2c2d", "username": "kim", "firstname": "Kim",
       "isActive": True, "createdAt": "2026-01-05T10:00:05Z"}


def consumers_app(credential_created: str, write: str) -> HarBuilder:
    """Users, and a credential keyed by its user's id (Express Gateway's basic-auth credential at
    /credentials/basic-auth/{user id}) showing isActive and createdAt beside members of its own;
    ``credential_created``: its createdAt (another instant than the user's: another entity)."""
    credential = {"id": ERIN["id"], "type": "basic-auth", "isActive": True, "createdAt": credential_created}
    har = (HarBuilder()
           .call("GET", "/users", response=[ERIN, KIM])
           .call("GET", f"/users/{ERIN['id']}", response=ERIN)
           .call("GET", f"/users/{KIM['id']}", response=KIM)
           .call("GET", f"/credentials/basic-auth/{ERIN['id']}", response=credential))
    if write == "update":
        changed = {**ERIN, "firstname": "Erin M.", "isActive": False}
        har.call("PATCH", f"/users/{ERIN['id']}", body={"firstname": "Erin M.", "isActive": False}, response=changed)
        return har.call("GET", f"/users/{ERIN['id']}", response=changed).call("GET", "/users", response=[changed, KIM])
    har.call("DELETE", f"/users/{ERIN['id']}", status=204)
    return har.call("GET", f"/users/{ERIN['id']}", status=404, response=MISSING).call("GET", "/users", response=[KIM])


def test_an_entity_sharing_the_identity_leaves_the_update_served_and_the_delete_not():
    """The credential disagrees with the user on createdAt, which every read of the user showed
    unchanged: another entity keyed by the same id, which an update of the user leaves as it was.
    A delete may take it along (Express Gateway's does), so the delete stays unserved."""
    update = next(p for p in build_from(consumers_app("2026-01-05T11:30:00Z", "update")).view.writes
                  if p.method == "PATCH")
    assert update.served, update.reason
    assert any(e.rule_id == "copy.identity-elsewhere" and "sharing its identity" in (e.reason or "")
               for e in update.traces)
    delete = delete_plan(build_from(consumers_app("2026-01-05T11:30:00Z", "delete")))
    assert not delete.served and delete.reason == "copied-entity"


def test_an_object_agreeing_on_every_unchanged_member_is_a_copy():
    # must not: the same createdAt and isActive as the user: nothing shows it is not a copy the update leaves stale
    update = next(p for p in build_from(consumers_app(ERIN["createdAt"], "update")).view.writes if p.method == "PATCH")
    assert not update.served and update.reason == "copied-entity", update.reason
