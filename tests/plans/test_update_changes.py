"""``explain_update``: every change kind an update's unsent fields take (the spec's own examples),
and the unexplained-change cases across recorded calls."""

from __future__ import annotations

from test_update_support import call, checks, explain, field, iso, member, whole_second

U1, U2, U3, U4 = ("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222",
                  "33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444")
U5, U6 = "55555555-5555-4555-8555-555555555555", "66666666-6666-4666-8666-666666666666"


# --- change kinds ---------------------------------------------------------------------------

def test_clock_keeps_the_recorded_format():
    plan = explain(call({"title": "New"}, {"id": 1, "title": "Old", "updatedAt": "2026-11-29T08:00:00.000Z"},
                        {"id": 1, "title": "New", "updatedAt": iso(0.2)}))
    rule = field(plan, "updatedAt")
    assert (rule.rule_id, rule.op) == ("change.clock", "clock")
    assert rule.params["format"] == {"style": "iso", "separator": "T", "fraction_digits": 3, "zone": "Z",
                                     "as_string": True}
    assert plan.build_reason is None


def test_field_filled_in_on_update_follows_its_rule_when_the_view_had_shown_the_entity():
    before, after = {"id": 1, "title": "Old"}, {"id": 1, "title": "New", "editedAt": iso(0.1)}
    plan = explain(call({"title": "New"}, before, after))
    assert field(plan, "editedAt").rule_id == "change.clock"
    unseen = explain(call({"title": "New"}, before, after, observed_view_showed_entity=False))
    assert [r.field for r in unseen.fields] == ["title"]


def test_metabase_nested_clock_stored_within_two_seconds():
    before = {"id": 1, "name": "Old", "last-edit-info": {"id": 1, "email": "a@example.com",
                                                         "timestamp": "2026-11-30T09:00:00.000Z"}}
    after = {"id": 1, "name": "New", "last-edit-info": {"id": 1, "email": "a@example.com", "timestamp": iso(0.1)}}
    read = {**after, "last-edit-info": {**after["last-edit-info"], "timestamp": iso(1.5)}}
    others = [{"id": 7, "last-edit-info": {"id": 1, "email": "a@example.com", "timestamp": "2026-11-01T10:00:00.000Z"}}]
    plan = explain(call({"name": "New"}, before, after, later_read=read), method="PUT", type_entities=others)
    rule = field(plan, "last-edit-info")
    assert (rule.rule_id, rule.op, list(rule.params["clocks"])) == ("change.nested-clock", "nested-clock", ["/timestamp"])
    assert plan.build_reason is None

    too_far = {**after, "last-edit-info": {**after["last-edit-info"], "timestamp": iso(4)}}
    plan = explain(call({"name": "New"}, before, after, later_read=too_far), method="PUT", type_entities=others)
    assert plan.build_reason == "unexplained-change"
    assert [p.subject for p in plan.problems] == ["last-edit-info"]


def test_members_stored_in_a_group_are_accepted_and_written_by_the_groups_rule():
    """ZenML's entities keep what a call sends inside ``body``: the member is accepted (grouped
    echo) and the group's field takes the sent members and its clock (grouped-members); a later
    call sending another member of the group is explained by the same rule."""
    before = {"id": U1, "name": "n", "body": {"updated": "2026-11-29T08:00:00.000Z", "color": "red", "exclusive": False}}
    after = {**before, "body": {"updated": iso(0.2), "color": "purple", "exclusive": False}}
    others = [{"id": U2, "name": "m", "body": {"updated": "2026-11-28T08:00:00.000Z", "color": "blue", "exclusive": True}}]
    second_before = {**after, "id": U2, "name": "m", "body": {**others[0]["body"]}}
    second_after = {**second_before, "body": {**second_before["body"], "updated": iso(1.2),
                                              "exclusive": False}}
    third = {"id": U3, "name": "o", "body": {"updated": "2026-11-27T08:00:00.000Z", "color": "red", "exclusive": True}}
    plan = explain(call({"color": "purple"}, before, after),
                   call({"exclusive": False}, second_before, second_after, ordinal=12, seconds=1),
                   type_entities=others + [third])
    assert plan.build_reason is None, plan.problems
    rule = field(plan, "body")
    assert (rule.rule_id, rule.op, list(rule.params["clocks"])) == ("change.grouped-members", "grouped-members",
                                                                     ["/updated"])
    assert {m.member: m.admission for m in plan.members} == {"color": "accepted", "exclusive": "accepted"}

    same = explain(call({"color": "red"}, before, before), type_entities=others)  # nothing shows the group written
    assert {m.member: m.admission for m in same.members} == {"color": "not-accepted"}

    unsent = {**after, "body": {**after["body"], "exclusive": True}}  # a member the call did not send changed
    assert explain(call({"color": "purple"}, before, unsent), type_entities=others).build_reason == "unexplained-change"


