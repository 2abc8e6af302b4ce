"""A document that another read also shows (one configuration read at every enclosing path:
``/config`` holding ``sub`` as ``/config/sub`` answers it) is a copy a write at one path leaves
stale at the other, which write-effects does not model: the write's plan is not served
(``document-copy.shown-elsewhere``, build reason copied-entity). The same write on a document no
other read shows is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


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
