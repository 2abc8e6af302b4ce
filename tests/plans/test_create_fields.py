"""``explain_create``: each field rule on small hand-made creates, the op params each one learns,
and the contract: every FieldRule's params validate against ``OP_PARAMS[op]``."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.interpreter.bundle.op_params import OP_PARAMS, ClockFormat
from capenv.interpreter.plans.create_fields import explain_create
from capenv.interpreter.plans.create_inputs import CreateInputs
from capenv.interpreter.rules_engine import load_rules

START = datetime(2026, 11, 30, 13, 0, 6, 962746, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def explain(ruleset, observed: dict[str, Any], body: dict[str, Any] | None = None, **more: Any):
    inputs = CreateInputs(type_name=more.pop("type_name", "items"), id_field=more.pop("id_field", "id"),
                          observed=observed, body=body or {}, started_at=more.pop("started_at", START), **more)
    return explain_create(ruleset, inputs)


def rules_of(explanation) -> dict[str, str]:
    return {f.field: f.rule_id for f in explanation.fields}


def field(explanation, name: str):
    return next(f for f in explanation.fields if f.field == name)


def test_every_field_rule_validates_against_its_op_contract(ruleset):
    explanation = explain(
        ruleset,
        {"id": 4, "title": "First draft", "name": "Quarterly report", "board": "my board", "slug": "first-draft",
         "created_at": "2026-11-30T13:00:07.123Z", "number": "000-005", "url": "https://x.test/items/4",
         "views": 0},
        {"title": "First draft", "meta": {"name": "Quarterly report"}},
        path_args={"board": "my%20board"},
        type_entities=[{"id": 3, "number": "000-004"}], collection_entities=[{"id": 3, "number": "000-004"}])
    assert rules_of(explanation) == {
        "id": "field.identity", "title": "field.echo", "name": "field.copy", "board": "field.path",
        "slug": "field.slug", "created_at": "field.clock", "number": "field.sequence", "url": "field.template",
        "views": "field.constant"}
    for rule in explanation.fields:
        OP_PARAMS[rule.op].model_validate(rule.params)
        assert loads(dumps(rule.model_dump())) is not None  # the plan's JSON writes and reads back


def test_fields_keep_the_entity_order_and_trace_every_rule_tried(ruleset):
    explanation = explain(ruleset, {"b": 1, "a": "x", "id": 2}, {"a": "x"}, type_entities=[{"id": 1}])
    assert [f.field for f in explanation.fields] == ["b", "a", "id"]
    subjects = [(e.subject, e.rule_id, e.outcome) for e in explanation.events if e.table == "create-fields"]
    assert ("items.b", "field.echo", "miss") in subjects
    assert ("items.b", "field.constant", "match") in subjects
    assert all(e.location.startswith("rules/create-fields.yaml:") for e in explanation.events
               if e.table == "create-fields")


def test_an_identity_the_client_sends_is_an_echo(ruleset):
    explanation = explain(ruleset, {"id": "my-key", "title": "t"}, {"id": "my-key", "title": "t"})
    assert field(explanation, "id").rule_id == "field.echo"
    assert field(explanation, "id").params == {"member": "id"}


@pytest.mark.parametrize("value, expected", [
    (4, {"format": "sequence", "as_string": False}),
    ("12", {"format": "sequence", "as_string": True}),
    ("0b9f2a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b", {"format": "uuid"}),
    ("cl9x-2ab7q", {"format": "token", "length": 10, "classes": "a9", "separators": {"4": "-"}}),
])
def test_identity_learns_sequence_uuid_or_token(ruleset, value, expected):
    rule = field(explain(ruleset, {"id": value}), "id")
    assert rule.rule_id == "field.identity"
    assert {k: rule.params[k] for k in expected} == expected


def test_a_token_with_separators_writes_as_json_in_its_rule_and_its_trace(ruleset):
    """The separator positions a token learns land in the rule and in the decision trace, both
    written into the bundle as JSON (a base64 key's '+', '/' and '=' once crashed the build)."""
    explanation = explain(ruleset, {"id": "Wu+XO/MB==", "name": "k"}, {"name": "k"})
    rule = field(explanation, "id")
    assert rule.rule_id == "field.identity" and rule.params["separators"] == {"2": "+", "5": "/", "8": "=", "9": "="}
    assert loads(dumps(rule.model_dump())) is not None
    assert loads(dumps([event.model_dump() for event in explanation.events])) is not None


def test_identity_sequence_scope_follows_the_largest_value(ruleset):
    nested = explain(ruleset, {"id": 10}, type_entities=[{"id": 9}, {"id": 2}], collection_entities=[{"id": 2}])
    assert field(nested, "id").params["scope"] == "type"
    assert field(nested, "id").evidence["largest_before"] == 9


def test_token_alphabet_characters_are_not_separators(ruleset):
    rule = field(explain(ruleset, {"id": "V1St_GXR8"}, type_entities=[{"id": "a_b9Xy7-Q"}]), "id")
    assert rule.params["separators"] == {} and rule.params["classes"] == "aA9_"


def test_token_alphabet_takes_the_classes_the_types_other_tokens_show(ruleset):
    """A random token may lack a class by chance (no digit in PGBqSKzfKo): the type's other ids of
    its length that look random (2 classes or more) show the generator's alphabet, so a later
    create's id with digits is of the form serving gives."""
    siblings = [{"id": "Zt5pL1wRgB"}, {"id": "e3YuN6sHjC"}]
    assert field(explain(ruleset, {"id": "PGBqSKzfKo"}, type_entities=siblings), "id").params["classes"] == "aA9"
    assert field(explain(ruleset, {"id": "PGBqSKzfKo"}), "id").params["classes"] == "aA"


@pytest.mark.parametrize("sibling", ["PRODUCTION", "Zt5pL1wRgBx", "zt5pl-wrgb"])
def test_token_alphabet_ignores_words_other_lengths_and_other_separators(ruleset, sibling):
    rule = field(explain(ruleset, {"id": "pgbqskzfko"}, type_entities=[{"id": sibling}, {"id": "abcdefghij"}]), "id")
    assert rule.params["classes"] == "a"


@pytest.mark.parametrize("value, fmt", [
    ("2026-11-30T13:00:07.123Z", ClockFormat(style="iso", fraction_digits=3, zone="Z")),
    ("2026-11-30 13:00:07", ClockFormat(style="iso", separator=" ", zone="")),
    ("2026-11-30T14:00:07.123456+01:00", ClockFormat(style="iso", fraction_digits=6, zone="+01:00")),
    (1796043607, ClockFormat(style="epoch-seconds", as_string=False)),
    ("1796043607123", ClockFormat(style="epoch-milliseconds", as_string=True)),
])
def test_clock_keeps_the_recorded_format(ruleset, value, fmt):
    rule = field(explain(ruleset, {"created": value}), "created")
    assert rule.rule_id == "field.clock"
    assert ClockFormat.model_validate(rule.params["format"]) == fmt


def test_clock_outside_ten_minutes_is_a_constant(ruleset):
    rule = field(explain(ruleset, {"created": "2026-11-30T12:40:00Z"}), "created")
    assert rule.rule_id == "field.constant"


def test_nested_clock_takes_the_write_clock_at_its_clocks_only(ruleset):
    observed = {"id": 2, "audit": {"by": "alice", "at": "2026-11-30T13:00:06Z", "seen": "2026-11-30T13:00:08Z"}}
    others = [{"id": 1, "audit": {"by": "alice", "at": "2026-10-01T10:00:00Z", "seen": "2026-10-01T10:00:02Z"}}]
    rule = field(explain(ruleset, observed, type_entities=others), "audit")
    assert rule.rule_id == "field.nested-clock"
    assert set(rule.params["clocks"]) == {"/at", "/seen"}


def test_embedded_reference_is_not_a_nested_clock(ruleset):
    observed = {"id": 2, "owner": {"id": 7, "name": "bob", "created_at": "2026-11-30T13:00:06Z"}}
    others = [{"id": 1, "owner": {"id": 3, "name": "eve", "created_at": "2026-11-30T13:00:06Z"}}]
    rule = field(explain(ruleset, observed, type_entities=others), "owner")
    assert rule.rule_id == "field.constant"


def test_grouped_asset_number_is_a_sequence(ruleset):
    others = [{"id": n, "asset": f"000-00{n}"} for n in range(1, 5)]
    rule = field(explain(ruleset, {"id": 5, "asset": "000-005"}, type_entities=others,
                         collection_entities=others), "asset")
    assert rule.rule_id == "field.sequence"
    assert rule.params == {"scope": "collection", "groups": [3, 3], "as_string": True}


def test_a_date_is_not_a_grouped_sequence(ruleset):
    # dates away from the call's own day (START): a date on it is the day of the call, no constant
    # (field.constant unless create_field_is_start_day), which the next test holds
    rule = field(explain(ruleset, {"id": 2, "day": "2026-10-30"}, type_entities=[{"id": 1, "day": "2026-10-29"}]),
                 "day")
    assert rule.rule_id == "field.constant"


def test_a_date_on_the_calls_own_day_is_no_constant(ruleset):
    explanation = explain(ruleset, {"id": 2, "day": "2026-11-30"}, type_entities=[{"id": 1, "day": "2026-11-29"}])
    assert "day" not in {f.field for f in explanation.fields}  # no rule explains it: the create is not served
    assert explanation.build_reason == "unexplained-change"


def test_unique_uuid_and_token(ruleset):
    others = [{"id": 1, "uuid": "1b4e28ba-2fa1-41d2-883f-0016d3cca427", "key": "Zp0aQ9mX2kL7sD3fG8hJ"}]
    explanation = explain(ruleset, {"id": 2, "uuid": "9C5B94B1-35AD-49BB-B118-8E8FC24ABF80",
                                    "key": "k3Jd9s0aQ1mZx7Lp2Vb8"}, type_entities=others)
    assert field(explanation, "uuid").params == {"format": "uuid", "length": None, "classes": None,
                                                 "separators": {}, "uppercase": True}
    key = field(explanation, "key")
    assert key.rule_id == "field.unique"
    assert (key.params["format"], key.params["length"], key.params["classes"]) == ("token", 20, "aA9")


def test_url_ending_in_the_new_id_is_a_template(ruleset):
    explanation = explain(ruleset, {"id": 7, "url": "https://example.com/items/7"}, type_entities=[{"id": 6}])
    rule = field(explanation, "url")
    assert rule.rule_id == "field.template"
    assert rule.params == {"parts": ["https://example.com/items/", {"field": "id"}]}
    assert explanation.tied_to_collection is False


def test_template_around_a_slug_field_and_the_id(ruleset):
    explanation = explain(ruleset, {"id": 7, "slug": "hello-world", "url": "/7/hello-world/"},
                          {"title": "Hello World"}, type_entities=[{"id": 6}])
    assert field(explanation, "url").params == {"parts": ["/", {"field": "id"}, "/", {"field": "slug"}, "/"]}


def test_template_around_a_value_sent_under_another_name(ruleset):
    explanation = explain(ruleset, {"id": 7, "url": "/blog/my-post/"}, {"handle": "my-post"},
                          type_entities=[{"id": 6}])
    assert field(explanation, "url").params == {"parts": ["/blog/", {"member": "handle"}, "/"]}


def test_path_value_kept_in_a_constant_or_template_ties_the_create(ruleset):
    explanation = explain(ruleset, {"id": 7, "url": "/boards/b1/cards/7", "label": "card"},
                          path_args={"board": "b1"}, type_entities=[{"id": 6}])
    assert explanation.tied_to_collection and explanation.tied_by == ["url"]
    decoded = explain(ruleset, {"id": 7, "where": "in my board"}, path_args={"board": "my%20board"})
    assert decoded.tied_by == ["where"]  # the decoded spelling counts too
    inside_a_word = explain(ruleset, {"id": 7, "where": "all my boards"}, path_args={"board": "my%20board"})
    assert inside_a_word.tied_to_collection is False  # not a delimited token


def test_path_field_is_percent_decoded(ruleset):
    rule = field(explain(ruleset, {"id": 1, "board": "my board"}, path_args={"board": "my%20board"}), "board")
    assert (rule.rule_id, rule.params) == ("field.path", {"param": "board"})


def test_identity_no_rule_explains_is_a_build_reason(ruleset):
    explanation = explain(ruleset, {"id": True, "title": "x"}, {"title": "x"})
    assert explanation.build_reason == "unexplained-change"
    assert [f.field for f in explanation.fields] == ["title"]
    assert any(e.outcome == "default" and e.subject == "items.id" for e in explanation.events)


@pytest.mark.parametrize("identity, body", [
    ("xfer-key.", {"name": "xfer-key", "algorithm": "hmac-sha256"}),   # a name plus a final dot
    ("boards/7/tasks", {"kind": "tasks", "board": "boards/7"}),          # a composite of sent values
])
def test_an_identity_holding_an_echoed_value_is_no_generated_token(ruleset, identity, body):
    """The call made that id: a fresh token in its place would answer an id the application never
    gives (a TSIG key named probe-key answered as kmau-ech.), so no rule explains it."""
    explanation = explain(ruleset, {"id": identity, **body}, body)
    assert explanation.build_reason == "unexplained-change"
    assert "id" not in [f.field for f in explanation.fields]


def test_a_generated_secret_is_no_constant(ruleset):
    """A random key the application made for the new entity, beside other entities' other keys: a
    constant would hand every later create this one's key (a TSIG key's base64 secret)."""
    secret = "sfXFznWTmFWDjTGjP79mtpvgfN1KspicaT4s2neS8D48PjvTC+ndYK/jLrgnFN8/I1fNX28tyR1K0K7zFqNbOw=="
    others = [{"id": 1, "name": "seed", "key": "c2VlZC1rZXktc2VjcmV0LW5vdC1hLXNlY3JldA=="}]
    explanation = explain(ruleset, {"id": 2, "name": "new", "key": secret}, {"name": "new"},
                          type_entities=others, collection_entities=others)
    assert explanation.build_reason == "unexplained-change"
    assert "key" not in [f.field for f in explanation.fields]
    sent = explain(ruleset, {"id": 2, "name": "new", "key": secret}, {"name": "new", "key": secret},
                   type_entities=others, collection_entities=others)
    assert sent.build_reason is None and field(sent, "key").rule_id == "field.echo"


def test_an_amount_holding_the_new_ids_digits_is_no_template(ruleset):
    """pretix answered item 5 with tax_rate "5.00" (its tax rule's rate): rebuilt around the id, the
    next item (id 6) would have been answered "6.00"; a number written as a string is no template."""
    explanation = explain(ruleset, {"id": 5, "tax_rate": "5.00", "url": "/items/5/"}, {"name": "seat"},
                          type_entities=[{"id": 4, "tax_rate": "19.00", "url": "/items/4/"}])
    assert field(explanation, "tax_rate").rule_id == "field.constant"
    assert field(explanation, "url").rule_id == "field.template"  # a path still rebuilds around the id


def test_an_object_repeating_the_sent_strings_is_no_constant(ruleset):
    """FlexGet's entry create stores the body again under ``entry`` with an original_title it
    adds: a constant would answer the exemplar's title and URL for every create."""
    body = {"title": "Night.Sky.2022.1080p", "original_url": "http://127.0.0.1:9/night-sky"}
    observed = {"id": 5, "title": body["title"], "original_url": body["original_url"],
                "entry": {"original_title": body["title"], **body}}
    explanation = explain(ruleset, observed, body, type_entities=[{"id": 4}])
    assert "entry" not in rules_of(explanation) or rules_of(explanation)["entry"] is None
    one = explain(ruleset, {**observed, "entry": {"title": body["title"], "kind": "film"}}, body,
                  type_entities=[{"id": 4}])
    assert rules_of(one)["entry"] == "field.constant"


def test_an_http_date_clock_keeps_its_format(ruleset):
    rule = field(explain(ruleset, {"id": 1, "added_on": "Mon, 30 Nov 2026 13:00:07 GMT"}), "added_on")
    assert rule.rule_id == "field.clock" and rule.params["format"]["style"] == "http-date"


def test_members_sent_into_a_group_are_accepted_and_the_group_rebuilt(ruleset):
    """ZenML keeps a tag's color under body beside clocks and kept members: the group is built from
    the exemplar's object, the sent color and the write's clock, and color is accepted."""
    started = "2026-11-30T13:00:07.114518"
    observed = {"id": "0b9f2a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "name": "nightly",
                "body": {"created": started, "updated": started, "user_id": "u1", "color": "purple", "exclusive": False}}
    others = [{"id": "1b4e28ba-2fa1-41d2-883f-0016d3cca427", "name": "old",
               "body": {"created": "2026-11-01T10:00:00.000001", "updated": "2026-11-01T10:00:00.000001",
                        "user_id": "u1", "color": "red", "exclusive": True}}]
    explanation = explain(ruleset, observed, {"name": "nightly", "color": "purple"}, type_entities=others)
    rule = field(explanation, "body")
    assert (rule.rule_id, rule.op) == ("field.grouped-members", "grouped-members")
    assert (sorted(rule.params["clocks"]), rule.params["members"]) == (["/created", "/updated"], ["color"])
    assert {m.member: m.admission for m in explanation.members} == {"name": "accepted", "color": "accepted"}
    OP_PARAMS[rule.op].model_validate(rule.params)


def test_a_group_holding_a_sent_member_is_no_nested_clock_though_the_others_hold_it_alike(ruleset):
    """ZenML's service accounts all hold ``body.active`` true: the group holding the sent ``active``
    beside its clocks agrees with the others in every other member, as a nested clock would, yet
    the call wrote it, so it is built from what the call sends (grouped-members is judged first)
    and ``active`` is accepted rather than kept as the exemplar's."""
    started = "2026-11-30T13:00:07.267427"
    observed = {"id": "0b9f2a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "name": "deploy",
                "body": {"created": started, "updated": started, "full_name": "", "active": True}}
    others = [{"id": "1b4e28ba-2fa1-41d2-883f-0016d3cca427", "name": "etl",
               "body": {"created": "2026-11-01T10:00:00.000001", "updated": "2026-11-01T10:00:00.000002",
                        "full_name": "", "active": True}}]
    explanation = explain(ruleset, observed, {"name": "deploy", "active": True}, type_entities=others)
    rule = field(explanation, "body")
    assert (rule.rule_id, rule.params["members"]) == ("field.grouped-members", ["active"])
    assert {m.member: m.admission for m in explanation.members} == {"name": "accepted", "active": "accepted"}


def test_a_member_stored_otherwise_under_its_own_name_is_no_template_of_itself(ruleset):
    """A time sent as 16:00 and stored as 16:00:00 is transformed: rebuilt around what a call sends,
    16:00:00 would be stored as 16:00:00:00 and 8:15 as 8:15:00 (the application pads it: 08:15:00)."""
    explanation = explain(ruleset, {"id": 3, "name": "Snack", "time": "16:00:00"}, {"name": "Snack", "time": "16:00"})
    assert rules_of(explanation)["time"] != "field.template", explanation
    # the same text under another member's name is a copy the template rebuilds
    explanation = explain(ruleset, {"id": 3, "name": "Snack", "starts": "16:00:00"}, {"name": "Snack", "at": "16:00"})
    assert rules_of(explanation)["starts"] == "field.template", explanation
