"""Copies of a written entity that serving keeps from answering stale (``write-copies``
``copy.identity-elsewhere``, ``kept``): the plan is served where every read elsewhere showing the
entity is one serving refuses once the type is written (a document summarising the type, a replayed
read of a tool reading it) or one whose copy makes serving refuse the write per call (a document the
state holds, the entity nested in it); it stays ``copied-entity`` where a read below another entity's
item path lists the entity as that entity's member and the write is a delete (the other entity's
own reads may count it: a list's member_count)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send, served_over_http, state_of

TAGS = [{"uuid": "5c930ccb-b671-4eee-8ac1-221f0d9d2aab", "title": "production", "colour": "red"},
        {"uuid": "8a1f4c2e-7b3d-4a9f-8e5c-2d6b0a9f1e22", "title": "staging", "colour": "blue"}]


def keyed(tags: list[dict]) -> dict:
    """The listing keyed by the tags' uuids, each whole beneath its key."""
    return {tag["uuid"]: tag for tag in tags}


def tags_capture() -> HarBuilder:
    """Tags read one by one and listed at /tags as an object keyed by their uuids (a document that
    summarises the tags, ``DocumentLine.summarises``); one is renamed, and the listing shows it."""
    har = HarBuilder().call("GET", "/tags", response=keyed(TAGS))
    for tag in TAGS:
        har.call("GET", f"/tag/{tag['uuid']}", response=tag)
    renamed = {**TAGS[0], "title": "live"}
    har.call("PUT", f"/tag/{TAGS[0]['uuid']}", body={"title": "live"}, response=renamed)
    har.call("GET", f"/tag/{TAGS[0]['uuid']}", response=renamed)
    return har.call("GET", "/tags", response=keyed([renamed, TAGS[1]]))


@pytest.fixture(scope="module")
def tags(tmp_path_factory):
    return build_from(tags_capture(), tmp_path_factory.mktemp("tags") / "capture.har")


def test_an_update_whose_copy_a_summarising_document_shows_is_served(tags) -> None:
    update = plan(tags, "PUT", "/tag/{tag}")
    assert update.served, update.reason
    decided = next(e for e in update.traces if e.rule_id == "copy.identity-elsewhere")
    assert decided.outcome == "miss" and "summarises" in decided.reason, decided
    # the listing read differently just before and after the call: no cascade either
    # (write-cascades cascade.summary-of-written-type; without it the plan is side-effect)
    assert not any(e.rule_id == "verdict.cascade" and e.outcome == "match" for e in update.traces)


def test_after_a_served_update_the_summarising_document_is_refused_not_answered_stale(tags) -> None:
    with served_over_http(tags) as serving:
        status, listing = send(serving, "GET", "/tags")
        assert status == 200 and listing == keyed(TAGS), listing  # the state as the capture began
        status, answer = send(serving, "PUT", f"/tag/{TAGS[1]['uuid']}", {"title": "test"})
        assert status == 200 and answer["title"] == "test", answer
        status, listing = send(serving, "GET", "/tags")
        assert status >= 400 and "staging" not in str(listing), listing
        status, item = send(serving, "GET", f"/tag/{TAGS[1]['uuid']}")
        assert status == 200 and item["title"] == "test", item


ADDRESSES = [{"email": f"{name}@example.com", "display_name": name.title(), "verified": True}
             for name in ("anne", "bart", "cris")]


def addresses_capture() -> HarBuilder:
    """Addresses, and a user's address list answered as a document holding two of them whole (read
    before any write: the state holds it). One of those two is renamed."""
    har = HarBuilder().call("GET", "/addresses", response=ADDRESSES)
    for address in ADDRESSES:
        har.call("GET", f"/addresses/{address['email']}", response=address)
    har.call("GET", "/users/u-0001/addresses", response={"entries": ADDRESSES[:2], "total_size": 2})
    renamed = {**ADDRESSES[0], "display_name": "Anne (work)"}
    har.call("PATCH", f"/addresses/{ADDRESSES[0]['email']}", body={"display_name": "Anne (work)"}, response=renamed)
    har.call("GET", f"/addresses/{ADDRESSES[0]['email']}", response=renamed)
    return har.call("GET", "/addresses", response=[renamed, *ADDRESSES[1:]])


@pytest.fixture(scope="module")
def addresses(tmp_path_factory):
    return build_from(addresses_capture(), tmp_path_factory.mktemp("addresses") / "capture.har")


