"""A list two members deep: ``{"data": {"collection": [...], "@total_size": N}}`` (Roundup's REST
lists, any API wrapping its list object in an envelope). The body holds no array of its own, so
the list is looked for inside the one envelope member holding an object (``view-envelopes``):
the view reads it at ``/data/collection`` (``Locator.within``), the counter beside it is an
envelope member at ``/data/@total_size`` counted from the state, and served writes show in the
list with the count true. A body whose envelope object holds two lists, or whose object member
is no envelope, still locates none.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.rules_engine import load_rules
from capenv.interpreter.view.shapes import ShapeReader
from capenv.serving.runtime import EnvironmentRuntime


def note(n: int, text: str) -> dict:
    return {"id": n, "text": text, "link": f"http://notes.test/notes/{n}"}


def listing(notes: list) -> dict:
    return {"data": {"collection": notes, "@total_size": len(notes)}}


def app() -> HarBuilder:
    one, two, three = note(1, "a"), note(2, "b"), note(3, "c")
    return (HarBuilder()
            .call("GET", "/notes", response=listing([one, two]))                                  # 1
            .call("GET", "/notes/1", response={"data": one})                                       # 2
            .call("GET", "/notes/2", response={"data": two})                                       # 3
            .call("POST", "/notes", body={"text": "c"}, status=201, response={"data": three})     # 4
            .call("GET", "/notes/3", response={"data": three})                                     # 5
            .call("GET", "/notes", response=listing([one, two, three]))                           # 6
            .call("DELETE", "/notes/1", status=204)                                                # 7
            .call("GET", "/notes/1", status=404, response={"error": "no such note"})              # 8
            .call("GET", "/notes", response=listing([two, three])))                               # 9


def test_the_list_is_read_two_members_deep():
    bundle = build_from(app())
    view = bundle.view.view("get_notes")
    assert view.kind == "list" and view.state_backed
    assert view.locator == Locator(kind="member", member="collection", within=("data",))
    assert view.locator.pointer == "/data/collection"
    assert {m.pointer: m.role for m in view.envelope_members} == {"/data/@total_size": "count"}
    assert plan(bundle, "POST", "/notes").served and plan(bundle, "DELETE", "/notes/{note_id}").served


def test_served_writes_show_in_the_nested_list_with_a_true_count():
    runtime = EnvironmentRuntime(build_from(app()))
    runtime.read("post_notes", {"body": {"text": "z"}})
    runtime.read("delete_notes_by_note_id", {"note_id": "2"})
    body = runtime.read("get_notes")["body"]
    assert set(body) == {"data"} and set(body["data"]) == {"collection", "@total_size"}
    assert [n["text"] for n in body["data"]["collection"]] == ["a", "z"]
    assert body["data"]["@total_size"] == 2


def test_no_nested_list_where_the_place_is_ambiguous_or_no_envelope():
    reader = ShapeReader(load_rules())
    two_lists = {"data": {"collection": [{"id": 1}], "others": [{"id": 2}]}}
    assert reader.list_locator(two_lists, "notes") is None
    no_envelope = {"zzq": {"collection": [{"id": 1}]}}
    assert reader.list_locator(no_envelope, "notes") is None
    two_envelopes = {"data": {"collection": [{"id": 1}]}, "result": {"collection": [{"id": 2}]}}
    assert reader.list_locator(two_envelopes, "notes") is None
    own_list = {"items": [{"id": 1}], "data": {"collection": [{"id": 2}]}}
    assert reader.list_locator(own_list, "notes")[0] == Locator(kind="member", member="items")
