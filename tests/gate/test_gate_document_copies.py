"""A document that another read also shows (one configuration read at every enclosing path:
``/config`` holding ``sub`` as ``/config/sub`` answers it) is a copy a write at one path leaves
stale at the other, which write-effects does not model: the write's plan is not served
(``document-copy.shown-elsewhere``, build reason copied-entity). So is a write at the enclosing
document whose object holds the part another read shows at its own path (``/settings`` written,
``/settings/mail`` read: ``document-copy.holds-another``), which serving would go on answering as
it was. The same write on a document no other read shows is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime


def app(whole_read: bool) -> HarBuilder:
    har = HarBuilder()
    if whole_read:
        har = har.call("GET", "/config", response={"name": "edge", "sub": {"a": 1, "b": 2}})
    return (har
            .call("GET", "/config/sub", response={"a": 1, "b": 2})
            .call("PATCH", "/config/sub", body={"a": 3}, status=200, response=None)
            .call("GET", "/config/sub", response={"a": 3, "b": 2}))


def test_a_document_another_read_shows_is_not_served():
    patch = plan(build_from(app(whole_read=True)), "PATCH", "/config/sub")
    assert not patch.served
    assert patch.reason == "copied-entity"
    assert "document-copy.shown-elsewhere" in {e.rule_id for e in patch.traces if e.outcome == "match"}


def test_the_same_document_alone_is_served():
    patch = plan(build_from(app(whole_read=False)), "PATCH", "/config/sub")
    assert patch.served, patch.reason


MAIL = {"host": "smtp.example.org", "port": 25}
SETTINGS = {"theme": "dark", "lang": "en", "mail": MAIL}
MOVED = {"host": "mx.example.org", "port": 25}


def settings_app(part_read: bool) -> HarBuilder:
    har = HarBuilder().call("GET", "/settings", response=SETTINGS)
    if part_read:
        har.call("GET", "/settings/mail", response=MAIL)
    return (har
            .call("PATCH", "/settings", body={"theme": "light"}, response={**SETTINGS, "theme": "light"})
            .call("GET", "/settings", response={**SETTINGS, "theme": "light"})
            .call("PATCH", "/settings", body={"theme": "blue", "mail": MOVED},
                  response={**SETTINGS, "theme": "blue", "mail": MOVED})
            .call("GET", "/settings", response={**SETTINGS, "theme": "blue", "mail": MOVED}))


def test_a_write_at_the_enclosing_document_is_not_served_where_a_part_is_read_at_its_own_path():
    """Served, PATCH /settings changing mail would leave GET /settings/mail answering the old host."""
    bundle = build_from(settings_app(part_read=True))
    patch = plan(bundle, "PATCH", "/settings")
    assert (patch.served, patch.reason) == (False, "copied-entity")
    matched = [e for e in patch.traces if e.outcome == "match" and e.rule_id == "document-copy.holds-another"]
    assert matched and matched[0].evidence["read"] == "/settings/mail"
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, _ = send(serving, "PATCH", "/settings", {"mail": {"host": "new.example.org", "port": 587}})
            assert status == 405  # refused, not applied
            assert send(serving, "GET", "/settings/mail")[1] == MAIL
    finally:
        runtime.close()


def test_the_enclosing_document_alone_is_served():
    patch = plan(build_from(settings_app(part_read=False)), "PATCH", "/settings")
    assert patch.served, patch.reason
