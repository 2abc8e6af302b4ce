"""A member copied through a reference (``WritePlan.reference_copies``, ``WritePlan.copied_by``): an
account's ``monthly_fee`` repeats the ``price`` of the plan its ``plan_id`` names, in every entity
and answer the capture shows. A served account create takes the fee from the plan the call names as
the state holds it then, never the exemplar's value; a served plan update changing the price while
held accounts name the plan is refused with the state unchanged, naming them and what would be
accepted (the same price, or a plan nothing names). Where every sighting shows one value (a copy or
a constant, the capture cannot tell), the create is served only where the named plan holds that
value. Where the fee is a constant that differs from the plans' prices, nothing is a copy.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from write_calls import accepted, refused

from capenv.serving.runtime import EnvironmentRuntime

PLANS = [{"id": 1, "name": "basic", "price": "10.00"}, {"id": 2, "name": "pro", "price": "25.00"}]


def capture(fees: dict[int, str], *, team_price: str = "45.00") -> HarBuilder:
    """Plans and accounts read; a new plan made and repriced while no account names it, then an
    account made under it (answered with the fee ``fees`` gives the new plan, 3)."""
    accounts = [{"id": 1, "owner": "ann", "plan_id": 1, "monthly_fee": fees[1]},
                {"id": 2, "owner": "bob", "plan_id": 2, "monthly_fee": fees[2]}]
    team = {"id": 3, "name": "team", "price": "40.00"}
    repriced = {**team, "price": team_price}
    made = {"id": 3, "owner": "cyd", "plan_id": 3, "monthly_fee": fees[3]}
    har = HarBuilder()
    har.call("GET", "/plans", response=PLANS)
    for entry in PLANS:
        har.call("GET", f"/plans/{entry['id']}", response=entry)
    har.call("GET", "/accounts", response=accounts)
    for account in accounts:
        har.call("GET", f"/accounts/{account['id']}", response=account)
    har.call("POST", "/plans", body={"name": "team", "price": "40.00"}, status=201, response=team)
    har.call("GET", "/plans/3", response=team)
    har.call("PATCH", "/plans/3", body={"price": team_price}, response=repriced)
    har.call("GET", "/plans/3", response=repriced)
    har.call("POST", "/accounts", body={"owner": "cyd", "plan_id": 3}, status=201, response=made)
    har.call("GET", "/accounts/3", response=made)
    har.call("GET", "/accounts", response=[*accounts, made])
    kept = {**accounts[0], "owner": "ann b"}  # an update sending the reference as held
    har.call("PATCH", "/accounts/1", body={"owner": "ann b", "plan_id": 1}, response=kept)
    har.call("GET", "/accounts/1", response=kept)
    return har


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    return build_from(capture({1: "10.00", 2: "25.00", 3: "45.00"}), tmp_path_factory.mktemp("copied") / "c.har")


def _runtime(bundle) -> EnvironmentRuntime:
    return EnvironmentRuntime(bundle)


def test_the_plans_name_the_copy_both_ways(copied) -> None:
    create = plan(copied, "POST", "/accounts")
    assert create.served, create.reason
    assert [(c.holder, c.member, c.field, c.source_type, c.source, c.proven) for c in create.reference_copies] == [
        ("accounts", "plan_id", "monthly_fee", "plans", "price", True)]
    update = plan(copied, "PATCH", "/plans/{plan_id}")
    assert update.served, update.reason
    assert [(c.holder, c.field, c.source) for c in update.copied_by] == [("accounts", "monthly_fee", "price")]
    assert any(e.rule_id == "reference-copy.equal-in-every-sighting" and e.outcome == "match" for e in create.traces)


def test_a_create_copies_from_the_plan_it_names_at_call_time(copied) -> None:
    runtime = _runtime(copied)
    create = plan(copied, "POST", "/accounts").tool
    update = plan(copied, "PATCH", "/plans/{plan_id}").tool
    try:
        basic = accepted(runtime, create, {"body": {"owner": "dee", "plan_id": 1}})
        assert basic["body"]["monthly_fee"] == "10.00", basic  # not the exemplar's 45.00
        pro = accepted(runtime, create, {"body": {"owner": "eve", "plan_id": 2}})
        assert pro["body"]["monthly_fee"] == "25.00", pro
        fresh = accepted(runtime, plan(copied, "POST", "/plans").tool, {"body": {"name": "gold", "price": "60.00"}})
        gold = fresh["body"]["id"]
        accepted(runtime, update, {"plan_id": gold, "body": {"price": "65.00"}})  # nothing names it yet
        under = accepted(runtime, create, {"body": {"owner": "fay", "plan_id": gold}})
        assert under["body"]["monthly_fee"] == "65.00", under
        missing = refused(runtime, create, {"body": {"owner": "gus", "plan_id": 99}})
        assert "99" in missing["message"], missing
    finally:
        runtime.close()


def test_a_price_change_of_a_plan_accounts_name_is_refused_state_unchanged(copied) -> None:
    runtime = _runtime(copied)
    update = plan(copied, "PATCH", "/plans/{plan_id}").tool
    try:
        answer = refused(runtime, update, {"plan_id": 1, "body": {"price": "12.00"}})
        message = answer["message"]
        assert "accounts" in message and "1" in message and "'monthly_fee'" in message, message
        assert '"10.00"' in message, message  # what would be accepted: the price as held
        same = accepted(runtime, update, {"plan_id": 1, "body": {"price": "10.00"}})
        assert same["body"]["price"] == "10.00"
        refused(runtime, update, {"plan_id": 3, "body": {"price": "50.00"}})  # account 3 names the new plan
    finally:
        runtime.close()


def test_one_value_throughout_is_served_only_where_the_named_plan_holds_it(tmp_path) -> None:
    # every account the capture shows pays 10.00, and every plan they name costs 10.00
    har = HarBuilder()
    plans = [{"id": 1, "name": "basic", "price": "10.00"}, {"id": 2, "name": "pro", "price": "25.00"}]
    accounts = [{"id": 1, "owner": "ann", "plan_id": 1, "monthly_fee": "10.00"},
                {"id": 2, "owner": "bob", "plan_id": 1, "monthly_fee": "10.00"}]
    made = {"id": 3, "owner": "cyd", "plan_id": 1, "monthly_fee": "10.00"}
    har.call("GET", "/plans", response=plans)
    for entry in plans:
        har.call("GET", f"/plans/{entry['id']}", response=entry)
    har.call("GET", "/accounts", response=accounts)
    for account in accounts:
        har.call("GET", f"/accounts/{account['id']}", response=account)
    har.call("POST", "/accounts", body={"owner": "cyd", "plan_id": 1}, status=201, response=made)
    har.call("GET", "/accounts/3", response=made)
    har.call("PATCH", "/plans/2", body={"price": "30.00"}, response={**plans[1], "price": "30.00"})
    har.call("GET", "/plans/2", response={**plans[1], "price": "30.00"})
    bundle = build_from(har, tmp_path / "c.har")
    create = plan(bundle, "POST", "/accounts")
    assert create.served and [(c.field, c.proven) for c in create.reference_copies] == [("monthly_fee", False)]
    runtime = _runtime(bundle)
    try:
        assert accepted(runtime, create.tool, {"body": {"owner": "dee", "plan_id": 1}})["body"]["monthly_fee"] == "10.00"
        answer = refused(runtime, create.tool, {"body": {"owner": "eve", "plan_id": 2}})
        assert "copy or a constant" in answer["message"] and '"25.00"' in answer["message"], answer
        update = plan(bundle, "PATCH", "/plans/{plan_id}").tool
        refused(runtime, update, {"plan_id": 1, "body": {"price": "11.00"}})
        assert accepted(runtime, update, {"plan_id": 2, "body": {"price": "31.00"}})["body"]["price"] == "31.00"
    finally:
        runtime.close()


def test_a_constant_unlike_the_named_plans_is_no_copy(tmp_path) -> None:
    # every account pays 5.00 whatever its plan costs: a constant, not a copy
    bundle = build_from(capture({1: "5.00", 2: "5.00", 3: "5.00"}), tmp_path / "c.har")
    create = plan(bundle, "POST", "/accounts")
    assert create.served and not create.reference_copies
    update = plan(bundle, "PATCH", "/plans/{plan_id}")
    assert update.served and not update.copied_by
    runtime = _runtime(bundle)
    try:
        assert accepted(runtime, create.tool, {"body": {"owner": "dee", "plan_id": 2}})["body"]["monthly_fee"] == "5.00"
        assert accepted(runtime, update.tool, {"plan_id": 1, "body": {"price": "12.00"}})["body"]["price"] == "12.00"
    finally:
        runtime.close()


def test_an_update_re_pointing_the_reference_is_refused_where_its_copy_would_change(copied) -> None:
    # no recorded call of the account update changed its plan: what the application does to the
    # fee then is unrecorded, so a call that would change it is refused, one that would not served
    update = plan(copied, "PATCH", "/accounts/{account_id}")
    assert update.served, update.reason
    assert [(c.member, c.field) for c in update.reference_copies] == [("plan_id", "monthly_fee")]
    runtime = _runtime(copied)
    try:
        answer = refused(runtime, update.tool, {"account_id": 1, "body": {"owner": "ann", "plan_id": 2}})
        assert "'monthly_fee'" in answer["message"] and '"25.00"' in answer["message"], answer
        kept = accepted(runtime, update.tool, {"account_id": 1, "body": {"owner": "ann c", "plan_id": 1}})
        assert kept["body"]["monthly_fee"] == "10.00", kept
    finally:
        runtime.close()
