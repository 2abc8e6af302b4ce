"""A copy through a reference that a call's own value overrides (``reference-copy.equal-unless-sent``:
a submission's duration is its kind's default_duration unless a call sent its own) is judged with each
call's body read as its plan's members read it, inside its envelope ({"submissions": [{…}]}): read
whole, no call sent the duration, the overriding sighting disagreed with no excuse, no copy was found
and the create answered the exemplar's duration, contradicted by a later read. The bare capture and
its wrapped twin find the same copy."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

KINDS = [{"id": 1, "name": "talk", "default_duration": 30}, {"id": 2, "name": "workshop", "default_duration": 90}]


def _capture(wrapped: bool) -> HarBuilder:
    def answer(key, value):
        return {key: value if isinstance(value, list) else [value]} if wrapped else value

    def sent(key, value):
        return {key: [value]} if wrapped else value

    made = [{"id": 1, "title": "a", "kind": 1, "duration": 30},
            {"id": 2, "title": "b", "kind": 2, "duration": 90},
            {"id": 3, "title": "c", "kind": 1, "duration": 45},
            {"id": 4, "title": "d", "kind": 2, "duration": 90}]
    har = HarBuilder().call("GET", "/kinds", response=answer("kinds", KINDS))
    for kind in KINDS:
        har.call("GET", f"/kinds/{kind['id']}", response=answer("kinds", kind))
    har.call("GET", "/submissions", response=answer("submissions", []))
    for entity in made:
        body = {"title": entity["title"], "kind": entity["kind"]}
        if entity["id"] == 3:
            body["duration"] = 45
        har.call("POST", "/submissions", body=sent("submissions", body), status=201, response=answer("submissions", entity))
        har.call("GET", f"/submissions/{entity['id']}", response=answer("submissions", entity))
    har.call("GET", "/submissions", response=answer("submissions", made))
    renamed = {**KINDS[1], "name": "lab"}
    har.call("PATCH", "/kinds/2", body=sent("kinds", {"name": "lab"}), response=answer("kinds", renamed))
    return har.call("GET", "/kinds/2", response=answer("kinds", renamed))


def _copies(bundle) -> set[tuple[str, str, str, str]]:
    return {(c.holder, c.member, c.field, c.rule_id) for p in bundle.view.writes for c in p.reference_copies}


def test_a_copy_unless_sent_is_read_inside_the_bodies_envelope():
    bare, wrapped = build_from(_capture(wrapped=False)), build_from(_capture(wrapped=True))
    create = next(p for p in wrapped.view.writes if p.tool.startswith("post_submissions"))
    assert create.body_envelope == "submissions"
    assert ("submissions", "kind", "duration", "reference-copy.equal-unless-sent") in _copies(bare)
    assert _copies(wrapped) == _copies(bare)
    assert create.reason is None, create.reason
