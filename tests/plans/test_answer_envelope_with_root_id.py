"""A create answering its entity in a member beside the id at its root (Alerta's ``{"customer":
{...}, "id": ..., "status": "ok"}``), whose item read answers ``{"customer": {...}}``: the entity
is located where the item read found it (plans/link.entity_in_answer, the ``write-answer-places``
table ranking that place first), not at the root, which is an envelope naming what the call made.
And a constant of a field that changes with no write, which the made entity's next read already
shows otherwise, is no constant
(the ``create-volatile-constants`` table, plans/volatile_constants)."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder
from support.rules_copy import edit_pattern

C1 = {"customer": "Acme", "href": "http://app.test/customer/c-0000000001", "id": "c-0000000001", "match": "acme"}
C2 = {"customer": "Globex", "href": "http://app.test/customer/c-0000000002", "id": "c-0000000002",
      "match": "globex"}


def _customers() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/customers", response={"customers": [C1], "status": "ok", "total": 1})
            .call("GET", "/customer/c-0000000001", response={"customer": C1, "status": "ok", "total": 1})
            .call("GET", "/customer/c-0000000009", status=404, response={"message": "not found", "status": "error"})
            .call("POST", "/customer", body={"customer": "Globex", "match": "globex"}, status=201,
                  response={"customer": C2, "id": C2["id"], "status": "ok"})
            .call("GET", "/customer/c-0000000002", response={"customer": C2, "status": "ok", "total": 1})
            .call("GET", "/customers", response={"customers": [C1, C2], "status": "ok", "total": 2}))


def test_the_entity_is_found_where_the_item_read_finds_it_and_the_create_is_served():
    bundle = build_from(_customers())
    create = plan(bundle, "POST", "/customer")
    assert create.served, summary(bundle)
    assert create.response.locator is not None and create.response.locator.member == "customer"
    assert {rule.field: rule.op for rule in create.fields}["match"] == "echo"
    # posted beside its collection (POST /customer, listed at /customers): the entity lies in the
    # type's collection, where the list that shows it reads (plans/link.link_create)
    assert create.collection == "/customers", create.collection


def test_a_maintainer_ranking_the_root_first_finds_the_envelope_instead(rules_dir):
    """The order is the table's: the root ranked before the item read's place is taken for the
    entity, and the member beside the id is no longer where the plan finds it."""
    edit_pattern(rules_dir / "write-answer-places.yaml", r"(id: answer-place.as-item-read.*?rank: )1", r"\g<1>9")
    create = plan(build_from(_customers(), rules=rules_dir), "POST", "/customer")
    assert create.response.locator is None or create.response.locator.member != "customer", create


def _countdowns(read_left) -> HarBuilder:
    def window(ident: str, left) -> dict:
        return {"id": ident, "kind": "planned", "text": "maintenance", "remaining": left}
    return (HarBuilder()
            .call("GET", "/windows", response={"windows": [window("w-0000000001", "100.5")]})
            .call("GET", "/window/w-0000000001", response={"window": window("w-0000000001", "100.5")})
            .call("GET", "/window/w-0000000001", response={"window": window("w-0000000001", "99.5")})
            .call("GET", "/windows", response={"windows": [window("w-0000000001", "99.5")]})
            .call("GET", "/window/w-0000000009", status=404, response={"message": "not found"})
            .call("POST", "/window", body={"text": "maintenance"}, status=201,
                  response={"window": window("w-0000000002", 7200), "id": "w-0000000002", "status": "ok"})
            .call("GET", "/window/w-0000000002", response={"window": window("w-0000000002", read_left)})
            .call("GET", "/windows", response={"windows": [window("w-0000000001", "97.5"),
                                                           window("w-0000000002", read_left)]}))


def test_a_counting_down_field_the_next_read_shows_otherwise_is_no_constant():
    create = plan(build_from(_countdowns("7199.8")), "POST", "/window")
    assert (create.served, create.reason) == (False, "unexplained-change")
    assert any("changes with no write" in (t.reason or "") for t in create.traces)


def test_a_maintainer_dropping_the_rule_keeps_the_constant(rules_dir):
    edit_pattern(rules_dir / "create-volatile-constants.yaml", r"yields: \{computed: true\}", "yields: {computed: false}")
    create = plan(build_from(_countdowns("7199.8"), rules=rules_dir), "POST", "/window")
    assert not any("changes with no write" in (t.reason or "") for t in create.traces)


def test_a_volatile_field_the_next_read_shows_as_made_stays_a_constant():
    create = plan(build_from(_countdowns(7200)), "POST", "/window")
    assert not any("changes with no write" in (t.reason or "") for t in create.traces)


def test_the_served_answer_names_the_made_entity_beside_it_too():
    """The root ``id`` repeated the recorded entity's: served, it names the entity the call made,
    never the exemplar's (serving/writes/answers._envelope_repeats)."""
    from support.served_calls import send_json, served_over_http

    bundle = build_from(_customers())
    with served_over_http(bundle) as serving:
        status, answer = send_json(serving, "/customer", {"customer": "Initech", "match": "initech"})
    assert status == 201, answer
    assert answer["id"] == answer["customer"]["id"] != C2["id"]
    assert answer["customer"]["customer"] == "Initech" and answer["status"] == "ok"
