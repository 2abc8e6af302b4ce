"""One entity type shown another way per endpoint (``view-list-projections``): a list that shows
a member otherwise than the item reads of the same entity at the same point of the timeline
renders that member only as its own recordings prove it (one value for every entity), or the
read gate refuses the line. Never the item read's value in the list (Label Studio's task list
shows ``annotators: []`` where the task's own read shows ``[1]``)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def thing(n: int, owners: list[int], summary: str) -> dict:
    return {"id": n, "title": f"thing {n}", "owners": owners, "owner_ids": ",".join(map(str, owners)),
            "summary": summary}


ONE, TWO, THREE = thing(1, [7], "The first thing, at length"), thing(2, [], "Two"), thing(3, [7, 8], "Third one")


def listed(entity: dict, *, summary: str | None = None) -> dict:
    """The list's projection: no owners shown whoever owns it; the summary as the list shows it."""
    return {**entity, "owners": [], "owner_ids": "", "summary": entity["summary"] if summary is None else summary}


def constant_capture(items_first: bool) -> HarBuilder:
    reads = [("/things/1", ONE), ("/things/2", TWO), ("/things/3", THREE)]
    listing = [listed(ONE), listed(TWO), listed(THREE)]
    har = HarBuilder()
    if not items_first:
        har.call("GET", "/things", response=listing)
    for path, body in reads:
        har.call("GET", path, response=body)
    if items_first:
        har.call("GET", "/things", response=listing)
    return har


@pytest.mark.parametrize("items_first", [False, True], ids=["list_then_items", "items_then_list"])
def test_a_list_constant_is_rendered_as_the_list_shows_it(items_first):
    bundle = build_from(constant_capture(items_first))
    view = bundle.view.view("get_things")
    (line,) = view.lines
    assert line.state_backed, line.reason
    assert {(m.name, m.role, m.rule_id) for m in line.projected_members} == {
        ("owners", "constant", "list-projection.constant"), ("owner_ids", "constant", "list-projection.constant")}
    assert "owners" not in view.volatile_fields  # the read gate compared what serving renders
    runtime = EnvironmentRuntime(bundle)
    body = runtime.read("get_things")["body"]
    assert [(t["id"], t["owners"], t["owner_ids"]) for t in body] == [(1, [], ""), (2, [], ""), (3, [], "")]
    # the item read keeps the entity's own values, whichever read came last
    assert runtime.read("get_things_by_thing_id", {"thing_id": "3"})["body"] == THREE
    assert runtime.read("get_things_by_thing_id", {"thing_id": "1"})["body"]["owners"] == [7]


def test_the_decision_is_traced_with_its_rule():
    bundle = build_from(constant_capture(items_first=False))
    events = [e for e in bundle.view.traces if e.table == "view-list-projections" and "'owners'" in e.subject]
    assert [(e.rule_id, e.outcome) for e in events] == [("list-projection.relative-time", "miss"),
                                                        ("list-projection.per-response", "miss"),
                                                        ("list-projection.reference", "miss"),
                                                        ("list-projection.constant", "match")]
    assert events[-1].evidence["value"] == [] and events[-1].evidence["differing"] == 2


def own_capture() -> HarBuilder:
    """The list shows each summary cut short: values of its own, which the state does not hold."""
    return (HarBuilder()
            .call("GET", "/things", response=[listed(ONE, summary="The first…"), listed(TWO), listed(THREE)])
            .call("GET", "/things/1", response=ONE)
            .call("GET", "/things/2", response=TWO)
            .call("GET", "/things/3", response=THREE)
            .call("PATCH", "/things/2", body={"title": "renamed"}, response={**TWO, "title": "renamed"})
            .call("GET", "/things/2", response={**TWO, "title": "renamed"}))


def test_a_list_showing_values_of_its_own_is_refused_by_the_read_gate():
    bundle = build_from(own_capture())
    (line,) = bundle.view.view("get_things").lines
    own = {m.name: m for m in line.projected_members}
    assert own["summary"].role == "own" and own["summary"].rule_id is None  # the table's default
    assert not line.state_backed
    assert "'summary' otherwise than the item reads" in line.reason
    assert "would be answered from the state if" in line.reason
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read("get_things")
    # never the item read's summary in the list: the list's own recording, or a refusal
    assert [t["summary"] for t in answer["body"]] == ["The first…", "Two", "Third one"]


def test_a_list_agreeing_with_the_items_decides_nothing():
    har = (HarBuilder()
           .call("GET", "/things", response=[ONE, TWO])
           .call("GET", "/things/1", response=ONE)
           .call("GET", "/things/2", response=TWO))
    bundle = build_from(har)
    (line,) = bundle.view.view("get_things").lines
    assert line.state_backed and line.projected_members == ()
    assert not [e for e in bundle.view.traces if e.table == "view-list-projections"]


def test_a_member_that_changes_by_itself_is_no_list_projection():
    """A time shown relative to the read ("4 seconds ago", then "5 seconds ago" in the item read):
    the list showing one value for every entity is no constant of its own, and the list answers
    from the state."""
    def aged(entity: dict, age: str) -> dict:
        return {"id": entity["id"], "title": entity["title"], "changed": age}
    har = HarBuilder().call("GET", "/things", response=[aged(t, "4 seconds ago") for t in (ONE, TWO, THREE)])
    for entity, age in ((ONE, "5 seconds ago"), (TWO, "5 seconds ago"), (THREE, "6 seconds ago"),
                        (ONE, "7 seconds ago")):
        har.call("GET", f"/things/{entity['id']}", response=aged(entity, age))
    view = build_from(har).view.view("get_things")
    (line,) = view.lines
    assert line.state_backed, line.reason
    assert not line.projected_members and "changed" in view.volatile_fields
    events = [e for e in build_from(har).view.traces if e.table == "view-list-projections" and "'changed'" in e.subject]
    assert [(e.rule_id, e.outcome) for e in events][-1] == ("list-projection.relative-time", "match")


FOUR = thing(4, [8], "Four, listed only")


def test_an_entity_only_a_list_showed_holds_nothing_of_the_list_projection():
    """Thing 4 is listed (owners [] as the list shows every thing) but never read on its own: its
    item read must not answer the list's [] as its owners (the application's own read shows [8]).
    The state leaves the projected members out, the item read is refused, the list still lists it."""
    har = HarBuilder().call("GET", "/things", response=[listed(ONE), listed(TWO), listed(THREE), listed(FOUR)])
    for entity in (ONE, TWO, THREE):
        har.call("GET", f"/things/{entity['id']}", response=entity)
    bundle = build_from(har)
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities if c.type == "things"}
    assert "owners" not in held[4] and "owner_ids" not in held[4], held[4]
    assert held[3]["owners"] == [7, 8]  # an item read showed it: the entity's own value stays
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool("get_things_by_thing_id", {"thing_id": "4"})
    assert answer.is_error, answer.structured
    assert runtime.read("get_things_by_thing_id", {"thing_id": "3"})["body"] == THREE
    body = runtime.read("get_things")["body"]
    assert [(t["id"], t["owners"], t["owner_ids"]) for t in body] == [(1, [], ""), (2, [], ""), (3, [], ""),
                                                                       (4, [], "")]