def test_a_groups_clock_stamped_by_a_member_sent_into_another_group():
    """ZenML keeps a service account's description under ``metadata`` and its clocks under ``body``:
    an update sending only the description stamps ``body.updated`` (the group's rule, with nothing
    sent into it), and a later call sending ``active`` into ``body``, leaving ``metadata`` as it
    was, is explained by the same two rules; a call sending at the top only shows no group."""
    made = "2026-11-29T08:00:00.000Z"  # when each was made: the others hold another (no nested clock)
    before = {"id": U1, "name": "bot", "body": {"created": made, "updated": made, "active": True},
              "metadata": {"description": "Deploys", "external_user_id": None}}
    after = {**before, "body": {"created": made, "updated": iso(0.2), "active": True},
             "metadata": {"description": "Deploys to prod", "external_user_id": None}}
    etl_made = "2026-11-28T08:00:00.000Z"
    others = [{"id": U2, "name": "etl", "body": {"created": etl_made, "updated": etl_made, "active": True},
               "metadata": {"description": "ETL", "external_user_id": None}}]
    second_before = {**others[0]}
    second_after = {**second_before, "body": {"created": etl_made, "updated": iso(1.2), "active": False}}
    plan = explain(call({"description": "Deploys to prod"}, before, after),
                   call({"active": False}, second_before, second_after, ordinal=12, seconds=1),
                   type_entities=others + [after])
    assert plan.build_reason is None, plan.problems
    body, metadata = field(plan, "body"), field(plan, "metadata")
    assert (body.rule_id, body.op, list(body.params["clocks"])) == ("change.grouped-members", "grouped-members",
                                                                     ["/updated"])
    assert (metadata.rule_id, metadata.op) == ("change.grouped-members", "grouped-members")
    assert {m.member: m.admission for m in plan.members} == {"description": "accepted", "active": "accepted"}

    renamed = {**before, "name": "robot", "body": {"created": made, "updated": iso(0.2), "active": True}}  # at the top
    assert explain(call({"name": "robot"}, before, renamed), type_entities=others).build_reason == \
        "unexplained-change"


def test_increment_by_one_and_a_call_it_would_give_another_value():
    first = call({"title": "B"}, {"id": 1, "title": "A", "revision": 3}, {"id": 1, "title": "B", "revision": 4})
    plan = explain(first)
    assert (field(plan, "revision").op, field(plan, "revision").params) == ("increment", {"by": 1})
    assert plan.build_reason is None
    second = call({"title": "C"}, {"id": 1, "title": "B", "revision": 4}, {"id": 1, "title": "C", "revision": 6},
                  ordinal=12, seconds=1)
    plan = explain(first, second)
    assert plan.build_reason == "unexplained-change"
    assert checks(plan) == {"rule-gives-recorded-value"}


def test_slug_of_an_echoed_member_judged_before_a_token():
    before = {"id": 1, "title": "abcdefgh12345678", "slug": "abcdefgh12345678"}
    after = {"id": 1, "title": "Zyxwvuts 87654321", "slug": "zyxwvuts-87654321"}
    plan = explain(call({"title": "Zyxwvuts 87654321"}, before, after), type_entities=[{"id": 2, "slug": "other"}])
    rule = field(plan, "slug")
    assert (rule.rule_id, rule.params["member"]) == ("change.slug", "title")
    assert rule.params.get("taken_suffix") is None  # no recorded clash: a taken slug is refused, not suffixed
    # A later call renaming the title but keeping the slug is not what the rule gives.
    later = call({"title": "Third"}, after, {**after, "title": "Third"}, ordinal=12, seconds=1)
    plan = explain(call({"title": "Zyxwvuts 87654321"}, before, after), later)
    assert plan.build_reason == "unexplained-change"


def test_version_token_as_unique_and_a_call_that_kept_it():
    before = {"id": 1, "title": "A", "version": "a1B2c3D4e5F6g7H8"}
    after = {"id": 1, "title": "B", "version": "Z9y8X7w6V5u4T3s2"}
    others = [{"id": 2, "version": "q1W2e3R4t5Y6u7I8"}]
    plan = explain(call({"title": "B"}, before, after), type_entities=others)
    rule = field(plan, "version")
    assert (rule.rule_id, rule.op, rule.params["format"], rule.params["length"]) == \
           ("change.unique", "unique", "token", 16)
    kept = call({"title": "C"}, after, {**after, "title": "C"}, ordinal=12, seconds=1)
    plan = explain(call({"title": "B"}, before, after), kept, type_entities=others)
    assert checks(plan) == {"kept-unique-or-renewed"}


