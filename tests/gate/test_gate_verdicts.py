"""Every verdict and its reason (write-effects, "Verdicts"), from small synthetic captures of an
``/items`` app run through the whole build, and the precedence table on the gate's findings."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder

from capenv.interpreter.gate.replay import GateRun, PlanFindings
from capenv.interpreter.gate.verdicts import apply_verdicts
from capenv.interpreter.rules_engine import load_rules
from capenv.serving.runtime import EnvironmentRuntime

C = {"id": 3, "title": "c"}
LISTED = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]


def test_served_a_create_confirmed_by_a_later_item_read_and_a_whole_list():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=C)                                   # 5
                        .call("GET", "/items", response=[*LISTED, C]))                         # 6
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.reason, create.contradicted_by) == (True, None, None)
    assert create.checked_record_ordinals == (5, 6)


def test_contradicted_when_the_application_stores_another_value_than_it_answered():
    stored = {"id": 3, "title": "C"}
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items", response=[*LISTED, stored])                     # 5
                        .call("GET", "/items/3", response=stored))                             # 6
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.reason) == (False, "contradicted")
    assert create.contradicted_by == 5 and create.checked_record_ordinals == ()


def test_contradicted_by_the_first_contradicting_read_when_only_a_later_call_goes_wrong():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})  # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "x"})                       # 5
                        .call("PATCH", "/items/2", body={"title": "y"}, response={"id": 2, "title": "y"})  # 6
                        .call("GET", "/items/2", response={"id": 2, "title": "Y"}))                      # 7
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason, update.contradicted_by) == (False, "contradicted", 7)
    assert update.checked_record_ordinals == (5,)


def test_side_effect_when_an_entity_no_write_changed_reads_otherwise_after_a_write_on_a_related_path():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=C)                                   # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "t1 (+1 sibling)"}))  # 6
    create = plan(bundle, "POST", "/items")
    # contradicted_by names the read that contradicted it as side-effect
    assert (create.served, create.reason, create.contradicted_by) == (False, "side-effect", 6)
    assert create.checked_record_ordinals == (5,)


def test_no_side_effect_from_a_read_of_an_unrelated_path_that_changes_alone():
    # /users/1 reads differently with no write at all between two of its reads (a clock, a counter
    # of visits): its change after the create shows nothing the create did. (The same change with
    # no such reads is a cascade: tests/gate/test_gate_cascades.py.)
    bundle = build_from(items_app()
                        .call("GET", "/users/1", response={"id": 1, "name": "u", "seen": 1})
                        .call("GET", "/users/2", response={"id": 2, "name": "v", "seen": 1})
                        .call("GET", "/users/1", response={"id": 1, "name": "u", "seen": 2})
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)
                        .call("GET", "/items/3", response=C)
                        .call("GET", "/users/1", response={"id": 1, "name": "u", "seen": 3}))
    create = plan(bundle, "POST", "/items")
    assert create.served, create.reason


def test_a_read_of_an_unrelated_path_changing_around_a_create_alone_is_a_cascade():
    bundle = build_from(items_app()
                        .call("GET", "/users/1", response={"id": 1, "name": "u"})
                        .call("GET", "/users/2", response={"id": 2, "name": "v"})
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)
                        .call("GET", "/items/3", response=C)
                        .call("GET", "/users/1", response={"id": 1, "name": "u (+1 item)"}))
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.reason) == (False, "side-effect")
    assert any(e.rule_id == "verdict.cascade" and e.outcome == "match" for e in create.traces)


@pytest.mark.parametrize("later", [None, "other-entity"])
def test_unconfirmed_when_no_later_read_checks_it(later):
    builder = items_app().call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})
    if later:
        builder.call("GET", "/items/2", response={"id": 2, "title": "t2"})
    update = plan(build_from(builder), "PATCH", "/items/{item_id}")
    assert (update.served, update.reason, update.checked_record_ordinals) == (False, "unconfirmed", ())


def test_incomplete_entities_an_update_answering_with_a_field_only_created_entities_hold():
    made = {"id": 3, "title": "c", "owner": "bob"}
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=made)       # 4
                        .call("GET", "/items/3", response=made)                                       # 5
                        .call("PATCH", "/items/3", body={"title": "x"}, response={**made, "title": "x"})
                        .call("GET", "/items/3", response={**made, "title": "x"}))                    # 7
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason is None and update.checked_record_ordinals == (7,)
    assert (update.served, update.reason) == (False, "incomplete-entities")
    assert plan(bundle, "POST", "/items").served


def test_a_field_the_updates_own_rule_writes_counts_as_held():
    stamped = {"id": 1, "title": "x", "updatedAt": "2026-01-01T00:00:00.300Z"}
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response=stamped)   # 4, at +300 ms
                        .call("GET", "/items/1", response=stamped))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert {f.field: f.op for f in update.fields} == {"title": "echo", "updatedAt": "clock"}
    assert update.served, update.reason


def test_incomplete_entities_an_update_answering_with_a_field_the_reads_never_showed():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x", "owner": "bob"})
                        .call("GET", "/items/1", response={"id": 1, "title": "x"}))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason) == (False, "incomplete-entities")


def test_incomplete_entities_a_delete_answering_with_an_edit_view():
    bundle = build_from(items_app()
                        .call("DELETE", "/items/1", response={"id": 1, "title": "t1", "secret": "s3cr3t"})
                        .call("GET", "/items/1", status=404, response={"error": "not found"}))
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert (delete.served, delete.reason) == (False, "incomplete-entities")


def test_a_body_unusable_plan_reports_its_build_reason_though_a_later_read_contradicts_its_answer():
    bundle = build_from(items_app()
                        .call("POST", "/items", body="title=c", request_type="application/x-www-form-urlencoded",
                              status=201, response=C)
                        .call("GET", "/items/3", response={"id": 3, "title": "C"}))
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.reason) == (False, "body-unusable")


# --- precedence, on the gate's findings --------------------------------------------------------

@pytest.fixture(scope="module")
def built():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)
                        .call("GET", "/items/3", response=C))
    return bundle, plan(bundle, "POST", "/items")


@pytest.mark.parametrize("build_reason,found,reason", [
    ("body-unusable", PlanFindings([5], contradicted_by=6, side_effect_by=7), "body-unusable"),
    ("no-observation", PlanFindings([], contradicted_by=6), "no-observation"),
    (None, PlanFindings([5], contradicted_by=6, side_effect_by=7), "contradicted"),
    (None, PlanFindings([5], side_effect_by=7), "side-effect"),
    (None, PlanFindings([], side_effect_by=7), "side-effect"),
    (None, PlanFindings([]), "unconfirmed"),
    (None, PlanFindings([6, 5, 6]), None),
], ids=["build-over-contradiction", "build-over-unconfirmed", "contradicted-over-side-effect",
        "side-effect-over-confirmed", "side-effect-over-unconfirmed", "unconfirmed", "served"])
def test_verdict_precedence(built, build_reason, found, reason):
    bundle, created = built
    subject = created.model_copy(update={"build_reason": build_reason})
    verdict, = apply_verdicts([subject], GateRun({subject.tool: found}), bundle.view, load_rules())
    assert verdict.reason == reason and verdict.served is (reason is None)
    # a side-effect verdict names the read that contradicted it as side-effect
    assert verdict.contradicted_by == (found.side_effect_by if reason == "side-effect" else found.contradicted_by)
    assert verdict.checked_record_ordinals == tuple(sorted(set(found.confirmations)))
    assert verdict.traces[-1].table == "verdicts"


def lacking_owner_app():
    """Items 1 and 2 read whole (with ``meta``); item 3 only listed, where the list shows meta null
    (ZenML's lists leave each entity's metadata out as null)."""
    builder = HarBuilder().call("GET", "/items", response=[{"id": i, "title": f"t{i}", "meta": None} for i in (1, 2, 3)])
    for i in (1, 2):
        builder.call("GET", f"/items/{i}", response={"id": i, "title": f"t{i}", "meta": {"n": i}})
    return builder


def test_an_update_of_an_entity_lacking_a_field_its_answer_shows_is_a_call_serving_refuses():
    """Serving refuses an update whose answer would show a field the entity does not hold; the gate
    replays that call as one serving refuses (unexplained), so the read showing the field afterwards
    is no contradiction of the plan, which the other calls prove."""
    bundle = build_from(lacking_owner_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x", "meta": {"n": 1}})
                        .call("GET", "/items/1", response={"id": 1, "title": "x", "meta": {"n": 1}})   # 5
                        .call("PATCH", "/items/3", body={"title": "y"}, response={"id": 3, "title": "y", "meta": {"n": 3}})
                        .call("GET", "/items/3", response={"id": 3, "title": "y", "meta": {"n": 3}}))    # 7
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason) == (True, None), update.reason
    assert 5 in update.checked_record_ordinals
    runtime = EnvironmentRuntime(bundle)
    refused = runtime.read("patch_items_by_item_id", {"item_id": "3", "body": {"title": "z"}})
    assert refused.get("error") == "refused" and "meta" in refused.get("message", "")
    served = runtime.read("patch_items_by_item_id", {"item_id": "2", "body": {"title": "z"}})
    assert served.get("body") == {"id": 2, "title": "z", "meta": {"n": 2}}
