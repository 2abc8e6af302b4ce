"""``explain_update``: body member admission (the create vocabulary updates reuse), the members a
call must send, held and unsent clocks, and calls that treat a member otherwise."""

from __future__ import annotations

from test_update_support import call, checks, explain, field, member, whole_second

UUID = "7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a"


def test_echoed_members_put_requires_each_patch_at_least_one():
    before, after = {"id": 1, "title": "A", "views": 1}, {"id": 1, "title": "B", "views": 2}
    put = explain(call({"title": "B", "views": 2}, before, after), method="PUT")
    assert [(m.member, m.admission, m.required, m.kind) for m in put.members] == [
        ("title", "accepted", True, "string"), ("views", "accepted", True, "integer")]
    assert put.min_members == 0
    patch = explain(call({"title": "B", "views": 2}, before, after), method="PATCH")
    assert [m.required for m in patch.members] == [False, False] and patch.min_members == 1
    assert explain(call({"title": "B", "views": 2}, before, after), method="POST").min_members == 1


def test_a_member_stored_differently_is_accepted_only_as_recorded_and_stores_what_was_recorded():
    plan = explain(call({"name": "  Dave "}, {"id": 1, "name": "Al"}, {"id": 1, "name": "Dave"}), method="PUT")
    rule = member(plan, "name")
    assert (rule.rule_id, rule.admission, rule.recorded_value, rule.required) == \
           ("update-member.transformed", "recorded-only", "  Dave ", True)
    assert (field(plan, "name").op, field(plan, "name").params) == (
        "constant", {"value": "Dave", "member": "name", "requires_from": True, "from_value": "Al"})
    assert plan.build_reason is None


def test_fixed_at_different_values_is_unexplained():
    first = call({"name": "  Dave "}, {"id": 1, "name": "Al"}, {"id": 1, "name": "Dave"})
    second = call({"name": " Eve "}, {"id": 1, "name": "Dave"}, {"id": 1, "name": "Eve"}, ordinal=12, seconds=1)
    plan = explain(first, second)
    assert checks(plan) == {"fixed-at-different-values"}


def test_one_call_echoes_and_another_stores_something_else():
    first = call({"name": "Dave"}, {"id": 1, "name": "Al"}, {"id": 1, "name": "Dave"})
    second = call({"name": " Eve "}, {"id": 1, "name": "Dave"}, {"id": 1, "name": "Eve"}, ordinal=12, seconds=1)
    plan = explain(first, second)
    assert checks(plan) == {"treated-otherwise"}
    assert plan.problems[0].ordinal == 12


def test_a_member_the_observation_does_not_show_is_not_accepted():
    plan = explain(call({"password": "s3cret!", "name": "B"}, {"id": 1, "name": "A"}, {"id": 1, "name": "B"}),
                   method="PUT")
    rule = member(plan, "password")
    assert (rule.admission, rule.required) == ("not-accepted", False)
    assert [r.field for r in plan.fields] == ["name"]


def test_identity_sent_as_the_path_id_takes_no_rule():
    plan = explain(call({"id": 1, "title": "B"}, {"id": 1, "title": "A"}, {"id": 1, "title": "B"}), method="PUT")
    assert (member(plan, "id").rule_id, member(plan, "id").admission) == ("update-member.identity", "accepted")
    assert [r.field for r in plan.fields] == ["title"]


def test_identity_used_as_identity_and_as_a_fixed_member_is_unexplained():
    first = call({"id": 1, "title": "B"}, {"id": 1, "title": "A"}, {"id": 1, "title": "B"})
    second = call({"id": 99, "title": "C"}, {"id": 1, "title": "B"}, {"id": 1, "title": "C"}, ordinal=12, seconds=1)
    plan = explain(first, second)
    assert checks(plan) == {"identity-and-fixed"}


def test_a_member_replaced_by_a_fresh_uuid_is_accepted_with_any_value():
    plan = explain(call({"token": "anything"}, {"id": 1, "token": "0b0c1d6e-1f2a-4b3c-8d4e-5f6a7b8c9d0e"},
                        {"id": 1, "token": UUID}), method="PUT")
    rule = member(plan, "token")
    assert (rule.rule_id, rule.admission, rule.kind) == ("update-member.fresh-uuid", "accepted", None)
    assert (field(plan, "token").op, field(plan, "token").params["format"]) == ("unique", "uuid")


def test_a_uuid_stored_in_another_letter_case_is_the_sent_value():
    plan = explain(call({"owner": UUID.upper()}, {"id": 1, "owner": None}, {"id": 1, "owner": UUID}))
    rule = member(plan, "owner")
    assert (rule.rule_id, rule.admission) == ("update-member.echo", "accepted")
    assert field(plan, "owner").evidence["letter_case"] == "differs"


