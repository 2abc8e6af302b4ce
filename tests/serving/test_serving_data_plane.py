"""The data plane: data/get round trips through data/add byte for byte, data/reset restores the
initial state, every refusal names what is accepted and leaves data/get unchanged, and a
store-backed state is shared and persists."""

from __future__ import annotations

import json
from typing import Any

import pytest

from capenv.interpreter.bundle.jsonvalue import JsonNumber, dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import DataPlaneRefusal

INVALID, TOO_BIG = DataPlaneRefusal.INVALID, DataPlaneRefusal.RESOURCE_CONSTRAINT


@pytest.fixture
def runtime(json_server) -> EnvironmentRuntime:
    return EnvironmentRuntime(json_server)


def edited(runtime: EnvironmentRuntime, change) -> bytes:
    """data/get's document after ``change(document)``, written back as JSON text."""
    document = loads(runtime.data_get())
    change(document)
    return dumps(document)


def posts(document: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in document["collections"] if c["path"] == "/posts")


def test_data_get_writes_the_state_document(runtime, json_server) -> None:
    document = loads(runtime.data_get())
    assert list(document) == ["evidence_id", "types", "collections", "documents"]
    assert document["evidence_id"] == json_server.view.evidence_id
    assert {t["name"] for t in document["types"]} >= {"posts", "comments", "users"}
    entity = posts(document)["entities"][0]
    assert entity == {"id": 1, "value": {"id": 1, "title": "json-server", "author": "typicode", "views": 120,
                                         "published": True, "tags": ["rest", "mock"]}, "records": [1, 5]}
    assert document["documents"] == [{"path": "/profile", "value": {"name": "typicode", "bio": "mock API author",
                                                                    "theme": "light"}, "records": [4]}]


def test_data_add_of_data_get_is_byte_identical(runtime) -> None:
    before = runtime.data_get()
    runtime.data_add(before)
    assert runtime.data_get() == before
    runtime.data_add(json.dumps(json.loads(before), indent=2).encode())  # spacing does not matter
    assert runtime.data_get() == before


def test_types_and_evidence_id_may_be_omitted(runtime) -> None:
    before = runtime.data_get()

    def strip(document: dict[str, Any]) -> None:
        del document["types"], document["evidence_id"]
        for collection in document["collections"]:
            for entity in collection["entities"]:
                del entity["records"]

    runtime.data_add(edited(runtime, strip))
    after = loads(runtime.data_get())
    assert after["types"] == loads(before)["types"]
    assert after["evidence_id"] == loads(before)["evidence_id"]
    assert posts(after)["entities"][0]["records"] == []


def test_data_add_changes_what_reads_answer_and_data_reset_restores_it(runtime) -> None:
    initial = runtime.data_get()

    def change(document: dict[str, Any]) -> None:
        posts(document)["entities"][0]["value"]["title"] = "changed"
        posts(document)["entities"].append({"id": 9, "value": {"id": 9, "title": "nine", "author": "n", "views": JsonNumber("1.50"),
                                                               "published": True, "tags": []}})

    runtime.data_add(edited(runtime, change))
    assert runtime.read("get_posts_by_post_id", {"post_id": "1"})["body"]["title"] == "changed"
    assert [p["id"] for p in runtime.read("get_posts")["body"]] == [1, 2, 3, 9]
    assert b'"views":1.50' in runtime.data_get()  # the number keeps its spelling
    runtime.data_reset()
    assert runtime.data_get() == initial
    assert runtime.read("get_posts_by_post_id", {"post_id": "9"})["state"]["view"] == "missing"


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def _set_title(value: Any):
    def change(document: dict[str, Any]) -> None:
        posts(document)["entities"][0]["value"]["title"] = value
    return change


def _raw(text: bytes):
    return lambda runtime: text


def _via(change):
    return lambda runtime: edited(runtime, change)


