"""A path segment an item read answers as a member of its entity, the entity inside an envelope
(``{"result": {"username": "carol"}}``) or inside an envelope around that one (``{"data":
{"result": {…}}}``), is a parameter (``segment.read-back``). Found by a metamorphic check (every
2xx JSON answer wrapped in ``{"data": …}``): a user registry keyed by name at /{user} became one
literal tool per user, each user's read a document of its own."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

USERS = [{"username": "alice", "email": "alice@example.com", "title": "Alice"},
         {"username": "bob", "email": "bob@example.org", "title": "Bob"},
         {"username": "carol", "email": "carol@example.net", "title": "Carol"}]


def registry(wrap) -> HarBuilder:
    har = HarBuilder()
    for user in USERS:
        har.call("GET", f"/{user['username']}", response=wrap({"type": "userconfig", "result": user}))
    return har


def test_a_name_read_back_two_envelopes_deep_is_a_parameter():
    for wrap in (lambda body: body, lambda body: {"data": body}, lambda body: {"code": 0, "msg": "ok", "data": body}):
        templates = {t.template for t in build_from(registry(wrap)).manifest.tools}
        assert templates == {"/{id}"}, templates


def test_an_identity_beside_the_object_is_no_envelope():
    """``{"id": 1, "profile": {"result": {…}}}`` is an entity holding an object, not an envelope:
    the name two objects below it is not read back."""
    har = HarBuilder()
    for n, user in enumerate(USERS):
        har.call("GET", f"/{user['username']}", response={"id": n, "profile": {"type": "userconfig", "result": user}})
    assert {t.template for t in build_from(har).manifest.tools} == {f"/{u['username']}" for u in USERS}
