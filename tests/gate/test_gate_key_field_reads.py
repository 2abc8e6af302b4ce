"""An item read by a key field (a tag, a name) checks the entity serving names by that key
(write-effects, "The gate", "Reads": "an item read of a state-backed item view, of the entity
serving would name"): the writes to that entity, not those to another, and not while a write
to it is still running.

Limits are read by tag in the initial window and by id after each create (a view no window read
proves, so answered by replay); the type's identity is ``id``, the tag view's key ``tag``."""

from __future__ import annotations

from support.capture_runs import build_from, limits_app, plan
from support.capture_runs import tag_limit as _limit
from support.har_builder import HarBuilder


def _two_creates(slow: bool = False) -> HarBuilder:
    builder = limits_app()                                                         # 1, 2
    for n, tag in ((3, "gamma"), (4, "delta")):                                    # 3, 4 and 5, 6
        made = _limit(n, tag)
        builder.call("POST", "/limits", body={"tag": tag, "limit": n}, status=201, response=made,
                     duration_ms=500 if slow and n == 4 else 20)
        builder.call("GET", f"/limits/{made['id']}", response=made)
    return builder


def _then_read(tag: str, shown: dict, **timing) -> object:
    bundle = build_from(_two_creates(slow=bool(timing)).call("GET", f"/limits/tag/{tag}", response=shown, **timing))
    return bundle, plan(bundle, "POST", "/limits")                                 # the read is 7


def test_a_key_read_showing_another_entity_under_the_key_contradicts_the_create():
    _, create = _then_read("delta", {**_limit(4, "delta"), "id": _limit(9, "x")["id"]})
    assert (create.served, create.contradicted_by) == (False, 7), create.reason


def test_a_key_read_showing_the_created_entity_confirms_the_create_and_is_traced():
    bundle, create = _then_read("delta", _limit(4, "delta"))
    assert create.served and create.checked_record_ordinals == (7,), create.reason
    event = next(e for e in bundle.view.traces if e.evidence.get("record") == 7 and e.evidence.get("key_field"))
    assert event.evidence["entity"] == _limit(4, "delta")["id"] and event.subject.startswith("get_limits_tag")


def test_a_key_read_of_another_entity_does_not_check_the_creates():
    # must not: the read names alpha, which no write touched
    _, create = _then_read("alpha", _limit(1, "alpha"))
    assert not create.served and create.checked_record_ordinals == () and create.contradicted_by is None


def test_a_key_read_started_while_the_create_ran_checks_nothing():
    # must not: record 5 runs from 0.4 s to 0.9 s, and the read starts during it
    _, create = _then_read("delta", {**_limit(4, "delta"), "id": _limit(9, "x")["id"]}, started="2026-01-01T00:00:00.650Z")
    assert create.contradicted_by is None and create.checked_record_ordinals == (), create.reason
