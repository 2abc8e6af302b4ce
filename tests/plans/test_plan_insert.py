"""A create's insert rule (write-effects, "List position") from small synthetic captures: sorted
by an integer id the listings show sorted, last with no evidence, first when a later listing
shows it, a random UUID id only after last, and no claim while the admitted sorts disagree."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder


def _titled(*ids: int) -> list[dict]:
    return [{"id": i, "title": f"t{i}"} for i in ids]


def _create_after(builder: HarBuilder, made: dict, later_list: list[dict] | None = None):
    builder.call("POST", "/items", body={"title": made["title"]}, status=201, response=made)
    builder.call("GET", f"/items/{made['id']}", response=made)
    if later_list is not None:
        builder.call("GET", "/items", response=later_list)
    create = plan(build_from(builder), "POST", "/items")
    assert create.build_reason is None, create.build_reason
    return create


@pytest.mark.parametrize("listed,rule", [
    ([1, 2], ("insert.id-ascending", "sorted", "id", False)),
    ([2, 1], ("insert.id-descending", "sorted", "id", True)),
], ids=["ascending", "descending"])
def test_integer_ids_listed_sorted_insert_by_id(listed, rule):
    create = _create_after(items_app(_titled(*listed)), {"id": 3, "title": "c"})
    insert = create.insert
    assert (insert.rule_id, insert.kind, insert.field, insert.descending) == rule
    assert create.served


@pytest.mark.parametrize("initial", ["one-member-list", "no-list"])
def test_last_with_no_evidence(initial):
    if initial == "one-member-list":
        builder = items_app(_titled(1)).call("GET", "/items/2", response={"id": 2, "title": "t2"})
    else:
        builder = (HarBuilder().call("GET", "/items/1", response={"id": 1, "title": "t1"})
                   .call("GET", "/items/2", response={"id": 2, "title": "t2"}))
    create = _create_after(builder, {"id": 3, "title": "c"})
    assert (create.insert.rule_id, create.insert.kind) == ("insert.last", "last")


def test_first_when_a_later_whole_listing_shows_the_create_first():
    made = {"id": 3, "title": "z"}  # no title order lists it first (insert.first-unproven otherwise)
    create = _create_after(items_app(), made, later_list=[made, *_titled(1, 2)])   # list: record 6
    assert (create.insert.rule_id, create.insert.kind) == ("insert.first", "first")
    # the later listing then confirms the create as placed
    assert create.served and create.checked_record_ordinals == (5, 6)


def test_a_later_listing_agreeing_with_the_sort_keeps_it():
    made = {"id": 3, "title": "c"}
    create = _create_after(items_app(), made, later_list=[*_titled(1, 2), made])
    assert create.insert.rule_id == "insert.id-ascending"
    assert create.served and create.checked_record_ordinals == (5, 6)


UUIDS = ["1a2b3c4d-0000-4000-8000-000000000001", "5e6f7a8b-0000-4000-8000-000000000002",
         "9c0d1e2f-0000-4000-8000-000000000003"]
NEW_UUID = "3f000000-0000-4000-8000-000000000004"   # sorts between the first and the second


@pytest.mark.parametrize("later,rule", [
    (None, ("insert.last", "last", None)),
    ("sorted", ("insert.random-id-ascending", "sorted", "id")),
    ("last", ("insert.last", "last", None)),
], ids=["no-later-list", "later-list-sorted", "later-list-last"])
def test_a_random_uuid_id_is_a_sort_only_after_last(later, rule):
    entities = [{"id": u, "title": t} for u, t in zip(UUIDS, "abc")]   # listed in ascending UUID order
    made = {"id": NEW_UUID, "title": "n"}
    later_list = None if later is None else (
        [entities[0], made, *entities[1:]] if later == "sorted" else [*entities, made])
    create = _create_after(items_app(entities), made, later_list)
    assert (create.insert.rule_id, create.insert.kind, create.insert.field) == rule
    assert create.served


CLOCKED = [{"id": 1, "title": "t1", "created": "2025-12-31T23:58:00Z"},
           {"id": 2, "title": "t2", "created": "2025-12-31T23:57:00Z"}]   # id ascending and clock descending
MADE = {"id": 3, "title": "c", "created": "2026-01-01T00:00:00Z"}


@pytest.mark.parametrize("later,rule_id", [
    (None, "insert.last"),
    ([MADE, *CLOCKED], "insert.clock-descending"),
    ([*CLOCKED, MADE], "insert.id-ascending"),
], ids=["unsettled", "settled-first", "settled-last"])
def test_sorts_that_would_place_the_create_differently_claim_nothing_before_last(later, rule_id):
    create = _create_after(items_app(CLOCKED), MADE, later)
    assert create.insert.rule_id == rule_id
    if rule_id == "insert.clock-descending":
        assert (create.insert.field, create.insert.descending) == ("created", True)


# --- L3: time-ordered ids keep the sort; ids the creation clocks list otherwise are random ----------

TIME_ORDERED = {
    "objectid": ["65a1b2c3d4e5f60718293a01", "65a1b2c4d4e5f60718293a02", "65a1b2c5d4e5f60718293a03",
                 "65a1b2c6d4e5f60718293a04"],
    "ulid": ["01HQ3Z8K7V0000000000000001", "01HQ3Z8K7W0000000000000002", "01HQ3Z8K7X0000000000000003",
             "01HQ3Z8K7Y0000000000000004"],
    "tsid": ["0AWE5HZP3SKT1", "0AWE5HZP3SKT2", "0AWE5HZP3SKT3", "0AWE5HZP3SKT4"],
    "uuid-v7": ["018f3c1a-0000-7000-8000-000000000001", "018f3c1a-0001-7000-8000-000000000002",
                "018f3c1a-0002-7000-8000-000000000003", "018f3c1a-0003-7000-8000-000000000004"],
}


@pytest.mark.parametrize("kind", sorted(TIME_ORDERED))
def test_a_time_ordered_id_keeps_the_sort_without_a_later_list(kind):
    *held, new = TIME_ORDERED[kind]
    entities = [{"id": i, "title": t} for i, t in zip(held, "abc")]   # listed in ascending id order
    create = _create_after(items_app(entities), {"id": new, "title": "n"})
    assert (create.insert.rule_id, create.insert.kind, create.insert.field) == ("insert.id-ascending", "sorted", "id")
    veto = [e for e in create.traces if e.rule_id == "insert.id-ascending" and e.outcome != "match"]
    assert not veto, veto


TOKENS = ["a7Kq2", "c1Zx9", "m4Pw0"]   # generated ids that sort unlike the clocks that made them
NEW_TOKEN = "b3Yr7"                     # sorts between the first and the second


def _clocked(later: str | None):
    made_at = ["2025-12-31T00:00:03.000Z", "2025-12-31T00:00:01.000Z", "2025-12-31T00:00:02.000Z"]
    entities = [{"id": i, "title": t, "createdAt": c} for i, t, c in zip(TOKENS, "abc", made_at)]
    builder = items_app(entities)
    made = {"id": NEW_TOKEN, "title": "n", "createdAt": "2026-01-01T00:00:00.400Z"}   # the create's own start
    later_list = None if later is None else (
        [entities[0], made, *entities[1:]] if later == "sorted" else [*entities, made])
    return _create_after(builder, made, later_list)


@pytest.mark.parametrize("later,rule", [
    (None, ("insert.last", "last", None)),
    ("sorted", ("insert.random-id-ascending", "sorted", "id")),
    ("last", ("insert.last", "last", None)),
], ids=["no-later-list", "later-list-sorted", "later-list-last"])
def test_generated_ids_every_creation_clock_lists_otherwise_sort_only_after_last(later, rule):
    create = _clocked(later)
    assert (create.insert.rule_id, create.insert.kind, create.insert.field) == rule
    random = next(e for e in create.traces if e.rule_id == "insert.id-ascending")
    assert random.outcome != "match"


def test_generated_ids_a_creation_clock_lists_alike_keep_the_sort():
    """The same tokens, made in their id order: the listing is sorted by id, and by the order the
    entities were made in alike, so the sort stands unproven against that order (a create it puts
    anywhere but last leaves the list refused)."""
    made_at = ["2025-12-31T00:00:01.000Z", "2025-12-31T00:00:02.000Z", "2025-12-31T00:00:03.000Z"]
    entities = [{"id": i, "title": t, "createdAt": c} for i, t, c in zip(TOKENS, "abc", made_at)]
    made = {"id": "z9Zz9", "title": "n", "createdAt": "2026-01-01T00:00:00.400Z"}
    create = _create_after(items_app(entities), made)
    assert (create.insert.rule_id, create.insert.field, create.insert.unproven) == \
        ("insert.id-ascending-unproven", "id", True)


def test_a_sort_a_later_listing_breaks_is_not_kept():
    """Client-chosen names listed newest first: the first create (``notes``) is first by its name
    descending and by its clock alike; the next (``hello``) is listed first again, which the names
    do not explain, so the clock is the order (Kinto's collections)."""
    def named(name: str, at: str) -> dict:
        return {"id": name, "title": name.title(), "updated_at": at}
    held = [named("comments", "2026-01-01T00:00:02Z"), named("articles", "2026-01-01T00:00:01Z")]
    notes, hello = named("notes", "2026-01-01T00:00:03Z"), named("hello", "2026-01-01T00:00:04Z")
    builder = items_app(held)
    for made, listed in ((notes, [notes, *held]), (hello, [hello, notes, *held])):
        builder.call("POST", "/items", body={"id": made["id"], "title": made["title"]}, status=201, response=made)
        builder.call("GET", f"/items/{made['id']}", response=made)
        builder.call("GET", "/items", response=listed)
    create = plan(build_from(builder), "POST", "/items")
    assert (create.insert.rule_id, create.insert.field, create.insert.descending) == \
        ("insert.clock-descending", "updated_at", True), create.insert


def test_newest_written_first_sorts_by_the_update_clock():
    """Listed newest written first (``ORDER BY updatedAt DESC``): before any update the creation and
    update clocks sort the listings alike, but once an update moves its entity first only the
    update clock keeps every later listing sorted, so the creates sort by it (the creation clock
    would contradict them at the listing after the update)."""
    def item(i: int, created: int, updated: int) -> dict:
        return {"id": i, "title": f"t{i}", "createdAt": f"2026-01-01T00:00:0{created}Z",
                "updatedAt": f"2026-01-01T00:00:0{updated}Z"}
    one, two = item(1, 1, 1), item(2, 2, 2)
    three, one_changed, four = item(3, 3, 3), {**item(1, 1, 4), "title": "changed"}, item(4, 5, 5)
    builder = items_app([two, one])
    builder.call("POST", "/items", body={"title": "t3"}, status=201, response=three)
    builder.call("GET", "/items/3", response=three)
    builder.call("GET", "/items", response=[three, two, one])
    builder.call("PATCH", "/items/1", body={"title": "changed"}, response=one_changed)
    builder.call("GET", "/items/1", response=one_changed)
    builder.call("GET", "/items", response=[one_changed, three, two])
    builder.call("POST", "/items", body={"title": "t4"}, status=201, response=four)
    builder.call("GET", "/items/4", response=four)
    builder.call("GET", "/items", response=[four, one_changed, three, two])
    create = plan(build_from(builder), "POST", "/items")
    assert (create.insert.rule_id, create.insert.field, create.insert.descending) == \
        ("insert.clock-descending", "updatedAt", True), create.insert
    assert create.served, create.reason


def test_listed_newest_first_after_a_lone_member_sorts_by_the_clock():
    """The capture first listed the collection with one member (no order to see), then every later
    listing newest first by a clock of whole seconds, two creates of one second in the order they
    were made: a clock sort (ties after the equal member) places both as listed, where "first"
    would put the second before the first."""
    def item(i: int, title: str, at: int) -> dict:
        return {"id": i, "title": title, "updatedAt": f"2026-01-01T00:00:0{at}Z"}
    lone, made, same_second = item(1, "a", 1), item(2, "m", 3), item(3, "z", 3)
    builder = items_app([lone])
    builder.call("POST", "/items", body={"title": "m"}, status=201, response=made)
    builder.call("GET", "/items/2", response=made)
    builder.call("GET", "/items", response=[made, lone])
    builder.call("POST", "/items", body={"title": "z"}, status=201, response=same_second)
    builder.call("GET", "/items/3", response=same_second)
    builder.call("GET", "/items", response=[made, same_second, lone])
    create = plan(build_from(builder), "POST", "/items")
    assert (create.insert.rule_id, create.insert.field, create.insert.descending) == \
        ("insert.clock-descending-later", "updatedAt", True), create.insert
    assert create.served, create.reason
