"""Every refusal tells why (write-effects, "Verdicts"; the standard that every interpreter decision
carries its explanation): the verdict's trace event names the difference a contradicting or
side-effect read showed, why each call added nothing the gate could check, the reads of the
plan's type that serving answers by replay, and the fields no initial entity holds."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, limits_app, plan, tag_limit, verdict_evidence

C = {"id": 3, "title": "c"}


def test_a_side_effect_verdict_names_the_difference_the_read_showed():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=C)                                   # 5: confirms
                        .call("GET", "/items/2", response={"id": 2, "title": "changed"}))      # 6: no write did it
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.reason) == (False, "side-effect")
    evidence = verdict_evidence(create)
    assert evidence["read"] == 6 and evidence["difference"].startswith("record 6:"), evidence


def test_an_unconfirmed_verdict_says_why_each_call_was_not_checked():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/2", body={"title": "x"}, status=500, response={"error": "boom"})  # 4
                        .call("PATCH", "/items/2", body={"title": "z"}, response={"id": 2, "title": "z"})   # 5
                        .call("GET", "/items/2", response={"id": 2, "title": "z"}))                         # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason) == (False, "unconfirmed")
    assert verdict_evidence(update)["calls"] == [
        "record 5: an update of an unknown entity, since record 4 (PATCH /items/2), a write no built plan models, "
        "reaches below the item path of items '2': that entity is unknown until a read shows it again"]


def test_an_unconfirmed_verdict_names_the_reads_of_its_type_answered_by_replay():
    builder = limits_app()
    for n, tag in ((3, "gamma"), (4, "delta")):
        made = tag_limit(n, tag)
        builder.call("POST", "/limits", body={"tag": tag, "limit": n}, status=201, response=made)
        builder.call("GET", f"/limits/{made['id']}", response=made)   # by id: a view no window read proves
    bundle = build_from(builder)
    create = plan(bundle, "POST", "/limits")
    assert (create.served, create.reason) == (False, "unconfirmed")
    evidence = verdict_evidence(create)
    assert evidence["replayed_reads"] == {"get_limits_by_limit_id": "no read in the initial window to prove it"}
    assert evidence["calls"] and "no read the gate checks came after them" in evidence["calls"][0]


def test_an_incomplete_entities_verdict_names_the_fields_no_initial_entity_holds():
    bundle = build_from(items_app()
                        .call("DELETE", "/items/2", response={"id": 2, "title": "t2", "deleted": True})   # 4: a tombstone
                        .call("GET", "/items/2", status=404, response={"error": "not found"})
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}]))
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert (delete.served, delete.reason) == (False, "incomplete-entities")
    assert verdict_evidence(delete)["lacking"] == ["deleted"]


def test_an_unconfirmed_verdict_names_the_read_that_only_supplied_the_observation():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/2", body={"title": "z"}, status=204)     # 4: answers nothing
                        .call("GET", "/items/2", response={"id": 2, "title": "z"}))   # 5: its observation
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason, update.observation) == (False, "unconfirmed", 5)
    calls = verdict_evidence(update)["calls"]
    assert calls[-1] == "record 5 supplied the observation of record 4, so it checks nothing of that call", calls