def test_a_member_a_later_call_first_stores_keeps_that_calls_kind():
    first = call({"body": "great draft!"}, {"id": 6, "body": "draft"}, {"id": 6, "body": "great draft!"})
    second = call({"body": "great draft!!", "edited": True}, {"id": 6, "body": "great draft!"},
                  {"id": 6, "body": "great draft!!", "edited": True}, ordinal=12, seconds=1)
    plan = explain(first, second, method="PUT", path_id="6")
    rule = member(plan, "edited")
    assert (rule.admission, rule.kind, rule.required) == ("accepted", "boolean", False)
    assert field(plan, "edited").evidence["ordinal"] == 12
    assert plan.build_reason is None


def test_a_member_naming_a_nested_object_is_accepted_only_as_recorded():
    before = {"id": 1, "collection_id": 4, "collection": {"id": 4, "name": "Old"}}
    after = {"id": 1, "collection_id": 5, "collection": {"id": 5, "name": "Reports"}}
    plan = explain(call({"collection_id": 5}, before, after))
    rule = member(plan, "collection_id")
    assert (rule.rule_id, rule.admission, rule.recorded_value) == ("update-member.nested-reference", "recorded-only", 5)
    # The nested object changed with it, and nothing explains that change.
    assert [p.subject for p in plan.problems] == ["collection"]


def test_a_state_word_other_fields_go_with_is_accepted_only_as_recorded():
    before = {"id": 1, "status": "published", "published_at": "2026-11-01T00:00:00Z"}
    after = {"id": 1, "status": "draft", "published_at": "2026-11-01T00:00:00Z"}
    others = [{"id": 2, "status": "draft", "published_at": None},
              {"id": 3, "status": "published", "published_at": "2026-10-01T00:00:00Z"}]
    plan = explain(call({"status": "draft"}, before, {**after, "published_at": None},), type_entities=others)
    assert (member(plan, "status").rule_id, member(plan, "status").admission) == \
           ("update-member.state-word", "recorded-only")


def test_ghost_updated_at_is_a_held_clock():
    held = whole_second(0)
    before = {"id": "p1", "title": "Old", "updated_at": held}
    after = {"id": "p1", "title": "New", "updated_at": held}
    plan = explain(call({"title": "New", "updated_at": held}, before, after), method="PUT", path_id="p1")
    rule = field(plan, "updated_at")
    assert (rule.rule_id, rule.op, rule.params["member"]) == ("update-member.held-clock", "held-clock", "updated_at")
    assert member(plan, "updated_at").admission == "accepted"
    assert plan.build_reason is None


def test_a_held_clock_stamped_anew_by_a_later_call():
    held = whole_second(0)
    first = call({"title": "New", "updated_at": held}, {"id": "p1", "title": "Old", "updated_at": held},
                 {"id": "p1", "title": "New", "updated_at": held})
    later = call({"title": "Newer", "updated_at": held}, {"id": "p1", "title": "New", "updated_at": held},
                 {"id": "p1", "title": "Newer", "updated_at": whole_second(5)}, ordinal=12, seconds=5)
    assert explain(first, later, method="PUT", path_id="p1").build_reason is None
    stale = call({"title": "Newer", "updated_at": "2026-01-01T00:00:00.000Z"},
                 {"id": "p1", "title": "New", "updated_at": held},
                 {"id": "p1", "title": "Newer", "updated_at": whole_second(5)}, ordinal=12, seconds=5)
    plan = explain(first, stale, method="PUT", path_id="p1")
    assert checks(plan) == {"held-clock-sent-as-held"}


def test_an_unsent_clock_in_the_calls_own_second_stays_unconfirmed():
    stamp = whole_second(0)
    first = call({"title": "B"}, {"id": 1, "title": "A", "updated_at": stamp}, {"id": 1, "title": "B", "updated_at": stamp})
    plan = explain(first)
    assert plan.build_reason == "unconfirmed"
    assert "updated_at" in plan.unconfirmed[0]


def test_an_unsent_clock_naming_when_the_entity_was_made_is_no_question():
    stamp = whole_second(0)
    plan = explain(call({"title": "B"}, {"id": 1, "title": "A", "createdAt": stamp},
                        {"id": 1, "title": "B", "createdAt": stamp}))
    assert plan.build_reason is None


def test_another_call_showing_the_clock_stamped_settles_it():
    stamp = whole_second(0)
    first = call({"title": "B"}, {"id": 1, "title": "A", "updated_at": stamp}, {"id": 1, "title": "B", "updated_at": stamp})
    later = call({"title": "C"}, {"id": 1, "title": "B", "updated_at": stamp},
                 {"id": 1, "title": "C", "updated_at": whole_second(3)}, ordinal=12, seconds=3)
    plan = explain(first, later)
    rule = field(plan, "updated_at")
    assert (rule.rule_id, rule.evidence["ordinal"]) == ("change.clock", 12)
    assert plan.build_reason is None
