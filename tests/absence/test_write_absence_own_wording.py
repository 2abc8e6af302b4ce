"""A sibling write's recorded absence answers an update of a missing entity of another kind only
while nothing shows each kind worded its own way (``write-absence.kind-sibling``, unless
``absence_read_answers_otherwise``). ZenML's PUT /users/{id} answers "No account with the 'x'
name or ID was found", as GET /users/{id} does, while GET /service_accounts/{id} answers "No
service account with ...": given for a service account, the users' answer would be wrong, so the
update answers with its own type's item read's absence instead."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def _missing(kind: str, key: str) -> dict:
    return {"detail": ["KeyError", f"No {kind} with the '{key}' name or ID was found"]}


def capture() -> HarBuilder:
    users = [{"id": "u1", "name": "ada", "full_name": "Ada"}, {"id": "u2", "name": "bob", "full_name": "Bob"}]
    accounts = [{"id": "s1", "name": "etl", "description": "ETL"}, {"id": "s2", "name": "ci", "description": "CI"}]
    builder = HarBuilder().call("GET", "/users", response=users).call("GET", "/service_accounts", response=accounts)
    for user in users:
        builder.call("GET", f"/users/{user['id']}", response=user)
    for account in accounts:
        builder.call("GET", f"/service_accounts/{account['id']}", response=account)
    return (builder
            .call("GET", "/users/u7", status=404, response=_missing("account", "u7"))
            .call("GET", "/service_accounts/s7", status=404, response=_missing("service account", "s7"))
            .call("GET", "/service_accounts/s8", status=404, response=_missing("service account", "s8"))
            .call("PUT", "/users/u1", body={"full_name": "Ada L."}, response={**users[0], "full_name": "Ada L."})
            .call("GET", "/users/u1", response={**users[0], "full_name": "Ada L."})
            .call("PUT", "/users/u9", body={"full_name": "x"}, status=404, response=_missing("account", "u9"))
            .call("PUT", "/service_accounts/s1", body={"description": "Nightly ETL"},
                  response={**accounts[0], "description": "Nightly ETL"})
            .call("GET", "/service_accounts/s1", response={**accounts[0], "description": "Nightly ETL"}))


def test_an_update_of_a_missing_entity_answers_its_own_kinds_wording():
    bundle = build_from(capture())
    update = plan(bundle, "PUT", "/service_accounts/{service_account_id}")
    assert update.served, update.reason
    assert update.absence_tool is None  # not the users' PUT, whose wording is the users' own
    answer = EnvironmentRuntime(bundle).read("put_service_accounts_by_service_account_id",
                                             {"service_account_id": "s5", "body": {"description": "x"}})
    assert answer["status"] == 404, answer
    assert "No service account with" in answer["body"]["detail"][1], answer
