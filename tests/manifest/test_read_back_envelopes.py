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
    for wrap in (lambda body: body, lambda body: {"data": body}):
        templates = {t.template for t in build_from(registry(wrap)).manifest.tools}
        assert templates == {"/{id}"}, templates