REFUSALS = [
    ("not-json", _raw(b"{not json"), INVALID, ["not JSON"]),
    ("not-utf8", _raw(b'{"collections": "\xff"}'), INVALID, ["UTF-8"]),
    ("nan", _raw(b'{"collections": [], "documents": [{"path": "/p", "value": NaN}]}'), INVALID, ["NaN"]),
    ("infinity", _raw(b'{"collections": [], "documents": [{"path": "/p", "value": -Infinity}]}'), INVALID,
     ["Infinity"]),
    ("proto", _via(_set_title({"__proto__": {"admin": True}})), INVALID, ["__proto__"]),
    ("nesting", _via(_set_title(_deep(70))), TOO_BIG, ["past the limit of 64"]),
    ("deep-json", _raw(b'{"collections": [], "documents": [{"path": "/p", "value": ' + b"[" * 20000 + b"]" * 20000
                       + b"}]}"), TOO_BIG, ["nests past the limit"]),
    ("too-big", _via(_set_title("x" * (32 * 1024 * 1024))), TOO_BIG, ["past the 33554432-byte"]),
    ("not-an-object", _raw(b"[]"), INVALID, ["must be an object"]),
    ("missing-member", _via(lambda d: d.pop("documents")), INVALID, ["lacks 'documents'", "its members are"]),
    ("extra-member", _via(lambda d: d.update(extra=1)), INVALID, ["unknown 'extra'"]),
    ("entity-extra-member", _via(lambda d: posts(d)["entities"][0].update(note="x")), INVALID,
     ["entities[0] has unknown 'note'"]),
    ("unknown-type", _via(lambda d: posts(d).update(type="articles")), INVALID, ['"articles" is not a type']),
    ("id-mismatch", _via(lambda d: posts(d)["entities"][0].update(id=2)), INVALID,
     ['id 2 does not match the entity\'s "id" (1)']),
    ("id-missing-field", _via(lambda d: posts(d)["entities"][0]["value"].pop("id")), INVALID, ['"id" (missing)']),
    ("duplicate-id", _via(lambda d: posts(d)["entities"].append(posts(d)["entities"][0])), INVALID,
     ["duplicate entity id"]),
    ("duplicate-collection", _via(lambda d: d["collections"].append(posts(d))), INVALID,
     ["duplicate collection path"]),
    ("path-off-template", _via(lambda d: posts(d).update(path="/articles")), INVALID,
     ["does not fit posts's collection template"]),
    ("args-differ", _via(lambda d: posts(d).update(args={"x": "1"})), INVALID, ["args must be the path's"]),
    ("types-differ", _via(lambda d: d["types"].pop()), INVALID, ['"types" must be left out or equal']),
    ("bad-records", _via(lambda d: posts(d)["entities"][0].update(records=["one"])), INVALID, ["record ordinals"]),
    ("value-not-object", _via(lambda d: posts(d)["entities"][0].update(value=[1])), INVALID, ["must be an object"]),
]


@pytest.mark.parametrize("name, document, kind, phrases", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_refusal_names_what_is_accepted_and_changes_nothing(runtime, name, document, kind, phrases) -> None:
    before = runtime.data_get()
    with pytest.raises(DataPlaneRefusal) as refused:
        runtime.data_add(document(runtime))
    assert refused.value.kind == kind
    for phrase in phrases:
        assert phrase in refused.value.message, refused.value.message
    assert "\n" not in refused.value.message
    assert runtime.data_get() == before


@pytest.mark.parametrize("store", ["memory:", "sqlite"])
def test_a_store_keeps_the_state(json_server, tmp_path, store) -> None:
    url = f"sqlite:{tmp_path / 'state.db'}" if store == "sqlite" else store
    first = EnvironmentRuntime(json_server, store=url)
    initial = first.data_get()
    assert initial == EnvironmentRuntime(json_server).data_get()
    changed = edited(first, lambda d: posts(d)["entities"].pop())
    first.data_add(changed)
    assert first.data_get() == changed
    assert [p["id"] for p in first.read("get_posts")["body"]] == [1, 2]
    if store == "sqlite":  # a second runtime on the same file sees what the first installed
        second = EnvironmentRuntime(json_server, store=url)
        assert second.data_get() == changed
        second.data_reset()
        assert first.data_get() == initial  # and the first sees the second's reset
        second.close()
    first.close()


def test_an_unavailable_state_replays_everything_and_says_so(json_server) -> None:
    view = json_server.view.model_copy(update={"state_available": False})
    runtime = EnvironmentRuntime(json_server.model_copy(update={"view": view}))
    assert runtime.catalog_report()["from_state"] == 0
    assert all("the state is unavailable" in spec.description for spec in runtime.tools())
    answer = runtime.read("get_posts")
    call = next(c for c in json_server.replay.tools["get_posts"] if c.ordinal == answer["replay"]["record"])
    assert answer["replay"]["exact_match"] and (call.method, call.path, call.query) == ("GET", "/posts", ())
    document = loads(runtime.data_get())
    assert document["state_available"] is False and document["collections"] == []
    with pytest.raises(DataPlaneRefusal, match="the state is unavailable"):
        runtime.data_add(EnvironmentRuntime(json_server).data_get())