def test_modified_by_name_stamped_beside_created_by_name():
    before = {"id": 1, "title": "A", "createdByName": "Alice", "modifiedByName": "Bob"}
    after = {"id": 1, "title": "B", "createdByName": "Alice", "modifiedByName": "Alice", "modifiedById": 11,
             "createdById": 11}
    plan = explain(call({"title": "B"}, before, after))
    assert (field(plan, "modifiedByName").op, field(plan, "modifiedByName").params) == \
           ("stamp", {"from_field": "createdByName"})
    # modifiedById, which the entity lacked, names the same user as createdById beside it.
    assert field(plan, "modifiedById").params == {"from_field": "createdById"}
    # createdById is new too and nothing explains it.
    assert [p.subject for p in plan.problems] == ["createdById"]


def test_stamp_applies_on_every_call():
    before = {"id": 1, "title": "A", "createdByName": "Alice", "modifiedByName": "Bob"}
    after = {"id": 1, "title": "B", "createdByName": "Alice", "modifiedByName": "Alice"}
    other = call({"title": "C"}, after, {**after, "title": "C", "modifiedByName": "Carol"}, ordinal=12, seconds=1)
    plan = explain(call({"title": "B"}, before, after), other)
    assert plan.build_reason == "unexplained-change"
    assert checks(plan) == {"rule-gives-recorded-value"}


def test_ghost_plaintext_derived_from_html():
    before = {"id": "p1", "plaintext": "Old words here", "updated_at": whole_second(0)}
    after = {"id": "p1", "plaintext": "Hello brave new world", "updated_at": whole_second(0)}
    body = {"html": "<p>Hello <strong>brave</strong> new world</p>", "updated_at": whole_second(0)}
    plan = explain(call(body, before, after), method="PUT", path_id="p1")
    rule = field(plan, "plaintext")
    assert (rule.rule_id, rule.op) == ("change.derived", "derived")
    assert rule.params["member"] == "html" and rule.params["requires_from"] is True
    assert (rule.params["from_value"], rule.params["value"]) == ("Old words here", "Hello brave new world")
    html = member(plan, "html")
    assert (html.admission, html.recorded_value) == ("recorded-only", body["html"])
    assert (field(plan, "updated_at").op, member(plan, "updated_at").admission) == ("held-clock", "accepted")
    assert plan.build_reason is None


def test_child_row_uuids_renewed_and_a_call_that_kept_them():
    before = {"id": 1, "name": "A", "rows": [{"id": U1, "card": U5}, {"id": U2, "card": U5}]}
    after = {"id": 1, "name": "B", "rows": [{"id": U3, "card": U5}, {"id": U4, "card": U5}]}
    plan = explain(call({"name": "B"}, before, after), method="PUT")
    rule = field(plan, "rows")
    assert (rule.rule_id, rule.op, rule.params) == ("change.renewed", "renewed", {"pointers": ["/*/id"]})
    kept = call({"name": "C"}, after, {**after, "name": "C"}, ordinal=12, seconds=1)
    plan = explain(call({"name": "B"}, before, after), kept, method="PUT")
    assert checks(plan) == {"kept-unique-or-renewed"}
    renewed_again = call({"name": "C"}, after, {**after, "name": "C", "rows": [{"id": U6, "card": U5},
                                                                                 {"id": U1, "card": U5}]},
                         ordinal=12, seconds=1)
    assert explain(call({"name": "B"}, before, after), renewed_again, method="PUT").build_reason is None


def test_any_other_change_is_unexplained():
    plan = explain(call({"title": "B"}, {"id": 1, "title": "A", "score": 7}, {"id": 1, "title": "B", "score": 9}))
    assert plan.build_reason == "unexplained-change"
    assert [(p.check, p.subject) for p in plan.problems] == [("unexplained-change", "score")]
    assert any(e.subject == "score" and e.outcome == "default" for e in plan.events)


def test_a_stored_id_that_changed_is_unexplained():
    unsent = explain(call({"title": "B"}, {"id": 1, "title": "A"}, {"id": 2, "title": "B"}))
    assert [(p.check, p.subject) for p in unsent.problems] == [("unexplained-change", "id")]
    sent = explain(call({"id": 99}, {"id": 1}, {"id": 99}))
    assert [(p.check, p.subject) for p in sent.problems] == [("changed-identity", "id")]


