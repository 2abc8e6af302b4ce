"""A key inside an object that only a read sent with a query shows, on an entity no read without a
query showed holding that object (``query-member.object-unread-without-query``): a summary list
shows each template's id and name, a ``?detail=true`` list shows every member, and two templates are
read by themselves with an empty ``extra``. Nothing tells the other template's ``extra.owner`` from a
member the query adds: regression for that template's item read answered with ``extra: {}`` (the
key left out as the query's, its object kept less the key). Its item read is refused instead; the
template read by itself answers as before."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

RAID = {"uuid": "t-raid-0001", "name": "CUSTOM_RAID", "extra": {}, "steps": [{"step": "raid"}]}
HT = {"uuid": "t-ht-0003", "name": "CUSTOM_HT", "extra": {}, "steps": [{"step": "bios"}]}
BIOS = {"uuid": "t-bios-0002", "name": "CUSTOM_BIOS", "extra": {"owner": "ops"}, "steps": [{"step": "bios"}]}


def summary(template: dict) -> dict:
    return {"uuid": template["uuid"], "name": template["name"]}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/templates", response={"templates": [summary(RAID), summary(HT), summary(BIOS)]})
            .call("GET", "/templates", query="detail=true", response={"templates": [RAID, HT, BIOS]})
            .call("GET", f"/templates/{RAID['uuid']}", response=RAID)
            .call("GET", f"/templates/{HT['uuid']}", response=HT))


def test_the_object_of_an_entity_no_plain_read_showed_is_left_out_whole():
    bundle = build_from(capture())
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities if c.type == "templates"}
    assert held[RAID["uuid"]]["extra"] == {}
    assert "extra" not in held[BIOS["uuid"]]
    rules = {e.rule_id for e in bundle.view.traces if e.outcome == "match"}
    assert "query-member.object-unread-without-query" in rules


def test_its_item_read_is_refused_not_answered_without_the_key():
    runtime = EnvironmentRuntime(build_from(capture()))
    read = runtime.call_tool("get_templates_by_template_id", {"template_id": BIOS["uuid"]})
    assert read.is_error, read.structured
    assert "lacks \"extra\"" in read.structured["message"]
    raid = runtime.call_tool("get_templates_by_template_id", {"template_id": RAID["uuid"]})
    assert raid.structured["body"] == RAID


def test_a_key_the_entitys_own_plain_read_lacks_is_still_the_querys():
    """Where a read without the query shows the same entity's object without the key, the key is the
    query's (``added-by-query``) and the entity keeps its object."""
    har = capture().call("GET", f"/templates/{BIOS['uuid']}", response={**BIOS, "extra": {}})
    bundle = build_from(har)
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities if c.type == "templates"}
    assert held[BIOS["uuid"]]["extra"] == {}
