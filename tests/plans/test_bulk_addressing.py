"""Bulk writes address their entities and admit their members by rule tables (write-effects,
"Bulk writes"): ``bulk-addresses`` says how a body names its entities, ``bulk-members`` which
members a bulk update applies, and both decisions are in the plan's trace."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False}]
READ = [{"id": 1, "title": "t1", "read": True}, {"id": 2, "title": "t2", "read": True}]


def _matches(write, table):
    return [(e.subject, e.rule_id) for e in write.traces if e.table == table and e.outcome == "match"]


def test_an_ids_member_applies_the_bodys_other_members_to_every_id():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"IDs": [1, 2], "read": True}, status=204)   # 4
                        .call("GET", "/items", response=READ))                                   # 5
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.effect, bulk.bulk_effect) == ("bulk", "update")
    assert (bulk.address.by, bulk.address.member, bulk.address.kind) == ("ids", "IDs", "integer")
    assert [(m.member, m.rule_id, m.required, m.kind) for m in bulk.members] == [
        ("IDs", "bulk-member.entities", True, "array"), ("read", "bulk-member.applied-to-ids", True, "boolean")]
    assert [(f.field, f.rule_id, f.op) for f in bulk.fields] == [("read", "bulk-member.applied-to-ids", "echo")]
    assert [rule for _, rule in _matches(bulk, "bulk-addresses")] == ["bulk-address.ids-member"]
    assert bulk.build_reason is None  # built; its verdict is the gate's


def test_elements_apply_their_own_members_and_not_their_id():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"items": [{"id": 1, "read": True}, {"id": 2, "read": True}]},
                              status=204)                                                      # 4
                        .call("GET", "/items", response=READ))                                # 5
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.address.by, bulk.address.member) == ("elements", "items")
    assert [(m.member, m.rule_id) for m in bulk.members] == [("items", "bulk-member.entities")]
    assert [(f.field, f.rule_id) for f in bulk.fields] == [("read", "bulk-member.element-own")]
    assert ("patch_items items element.id", "bulk-member.element-identity") in _matches(bulk, "bulk-members")
    assert [rule for _, rule in _matches(bulk, "bulk-addresses")] == ["bulk-address.elements-member"]


def test_a_root_element_array_deletes_the_entities_it_names():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body=[{"id": 1}], status=204)
                        .call("GET", "/items", response=ITEMS[1:]))
    bulk = plan(bundle, "DELETE", "/items")
    assert (bulk.bulk_effect, bulk.address.by, bulk.address.member) == ("delete", "elements", None)
    assert [rule for _, rule in _matches(bulk, "bulk-addresses")] == ["bulk-address.root-elements"]
    assert bulk.fields == () and bulk.served


def test_a_body_naming_no_entities_is_body_unusable_with_every_address_rule_traced():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body={"id": 1}, status=204)
                        .call("GET", "/items", response=ITEMS[1:]))
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.reason == "body-unusable" and not bulk.served
    tried = [e.rule_id for e in bulk.traces if e.table == "bulk-addresses"]
    assert tried == ["bulk-address.root-ids", "bulk-address.root-elements", "bulk-address.ids-member",
                     "bulk-address.elements-member"]
