"""An update that sends back a string as the entity held it, which the application stores as
another value, sends a version the application computes and checks (CouchDB's ``_rev``: ``1-…``
sent as read, ``2-…`` stored; a stale one answers 409). Serving could neither compute the next
value nor refuse a stale one, so the plan is unexplained-change
(``update-member.held-string-replaced``); the same update without such a member is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

REVS = {"alpha": "1-3f6c0a9d2b7e4c1f8a5d6e7b9c0a1b2c", "beta": "1-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"}
NEXT = "2-5b1e0c7d9a2f4e6b8c0d1e3f5a7b9c2d"


def note(key: str, text: str, rev: str | None) -> dict:
    return {"text": text, "_id": key, **({"_rev": rev} if rev is not None else {})}


def notes_app(versioned: bool) -> HarBuilder:
    def rev(value: str) -> str | None:
        return value if versioned else None
    har = HarBuilder().call("GET", "/notes", response=[note(k, f"note {k}", rev(r)) for k, r in REVS.items()])
    for key, r in REVS.items():
        har = har.call("GET", f"/notes/{key}", response=note(key, f"note {key}", rev(r)))
    body = {"text": "alpha edited", **({"_rev": REVS["alpha"]} if versioned else {})}
    # answered {"ok": true} alone: an answer naming the id would keep the update unserved
    # (verdict.answer-names-call)
    return (har.call("PATCH", "/notes/alpha", body=body, response={"ok": True})
            .call("GET", "/notes/alpha", response=note("alpha", "alpha edited", rev(NEXT)))
            .call("GET", "/notes", response=[note("alpha", "alpha edited", rev(NEXT)),
                                             note("beta", "note beta", rev(REVS["beta"]))]))


def test_an_update_sending_back_a_version_the_application_replaces_is_not_served():
    update = plan(build_from(notes_app(versioned=True)), "PATCH", "/notes/{note_id}")
    assert (update.served, update.build_reason) == (False, "unexplained-change")
    assert any(e.rule_id == "update-member.held-string-replaced" and e.outcome == "match" for e in update.traces)


def test_the_same_update_without_a_version_is_served():
    update = plan(build_from(notes_app(versioned=False)), "PATCH", "/notes/{note_id}")
    assert update.served, update.reason
