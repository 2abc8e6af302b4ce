"""Serving sentences the spec-coverage table had no test for (write-effects, "Lists of a whole
collection" and "Refusals"): which list lines prove whole membership, line by line and recording
by recording, and data/add's intake limit measured on what data/get would write back."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import Budgets, EntityType
from capenv.serving.data_plane import StateDocumentReader
from capenv.serving.runtime_api import DataPlaneRefusal

ITEMS = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
C = {"id": 3, "title": "c"}


def _lines():
    builder = HarBuilder()
    for query in ("", "limit=10", "page=1&limit=10", "offset=1&limit=10", "limit=2", "limit=3"):
        builder.call("GET", "/items", query=query or None, response=ITEMS if "offset" not in query else ITEMS[1:])
    for entity in ITEMS:
        builder.call("GET", f"/items/{entity['id']}", response=entity)
    builder.call("POST", "/items", body={"title": "c"}, status=201, response=C)      # 9
    builder.call("GET", "/items/3", response=C)                                      # 10
    builder.call("GET", "/items", query="limit=3", response=ITEMS + [C])             # 11: a full page
    view = next(v for v in build_from(builder).view.views if v.tool == "get_items")
    return {"&".join(f"{n}={v}" for n, v in line.query): line for line in view.lines}


def test_only_a_line_paged_from_a_proved_zero_start_lists_the_whole_collection():
    """S29: no query, or only a page size larger than what it listed, proves whole membership; a
    positive page value does not (its base is unknown), nor a non-zero offset, nor a full page."""
    lines = _lines()
    membership = {query: line.membership for query, line in lines.items()}
    assert membership == {"": "all", "limit=10": "all", "page=1&limit=10": "recorded",
                          "offset=1&limit=10": "recorded", "limit=2": "recorded", "limit=3": "all"}


def test_all_record_ordinals_name_the_recordings_that_listed_the_whole_collection():
    """S30: whole membership is per line and per recording: ``limit=3`` listed two items (whole) in
    the window and a full page of three after the create, so only the first recording is named;
    a recorded-membership line names none."""
    lines = _lines()
    assert lines["limit=3"].record_ordinals == (6, 11)
    assert lines["limit=3"].all_record_ordinals == (6,)
    assert lines[""].all_record_ordinals == (1,) and lines["limit=10"].all_record_ordinals == (2,)
    assert lines["page=1&limit=10"].all_record_ordinals == ()


# --- S21: the intake limit on what data/get writes back ------------------------------------------

ITEM_TYPE = EntityType(name="items", collection_template="/items", item_template="/items/{item_id}", id_field="id")


def _reader(limit: int) -> StateDocumentReader:
    budgets = Budgets(max_entities=1000, max_state_bytes=limit, build_seconds=60, discovery_characters=10_000,
                      tool_description_characters=1000, max_nesting=16, max_body_bytes=1 << 20)
    return StateDocumentReader((ITEM_TYPE,), "evidence-with-a-long-enough-id", budgets)


SENT = dumps({"collections": [{"path": "/items", "type": "items", "args": {},
                               "entities": [{"id": 1, "value": {"id": 1, "title": "t1"}}]}],
              "documents": []})


def test_data_add_measures_the_document_data_get_would_write_back_with_the_members_it_may_omit():
    """S21: the document sent omits ``types`` and the state Evidence id; data/get would add them, so
    a limit the sent bytes fit but the written-back bytes do not is refused as a resource constraint."""
    _, written = _reader(1 << 20).read(SENT)
    assert len(SENT) < len(written)
    with pytest.raises(DataPlaneRefusal) as refused:
        _reader(len(written) - 1).read(SENT)
    assert refused.value.kind == DataPlaneRefusal.RESOURCE_CONSTRAINT
    assert f"{len(written)} bytes as data/get writes it" in refused.value.message
    assert _reader(len(written)).read(SENT)[1] == written


# --- S28: a recorded 2xx JSON null is an absence ----------------------------------------------------

def test_an_item_read_of_a_missing_entity_answers_the_recorded_json_null_labelled_missing():
    """S28: the item tool recorded a 200 ``null`` for an entity it did not find; a read of another
    entity the state does not hold answers that recording, labelled missing, from the state."""
    from capenv.serving.runtime import EnvironmentRuntime

    builder = HarBuilder().call("GET", "/items", response=ITEMS)
    for entity in ITEMS:
        builder.call("GET", f"/items/{entity['id']}", response=entity)
    builder.call("GET", "/items/9", response="null")
    runtime = EnvironmentRuntime(build_from(builder))
    answer = runtime.read("get_items_by_item_id", {"item_id": "7"})
    assert answer["body"] is None and answer["state"]["view"] == "missing", answer
