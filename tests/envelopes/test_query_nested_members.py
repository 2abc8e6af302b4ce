"""A query may add members inside the objects an entity holds (a label inside each link object, as
Roundup's ``?@verbose=2`` adds ``username`` to ``assignedto: {id, link}``), or leave members out (a
projection, Roundup's ``?@fields=title``, under a parameter the projection table does not propose,
so no learned query explains it) (``view-query-members``).
Neither read may shape the state: regression for a plain item read answered with the labels an
earlier verbose read had merged into the entity, and with only the attributes a projected read had
left (the shallow merge replaced the whole ``attributes`` object)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

TICKET_1 = {"id": "1", "attributes": {"title": "Blank page", "owner": {"id": "7", "link": "/users/7"},
                                      "tags": [{"id": "2", "link": "/tags/2"}]}}
TICKET_2 = {"id": "2", "attributes": {"title": "Slow search", "owner": {"id": "8", "link": "/users/8"},
                                      "tags": []}}
VERBOSE_1 = {"id": "1", "attributes": {"title": "Blank page",
                                       "owner": {"id": "7", "link": "/users/7", "username": "bob"},
                                       "tags": [{"id": "2", "link": "/tags/2", "name": "ui"}]}}
PROJECTED_2 = {"id": "2", "attributes": {"title": "Slow search"}}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/tickets", response={"data": [{"id": "1"}, {"id": "2"}]})
            .call("GET", "/tickets/1", response={"data": TICKET_1})
            .call("GET", "/tickets/2", response={"data": TICKET_2})
            .call("GET", "/tickets/1", query="verbose=2", response={"data": VERBOSE_1})
            .call("GET", "/tickets/2", query="show=title", response={"data": PROJECTED_2}))


def test_nested_query_members_and_projections_stay_out_of_the_state():
    bundle = build_from(capture())
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities if c.type == "tickets"}
    assert held["1"] == TICKET_1 and held["2"] == TICKET_2
    item = bundle.view.view("get_tickets_by_ticket_id")
    assert item.state_backed, item.reason
    assert len(item.other_shape_records) == 2  # the verbose and the projected read: replayed
    rules = {e.rule_id for e in bundle.view.traces if e.outcome == "match"}
    assert {"query-member.added-by-query", "query-member.left-out-by-query"} <= rules


def test_plain_reads_answer_the_entity_as_its_own_reads_show_it():
    runtime = EnvironmentRuntime(build_from(capture()))
    for ticket_id, entity in (("1", TICKET_1), ("2", TICKET_2)):
        read = runtime.call_tool("get_tickets_by_ticket_id", {"ticket_id": ticket_id})
        assert read.structured["body"] == {"data": entity}


def test_a_filter_that_keeps_every_member_is_no_projection():
    """A query read showing every member the plain reads show (and no other) shapes nothing."""
    har = (HarBuilder().call("GET", "/tickets/1", response={"data": TICKET_1})
           .call("GET", "/tickets/2", response={"data": TICKET_2})
           .call("GET", "/tickets/1", query="lang=en", response={"data": TICKET_1}))
    bundle = build_from(har)
    assert not bundle.view.view("get_tickets_by_ticket_id").other_shape_records
