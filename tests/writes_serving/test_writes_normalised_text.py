"""Text an application stores otherwise than sent, where every recorded call kept to one spelling:
a translation sent empty ({"en": ""}: pretix drops it from its i18n fields), a code sent in lower
case (pretix stores a voucher code upper-cased), a date and time sent with an offset (pretix stores
it converted to UTC, written with Z). Echoing any of them answers otherwise than the application,
a wrong answer; the capture shows only the recorded spelling, so the update refuses the others with
the state unchanged, saying what it accepts, and serves values spelled as recorded
(``write-sent-values``: sent-values.non-empty-text, sent-values.upper-case, sent-values.date-time-utc)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state


SEED = [{"id": 1, "code": "SPRING", "location": {"en": "Berlin"}, "ends": "2027-06-11T18:00:00Z"},
        {"id": 2, "code": "AUTUMN", "location": {"en": "Bonn"}, "ends": "2027-10-02T18:00:00Z"}]
CHANGES = [{"code": "SPRING26", "location": {"en": "Dresden"}}, {"ends": "2027-10-03T18:00:00Z"},
           {"code": "FALL-2", "location": {"en": "Leipzig"}, "ends": "2027-10-04T09:30:00Z"}]


def events_capture() -> HarBuilder:
    """Events changed by PATCH /events/{id}, each change read back and listed."""
    har = HarBuilder()
    held = {e["id"]: dict(e) for e in SEED}
    har.call("GET", "/events", response=list(held.values()))
    for event in SEED:
        har.call("GET", f"/events/{event['id']}", response=event)
    for index, change in enumerate(CHANGES):
        event_id = 1 + index % 2
        held[event_id] = {**held[event_id], **change}
        har.call("PATCH", f"/events/{event_id}", body=change, response=held[event_id])
        har.call("GET", f"/events/{event_id}", response=held[event_id])
        har.call("GET", "/events", response=list(held.values()))
    return har


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    return build_from(events_capture(), tmp_path_factory.mktemp("e") / "capture.har")


def change(bundle, body: dict) -> tuple[int, dict, bytes, bytes]:
    return sent_beside_the_state(bundle, "PATCH", "/events/1", body)


def test_the_plan_names_the_spellings_every_call_kept_to(events) -> None:
    update = plan(events, "PATCH", "/events/{event_id}")
    assert update.served, update.reason
    named = {(u.member, u.rule_id) for u in update.unproven_values}
    assert {("location", "sent-values.non-empty-text"), ("code", "sent-values.upper-case"),
            ("ends", "sent-values.date-time-utc")} <= named


@pytest.mark.parametrize("body, said", [
    ({"location": {"en": ""}}, "non-empty text"),
    ({"code": "spring27"}, "a code without lower-case letters"),
    ({"code": ""}, "a code without lower-case letters"),
    ({"ends": "2027-06-11T20:00:00+02:00"}, "in UTC written with Z"),
])
def test_another_spelling_is_refused_with_the_state_unchanged(events, body, said) -> None:
    status, answer, before, after = change(events, body)
    assert status == 400, answer
    member = next(iter(body))
    assert f"'{member}'" in answer["message"] and said in answer["message"] and "accepted" in answer["message"]
    assert after == before


@pytest.mark.parametrize("body", [
    {"location": {"en": "Zürich — 東京"}}, {"code": "SUMMER-27"}, {"ends": "2028-01-01T00:00:00Z"},
])
def test_the_recorded_spelling_is_served(events, body) -> None:
    status, answer, _, after = change(events, body)
    assert status == 200, answer
    member, value = next(iter(body.items()))
    assert answer[member] == value, answer


def test_a_date_time_is_no_code(events) -> None:
    """``ends`` was sent twice as text without lower-case letters (2027-10-03T18:00:00Z): a date
    and time, not a code, so sent-values.upper-case leaves it alone (date-time-utc judges it)."""
    update = plan(events, "PATCH", "/events/{event_id}")
    assert ("ends", "sent-values.upper-case") not in {(u.member, u.rule_id) for u in update.unproven_values}


AUTHORS = [{"id": 1, "name": "Lem", "country": "PL", "vars": [{"name": "SITE", "value": "a"}]},
           {"id": 2, "name": "Calvino", "country": "IT", "vars": [{"name": "ZONE", "value": "b"}]}]
AUTHOR_CHANGES = [{"country": "RU", "vars": [{"name": "HOME", "value": "c"}]},
                  {"country": "FR", "vars": [{"name": "PATH", "value": "d"}]}]
CREATED = {"id": 3, "name": "Mrozek", "country": "Poland", "vars": []}


def test_codes_the_entities_hold_in_lower_case_or_names_are_left_alone(tmp_path) -> None:
    """Countries sent as codes (RU, FR) by the update, while a create stores 'Poland' there, and
    environment variable names nested in ``vars``: the application keeps lower-case text in both,
    so neither is refused for it (a stricter refusal would only serve less)."""
    har = HarBuilder()
    held = {a["id"]: dict(a) for a in AUTHORS}
    har.call("GET", "/authors", response=list(held.values()))
    for author in AUTHORS:
        har.call("GET", f"/authors/{author['id']}", response=author)
    for index, change_ in enumerate(AUTHOR_CHANGES):
        author_id = 1 + index % 2
        held[author_id] = {**held[author_id], **change_}
        har.call("PATCH", f"/authors/{author_id}", body=change_, response=held[author_id])
        har.call("GET", f"/authors/{author_id}", response=held[author_id])
    har.call("POST", "/authors", body={k: v for k, v in CREATED.items() if k != "id"}, status=201, response=CREATED)
    har.call("GET", "/authors/3", response=CREATED)
    bundle = build_from(har, tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/authors/{author_id}")
    assert not [u for u in update.unproven_values if u.rule_id == "sent-values.upper-case"], update.unproven_values