def test_an_update_whose_copy_a_held_document_nests_is_served_and_refused_per_call(addresses) -> None:
    update = plan(addresses, "PATCH", "/addresses/{address_id}")
    assert update.served, update.reason
    decided = next(e for e in update.traces if e.rule_id == "copy.identity-elsewhere")
    assert decided.outcome == "miss" and "refused per call" in decided.reason, decided
    with served_over_http(addresses) as serving:
        before = state_of(serving)
        status, answer = send(serving, "PATCH", "/addresses/bart@example.com", {"display_name": "Bartholomew"})
        assert status == 400 and "/users/u-0001/addresses" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send(serving, "PATCH", "/addresses/cris@example.com", {"display_name": "Cristina"})
        assert status == 200 and answer["display_name"] == "Cristina", answer


LISTS = [{"list_id": "ant.example.com", "display_name": "Ant", "member_count": 2},
         {"list_id": "bee.example.com", "display_name": "Bee", "member_count": 0}]
MEMBERS = [{"member_id": f"{n}caf7f6df58b483e88a3812c559ef23{n}", "email": f"{name}@example.com",
            "list_id": "ant.example.com", "delivery_mode": "regular"} for n, name in ((1, "anne"), (2, "bart"))]


def members_capture() -> HarBuilder:
    """Lists counting their members, and a list's roster (below the list's item path, held as a
    document) showing its members whole; a member is updated, then the other deleted."""
    har = HarBuilder().call("GET", "/lists", response=LISTS)
    for entry in LISTS:
        har.call("GET", f"/lists/{entry['list_id']}", response=entry)
    har.call("GET", "/members", response=MEMBERS)
    for member in MEMBERS:
        har.call("GET", f"/members/{member['member_id']}", response=member)
    har.call("GET", "/lists/ant.example.com/roster", response={"entries": MEMBERS, "total_size": 2})
    digest = {**MEMBERS[0], "delivery_mode": "digest"}
    har.call("PATCH", f"/members/{MEMBERS[0]['member_id']}", body={"delivery_mode": "digest"}, response=digest)
    har.call("GET", f"/members/{MEMBERS[0]['member_id']}", response=digest)
    har.call("DELETE", f"/members/{MEMBERS[1]['member_id']}", status=204)
    har.call("GET", f"/members/{MEMBERS[1]['member_id']}", status=404, response={"error": "not found"})
    return har.call("GET", "/members", response=[digest])


def test_a_delete_of_a_member_a_roster_below_another_entity_lists_stays_refused(tmp_path) -> None:
    bundle = build_from(members_capture(), tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/members/{member_id}")
    assert update.served, update.reason
    delete = plan(bundle, "DELETE", "/members/{member_id}")
    assert not delete.served and delete.reason == "copied-entity", delete.reason
    decided = next(e for e in delete.traces if e.rule_id == "copy.identity-elsewhere")
    assert decided.outcome == "match" and "/lists/{list_id}" in str(decided.evidence.get("beneath")), decided


def summaries_capture() -> HarBuilder:
    """As ``addresses_capture``, but the user's address list summarises each address under names of
    its own (``label`` for the display name, ``address`` for nothing the entity holds): a copy the
    update leaves stale although no member of the same name shows it."""
    har = HarBuilder().call("GET", "/addresses", response=ADDRESSES)
    for address in ADDRESSES:
        har.call("GET", f"/addresses/{address['email']}", response=address)
    summaries = [{"email": a["email"], "label": a["display_name"], "kind": "personal"} for a in ADDRESSES[:2]]
    har.call("GET", "/users/u-0001/addresses", response={"entries": summaries, "total_size": 2})
    renamed = {**ADDRESSES[0], "display_name": "Anne (work)"}
    har.call("PATCH", f"/addresses/{ADDRESSES[0]['email']}", body={"display_name": "Anne (work)"}, response=renamed)
    har.call("GET", f"/addresses/{ADDRESSES[0]['email']}", response=renamed)
    return har.call("GET", "/addresses", response=[renamed, *ADDRESSES[1:]])


def test_a_copy_showing_a_changed_value_under_another_name_refuses_the_update(tmp_path) -> None:
    """Plone lists a link's ``remoteUrl`` in its folder's items as ``getRemoteUrl``: an update of the
    member the summary shows under a name of its own is refused per call, as one of the same name is."""
    bundle = build_from(summaries_capture(), tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/addresses/{address_id}")
    assert update.served, update.reason
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send(serving, "PATCH", "/addresses/bart@example.com", {"display_name": "Bartholomew"})
        assert status == 400 and '"display_name" as "label"' in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send(serving, "PATCH", "/addresses/cris@example.com", {"display_name": "Cristina"})
        assert status == 200 and answer["display_name"] == "Cristina", answer
