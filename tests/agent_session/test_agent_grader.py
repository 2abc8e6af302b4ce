"""The grader on small documents: it passes exactly the expected changes and names every other."""

from __future__ import annotations

import copy

from grader import ExpectedChange, grade

BEFORE = {
    "evidence_id": "ev-1",
    "types": [{"name": "notes", "collection_template": "/notes", "item_template": "/notes/{id}", "id_field": "id"}],
    "collections": [{"path": "/notes", "type": "notes", "args": {}, "entities": [
        {"id": 1, "value": {"id": 1, "text": "a", "at": "t0"}, "records": [3]},
        {"id": 2, "value": {"id": 2, "text": "b", "at": "t0"}, "records": [3]},
        {"id": 3, "value": {"id": 3, "text": "c", "at": "t0"}, "records": [4]}]}],
    "documents": [{"path": "/me", "value": {"name": "x", "theme": "light"}, "records": [5]}],
}


def session(after: dict) -> None:
    """What the expected session does: create 4, update 1's text (stamping at), delete 2."""
    notes = after["collections"][0]["entities"]
    notes[0] = {"id": 1, "value": {"id": 1, "text": "A", "at": "t1"}, "records": []}
    del notes[1]
    notes.append({"id": 4, "value": {"id": 4, "text": "new", "at": "t2"}, "records": []})


EXPECTED = [ExpectedChange("create", "/notes", 4, {"text": "new"}),
            ExpectedChange("update", "/notes", 1, {"text": "A"}, frozenset({"at"})),
            ExpectedChange("delete", "/notes", 2)]


def after_session() -> dict:
    after = copy.deepcopy(BEFORE)
    session(after)
    return after


def test_the_expected_session_passes() -> None:
    assert grade(BEFORE, after_session(), EXPECTED) == []
    assert grade(BEFORE, BEFORE, []) == []


def test_a_missing_change_is_named() -> None:
    after = after_session()
    after["collections"][0]["entities"] = [e for e in after["collections"][0]["entities"] if e["id"] != 4]
    assert grade(BEFORE, after, EXPECTED) == ["create: entity 4 of /notes is not held afterwards"]
    assert grade(BEFORE, BEFORE, EXPECTED[2:]) == ["delete: entity 2 of /notes is still held"]


def test_a_wrong_value_and_an_unwritten_field_are_named() -> None:
    after = after_session()
    after["collections"][0]["entities"][0]["value"].update(text="B", extra=1)
    problems = grade(BEFORE, after, EXPECTED)
    assert problems == ["entity 1 of /notes: 'text' is 'B', expected 'A'",
                        "update: entity 1 of /notes field 'extra' changed, which the call did not write"]


def test_a_stamped_field_must_be_declared() -> None:
    problems = grade(BEFORE, after_session(), [EXPECTED[0], ExpectedChange("update", "/notes", 1, {"text": "A"}),
                                               EXPECTED[2]])
    assert problems == ["update: entity 1 of /notes field 'at' changed, which the call did not write"]


def test_collateral_changes_are_named() -> None:
    after = after_session()
    after["collections"][0]["entities"][1]["value"]["text"] = "C"  # entity 3
    after["documents"][0]["value"]["theme"] = "dark"
    after["collections"].append({"path": "/other", "type": "notes", "args": {}, "entities": []})
    assert grade(BEFORE, after, EXPECTED) == ["collateral change: entity 3 of /notes changed text",
                                              "collateral change: document /me",
                                              "collection /other appeared"]


def test_an_entity_that_appears_or_disappears_unasked_is_collateral() -> None:
    after = copy.deepcopy(BEFORE)
    after["collections"][0]["entities"].pop()
    assert grade(BEFORE, after, []) == ["collateral change: entity 3 of /notes disappeared"]
    assert grade(after, BEFORE, []) == ["collateral change: entity 3 of /notes appeared"]


def test_entities_left_alone_keep_their_order() -> None:
    after = copy.deepcopy(BEFORE)
    entities = after["collections"][0]["entities"]
    entities[1], entities[2] = entities[2], entities[1]
    assert grade(BEFORE, after, []) == ["collection /notes: the entities left alone are in another order"]


def test_ids_compare_by_their_json_text_and_documents_by_member() -> None:
    after = copy.deepcopy(BEFORE)
    after["documents"][0]["value"]["theme"] = "dark"
    assert grade(BEFORE, after, [ExpectedChange("document", "/me", fields={"theme": "dark"})]) == []
    assert grade(BEFORE, after, [ExpectedChange("document", "/me", fields={"name": "x"})]) == [
        "document /me member 'theme' changed, which the call did not write"]
    assert grade(BEFORE, BEFORE, [ExpectedChange("delete", "/notes", "1")]) == [
        'delete: entity "1" of /notes was not held before']


def test_documents_may_be_bytes() -> None:
    import json

    assert grade(json.dumps(BEFORE).encode(), json.dumps(after_session()), EXPECTED) == []
