"""A bulk write at a path whose last segment is the type's singular or plural writes that type
(write-effects, "Bulk writes": /messages for /message), decided by the ``bulk-path-words``
table and traced before the ``write-effects`` decision."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

MESSAGES = [{"id": 1, "text": "a", "read": False}, {"id": 2, "text": "b", "read": False}]


def _message_app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/message", response=MESSAGES)               # 1
            .call("GET", "/message/1", response=MESSAGES[0])          # 2
            .call("GET", "/message/2", response=MESSAGES[1]))         # 3


def test_a_delete_at_the_plural_of_the_types_collection_is_a_bulk_write_of_that_type():
    bundle = build_from(_message_app()
                        .call("DELETE", "/messages", body={"IDs": [1]}, status=204)   # 4
                        .call("GET", "/message", response=MESSAGES[1:]))             # 5
    bulk = plan(bundle, "DELETE", "/messages")
    assert (bulk.effect, bulk.type, bulk.bulk_effect) == ("bulk", "message", "delete")
    assert (bulk.address.by, bulk.address.member, bulk.address.kind) == ("ids", "IDs", "integer")
    decided = [(e.table, e.rule_id) for e in bulk.traces if e.outcome == "match"][:2]
    assert decided == [("bulk-path-words", "bulk-path.plural"), ("write-effects", "effect.bulk")]


@pytest.mark.parametrize("segment", ["threads", "message-archive"])
def test_a_sibling_path_naming_another_word_writes_no_type(segment):
    bundle = build_from(_message_app().call("DELETE", f"/{segment}", body={"IDs": [1]}, status=204))
    write = plan(bundle, "DELETE", f"/{segment}")
    assert write.effect == "none" and write.type is None
