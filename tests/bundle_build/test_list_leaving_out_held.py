"""A list read that leaves out an entity the initial window's item reads showed selects part of
its collection: its line lists its recorded members, not the whole collection.

Synthetic: notes 1-3 listed by ``GET /notes``; note 9 (an archived one, a system page, a second
page's member) answers its item read but is never listed. Before, the line claimed the whole
collection and the list stayed on replay (rendered 4 members, recorded 3).
"""

from __future__ import annotations

from pathlib import Path

from support.har_builder import HarBuilder

from capenv.interpreter.pipeline import build_bundle

NOTES = [{"id": i, "title": f"note {i}"} for i in (1, 2, 3)]
HIDDEN = {"id": 9, "title": "note 9"}


def _build(tmp_path: Path, hidden_read: bool):
    builder = HarBuilder()
    builder.call("GET", "/notes", response=NOTES)
    for note in NOTES:
        builder.call("GET", f"/notes/{note['id']}", response=note)
    if hidden_read:
        builder.call("GET", "/notes/9", response=HIDDEN)
    builder.call("GET", "/notes/77", status=404, response={"error": "not found"})
    builder.call("GET", "/notes", response=NOTES)
    return build_bundle(builder.write(tmp_path / "capture.har"))


def _list_view(bundle):
    return next(v for v in bundle.view.views if v.kind == "list")


def test_a_list_leaving_out_an_entity_read_alone_lists_its_recorded_members(tmp_path):
    view = _list_view(_build(tmp_path, hidden_read=True))
    assert view.state_backed, view.reason
    assert {line.membership for line in view.lines} == {"recorded"}
    assert view.lines[0].recorded_ids == (1, 2, 3)


def test_a_list_listing_every_entity_read_keeps_the_whole_collection(tmp_path):
    view = _list_view(_build(tmp_path, hidden_read=False))
    assert view.state_backed, view.reason
    assert {line.membership for line in view.lines} == {"all"}
