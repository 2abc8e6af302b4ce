"""Another caller's absence answer is that caller's view, not an absence of the entity: Misago
answers a member 404 for a thread hidden from members, which the admin then unhides by a PATCH.
The member's 404 (sent with another session cookie than the principal's,
``credential-value.session-cookie-principal``) made the PATCH look like a call naming an entity the
capture showed absent just before it (``effect.upsert-absent-before``), so an update the principal's
own reads prove was refused as an upsert. Reads sent as another caller show nothing absent
(``plans/absent_before``): the PATCH is the update it is, and served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

ADMIN = "sid=admin-session-0001; csrftoken=csrf-a"
MEMBER = "sid=member-session-0002; csrftoken=csrf-b"


def capture(*, member_reads_it: bool) -> HarBuilder:
    """Admin makes note 3 and reads it; the member (refused a PATCH, 403) reads it as missing
    (``member_reads_it``); the admin renames it and reads it back."""
    admin, member = ({"Cookie": c, "X-CSRFToken": c.rsplit("=", 1)[1]} for c in (ADMIN, MEMBER))
    one, two = {"id": 1, "title": "one"}, {"id": 2, "title": "two"}
    three = {"id": 3, "title": "three"}
    har = HarBuilder()
    har.call("GET", "/notes", response=[one, two], headers=list(admin.items()))
    har.call("GET", "/notes/1", response=one, headers=list(admin.items()))
    har.call("POST", "/notes", body={"title": "three"}, status=201, response=three, headers=list(admin.items()))
    har.call("GET", "/notes/3", response=three, headers=list(admin.items()))
    har.call("GET", "/notes", response=[one, two, three], headers=list(admin.items()))
    har.call("PATCH", "/notes/1", body={"title": "mine"}, status=403, response={"detail": "forbidden"},
             headers=list(member.items()))
    if member_reads_it:
        har.call("GET", "/notes/3", status=404, response={"detail": "Not found."}, headers=list(member.items()))
    renamed = {"id": 3, "title": "third"}
    har.call("PATCH", "/notes/3", body={"title": "third"}, response=renamed, headers=list(admin.items()))
    har.call("GET", "/notes/3", response=renamed, headers=list(admin.items()))
    har.call("GET", "/notes", response=[one, two, renamed], headers=list(admin.items()))
    har.call("GET", "/notes/9", status=404, response={"detail": "Not found."}, headers=list(admin.items()))
    return har


def test_another_callers_absence_does_not_make_the_update_an_upsert(tmp_path) -> None:
    bundle = build_from(capture(member_reads_it=True), tmp_path / "capture.har")
    patch = plan(bundle, "PATCH", "/notes/{note_id}")
    assert patch.effect == "update", (patch.effect, patch.reason)
    assert patch.served, patch.reason


def test_the_same_capture_without_the_members_read_is_served_alike(tmp_path) -> None:
    bundle = build_from(capture(member_reads_it=False), tmp_path / "capture.har")
    patch = plan(bundle, "PATCH", "/notes/{note_id}")
    assert patch.effect == "update" and patch.served, (patch.effect, patch.reason)
