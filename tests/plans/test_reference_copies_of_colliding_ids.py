"""A member whose one value throughout equals a member of the entity a reference names is a copy or
a constant both types hold alike (``reference-copy.equal-unproven``): serving then answers a call
re-pointing the reference only where the named entity holds that value. Where ids of several types
collide and the reference is taken for one to each of them (``delete-referrers``: a ``from_id``
every one of whose ids two types hold), which entity it would copy from cannot be told either, and
no copy is kept: the field follows its own rule, and a call naming an id one of those types no
longer holds is not refused for it (a mark's score 0 beside a tag's and a note's 0)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

TAGS = [{"id": i, "name": f"tag{i}", "score": 0} for i in (1, 2, 3)]
NOTES = [{"id": i, "text": f"note {i}", "score": 0} for i in (1, 2, 3)]
MARKS = [{"id": 1, "from_id": 1, "title": "m1", "score": 0}, {"id": 2, "from_id": 2, "title": "m2", "score": 0}]


def capture() -> HarBuilder:
    har = HarBuilder()
    for path, entities in (("/tags", TAGS), ("/notes", NOTES), ("/marks", MARKS)):
        har.call("GET", path, response=entities)
        for entity in entities:
            har.call("GET", f"{path}/{entity['id']}", response=entity)
    har.call("DELETE", "/notes/3", status=204)
    har.call("GET", "/notes/3", status=404, response={"detail": "Not found."})
    moved = {**MARKS[0], "from_id": 3, "title": "m1b"}
    har.call("PATCH", "/marks/1", body={"from_id": 3, "title": "m1b"}, response=moved)
    har.call("GET", "/marks/1", response=moved)
    return har


def test_a_reference_to_several_types_copies_nothing():
    bundle = build_from(capture())
    update = plan(bundle, "PATCH", "/marks/{mark_id}")
    assert update.reference_copies == (), update.reference_copies
    assert update.served, update.reason