def test_a_later_read_showing_a_field_dropped():
    before = {"id": 4, "name": "Dave", "email": "d@example.com", "role": "reader"}
    answered = {"id": 4, "name": "Dave D.", "email": "d@example.org"}
    read = dict(answered)
    plan = explain(call({"name": "Dave D.", "email": "d@example.org"}, before, answered, later_read=read),
                   method="PUT", path_id="4")
    assert [(p.check, p.subject) for p in plan.problems] == [("dropped-field", "role")]
    # The write's own response may leave fields out.
    kept = explain(call({"name": "Dave D.", "email": "d@example.org"}, before, answered), method="PUT", path_id="4")
    assert kept.build_reason is None


def test_a_later_call_changing_a_field_the_plan_keeps():
    first = call({"title": "B"}, {"id": 1, "title": "A", "score": 1}, {"id": 1, "title": "B", "score": 1})
    second = call({"title": "C"}, {"id": 1, "title": "B", "score": 1}, {"id": 1, "title": "C", "score": 5},
                  ordinal=12, seconds=1)
    plan = explain(first, second)
    assert [(p.check, p.subject, p.ordinal) for p in plan.problems] == [("unexplained-change", "score", 12)]


def test_a_field_only_a_later_observation_shows_takes_that_calls_rule():
    first = call({"title": "B"}, {"id": 1, "title": "A"}, {"id": 1, "title": "B"})
    second = call({"title": "C"}, {"id": 1, "title": "B", "touched": 1}, {"id": 1, "title": "C", "touched": 2},
                  ordinal=12, seconds=1)
    plan = explain(first, second)
    rule = field(plan, "touched")
    assert (rule.rule_id, rule.evidence["ordinal"]) == ("change.increment", 12)
    assert plan.build_reason is None


# --- item actions ---------------------------------------------------------------------------

def test_archived_true_is_a_set_rule_and_one_change_stays_unconfirmed():
    plan = explain(call({}, {"id": 1, "archived": False}, {"id": 1, "archived": True}), method="POST", is_action=True)
    rule = field(plan, "archived")
    assert (rule.rule_id, rule.op, rule.params) == ("change.set", "set", {"value": True})
    assert plan.min_members == 0 and plan.members == []
    assert plan.build_reason == "unconfirmed"  # a set and a toggle look alike
    assert "toggle" in plan.unconfirmed[0]


def test_an_action_confirmed_by_a_call_that_found_it_set():
    first = call({}, {"id": 1, "archived": False}, {"id": 1, "archived": True})
    again = call({}, {"id": 1, "archived": True}, {"id": 1, "archived": True}, ordinal=12, seconds=1)
    assert explain(first, again, method="POST", is_action=True).build_reason is None


def test_an_action_that_toggles_back_is_unexplained():
    first = call({}, {"id": 1, "archived": False}, {"id": 1, "archived": True})
    back = call({}, {"id": 1, "archived": True}, {"id": 1, "archived": False}, ordinal=12, seconds=1)
    plan = explain(first, back, method="POST", is_action=True)
    assert plan.build_reason == "unexplained-change"
    assert checks(plan) == {"treated-otherwise"}


def test_an_action_changing_an_object_or_instant_has_no_rule():
    plan = explain(call({}, {"id": 1, "meta": {"a": 1}}, {"id": 1, "meta": {"a": 2}}), method="POST", is_action=True)
    assert plan.build_reason == "unexplained-change"
    plan = explain(call({}, {"id": 1, "archived_at": None}, {"id": 1, "archived_at": "2026-01-01T00:00:00Z"}),
                   method="POST", is_action=True)
    assert plan.build_reason == "unexplained-change"


def test_an_action_setting_nothing_stays_unconfirmed():
    plan = explain(call({}, {"id": 1, "at": "2026-01-01T00:00:00Z"}, {"id": 1, "at": iso(0.1)}),
                   method="POST", is_action=True)
    assert field(plan, "at").op == "clock"
    assert plan.unconfirmed == ["the action sets nothing"]


def test_a_later_call_changing_an_echoed_field_without_sending_it():
    first = call({"title": "B"}, {"id": 1, "title": "A", "views": 1}, {"id": 1, "title": "B", "views": 1})
    second = call({"views": 2}, {"id": 1, "title": "B", "views": 1}, {"id": 1, "title": "Z", "views": 2},
                  ordinal=12, seconds=1)
    plan = explain(first, second)
    assert [(p.check, p.subject, p.ordinal) for p in plan.problems] == [("rule-gives-recorded-value", "title", 12)]
