"""A create or update is proven by the gate for the values its recorded calls sent. Where every
value sent in a member kept to a shape (no negative number, array elements of one JSON kind, arrays no
longer than a bound from the longest sent, text
shaped as an e-mail address), a value without it is refused with the state unchanged, saying what
is accepted: the application may refuse it (Prefect answers 422 to a negative limit and to tags
[1, 2], Strapi 400 to an e-mail address without @), which the capture cannot show. A class a
recorded call sent is served, and the tool's input schema says what it accepts."""

from __future__ import annotations

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json, sent_beside_the_state

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client
from capenv.serving.writes.calls import WriteRefusal
from capenv.serving.writes.sent_values import Accepting, check_unproven_values, compile_accepting, keeps_to

SEED = [{"id": 1, "name": "cpu", "limit": 4, "tags": ["hot"], "owner": "ada@example.org"}]


def limits_capture(*made: tuple[int, list, str]) -> HarBuilder:
    """Limits created by POST /limits with (limit, tags, owner), each read back and listed."""
    har = HarBuilder()
    held = [dict(e) for e in SEED]
    har.call("GET", "/limits", response=list(held))
    har.call("GET", "/limits/1", response=held[0])
    for index, (limit, tags, owner) in enumerate(made):
        entity = {"id": 2 + index, "name": f"limit-{index}", "limit": limit, "tags": tags, "owner": owner}
        held.append(entity)
        har.call("POST", "/limits", body={k: v for k, v in entity.items() if k != "id"}, status=201, response=entity)
        har.call("GET", f"/limits/{entity['id']}", response=entity)
        har.call("GET", "/limits", response=list(held))
    return har


@pytest.fixture(scope="module")
def shaped(tmp_path_factory):
    return build_from(limits_capture((3, ["a", "b"], "grace@example.org"), (10, ["c"], "alan@example.net")),
                      tmp_path_factory.mktemp("s") / "capture.har")


def create(bundle, body: dict) -> tuple[int, dict, bytes, bytes]:
    return sent_beside_the_state(bundle, "POST", "/limits", body)


def test_the_plan_names_the_shapes_every_call_kept_to(shaped) -> None:
    made = plan(shaped, "POST", "/limits")
    assert made.served, made.reason
    assert {(u.member, u.rule_id) for u in made.unproven_values} == {
        ("limit", "sent-values.non-negative"), ("limit", "sent-values.positive"), ("limit", "sent-values.int32"), ("tags", "sent-values.element-kinds"), ("tags", "sent-values.array-length"),
        ("tags", "sent-values.distinct-elements"),
        ("owner", "sent-values.email"), ("name", "sent-values.non-empty-text"), ("owner", "sent-values.non-empty-text"),
        ("name", "sent-values.name-not-an-id")}


def test_values_of_the_recorded_shapes_are_served(shaped) -> None:
    status, answer, _, after = create(shaped, {"name": "io", "limit": 1, "tags": ["x"], "owner": "kj@example.org"})
    assert status == 201 and answer["limit"] == 1 and answer["tags"] == ["x"], answer
    assert "kj@example.org" in str(after)


def test_an_array_somewhat_longer_than_those_sent_is_served(shaped) -> None:
    # the recorded tags held at most 2 elements; up to max(2 x 2, 5) are served, more is refused
    status, answer, _, _ = create(shaped, {"name": "io", "limit": 1, "tags": list("abcde"), "owner": "kj@example.org"})
    assert status == 201 and answer["tags"] == list("abcde"), answer


@pytest.mark.parametrize("member, value, said", [
    ("limit", -1, "a number of zero or more"), ("tags", [1, 2], "array elements that are strings"),
    # must not: 201 storing limit 0 where every recorded limit was 1 or more (pretalx answers 400 to capacity 0)
    ("limit", 0, "a number of 1 or more"),
    # must not: 201 storing min_ram 2**40 where every recorded integer fit 32 bits (Glance answers 400)
    ("limit", 2**40, "an integer of at most 2147483647"),
    ("tags", ["x", None], "array elements that are strings"), ("owner", "not-an-email", "an e-mail address"),
    ("tags", list("abcdef"), "an array of at most 5 elements"),
    # must not: 201 answering tags ["x", "y", "x"] where a set of tags stores ["x", "y"] (Glance)
    ("tags", ["x", "y", "x"], "an array without repeated elements"),
])
def test_a_value_without_the_shape_is_refused_with_the_state_unchanged(shaped, member, value, said) -> None:
    body = {"name": "io", "limit": 2, "tags": ["x"], "owner": "kj@example.org", member: value}
    status, answer, before, after = create(shaped, body)
    assert status == 400, answer
    assert f"'{member}'" in answer["message"] and said in answer["message"] and "accepted" in answer["message"]
    assert after == before


def test_a_class_a_recorded_call_sent_is_served(tmp_path) -> None:
    bundle = build_from(limits_capture((-1, ["a", -2], "Ada")), tmp_path / "capture.har")
    # strings and integers were sent; the array's length keeps its own bound
    tags, length = [u for u in plan(bundle, "POST", "/limits").unproven_values
                    if u.rule_id in ("sent-values.element-kinds", "sent-values.array-length")]
    assert tags.member == "tags" and tags.schema_keywords == {"items": {"type": ["integer", "string"]}}
    assert length.member == "tags" and length.schema_keywords == {"maxItems": 5}
    status, answer, _, _ = create(bundle, {"name": "io", "limit": -5, "tags": [-3, "z"], "owner": "nobody"})
    assert status == 201 and answer["limit"] == -5, answer


def test_the_tool_input_schema_says_and_enforces_it(shaped) -> None:
    runtime = EnvironmentRuntime(shaped)
    try:
        name = plan(shaped, "POST", "/limits").tool
        tool = next(t for t in runtime.tools() if t.name == name)
        limit = tool.input_schema["properties"]["body"]["properties"]["limit"]
        assert limit["minimum"] == 0 and "a number of zero or more" in limit["description"]
        with http_in_thread(runtime) as serving:
            result = anyio.run(call_tool, serving, runtime, name,
                               {"body": {"name": "io", "limit": -1, "tags": ["x"], "owner": "kj@example.org"}})
        assert result.is_error
    finally:
        runtime.close()


def priced_capture() -> HarBuilder:
    """Fees created with prices written as decimal text with two places, each read back and listed."""
    har = HarBuilder()
    held = [{"id": 1, "name": "entry", "price": "12.00"}]
    har.call("GET", "/fees", response=list(held))
    har.call("GET", "/fees/1", response=held[0])
    for index, price in enumerate(("7.50", "19.99")):
        entity = {"id": 2 + index, "name": f"fee-{index}", "price": price}
        held.append(entity)
        har.call("POST", "/fees", body={"name": entity["name"], "price": price}, status=201, response=entity)
        har.call("GET", f"/fees/{entity['id']}", response=entity)
        har.call("GET", "/fees", response=list(held))
    return har


@pytest.mark.parametrize("price, served", [("15.25", True), ("abc", False), ("-1.00", False), ("15", False),
                                           ("7.125", False)])
def test_decimal_text_is_served_only_as_every_call_wrote_it(tmp_path, price, served) -> None:
    # must not: 201 storing "abc" (a DecimalField answers 400) or "15" (it answers "15.00")
    bundle = build_from(priced_capture(), tmp_path / "capture.har")
    assert {u.rule_id for u in plan(bundle, "POST", "/fees").unproven_values} == {
        "sent-values.decimal-text", "sent-values.decimal-two-places", "sent-values.non-empty-text",
        "sent-values.name-not-an-id"}
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send_json(serving, "/fees", {"name": "late", "price": price})
            after = data_client.data_get(serving.base_url, token=serving.data_token)
    finally:
        runtime.close()
    if served:
        assert status == 201 and answer["price"] == price, answer
    else:
        assert status == 400 and "'price'" in answer["message"] and "decimal" in answer["message"], answer
        assert after == before


@pytest.mark.parametrize(("value", "kept"), [
    (JsonNumber("123456789012345678901234567890"), True), (JsonNumber("-123456789012345678901234567890"), False),
    (JsonNumber("2.5"), True), (JsonNumber("-2.5"), False), ([7, JsonNumber("99999999999999999999999")], True),
    ([7, -1], False), (3, True), (-3, False), ("3", False), (None, False)])
def test_a_value_is_judged_as_plain_json_whatever_its_size(value, kept: bool) -> None:
    """An exact number (past 64 bits, or a fraction) is judged by its value, alone or inside an array."""
    keywords = {"anyOf": [{"type": "number", "minimum": 0},
                          {"type": "array", "items": {"type": "number", "minimum": 0}}]}
    assert keeps_to(keywords, value) is kept


@pytest.mark.parametrize("member, value", [
    ("limit", 0), ("limit", 7), ("limit", -1), ("limit", JsonNumber("2.5")), ("limit", JsonNumber("-0.5")),
    ("limit", "3"), ("tags", []), ("tags", ["x", "y"]), ("tags", [1]), ("tags", ["x", None]), ("tags", list("abcdef")),
    ("tags", {"a": 1}), ("owner", "kj@example.org"), ("owner", "kj@example"), ("owner", 5), ("name", "no check"),
])
def test_the_compiled_checks_refuse_exactly_what_the_validator_refuses(shaped, member, value) -> None:
    """A plan's unproven values compiled once (``compile_accepting``, what served writes run) let
    through and refuse the same values, in the same words, as the validator alone."""
    made = plan(shaped, "POST", "/limits")
    accepting = compile_accepting(made)
    assert all(check is not None for _, _, check in accepting)  # each compiles: the fast path is taken
    body = {"name": "io", "limit": 2, "tags": ["x"], "owner": "kj@example.org", member: value}

    def refusal(compiled: Accepting | None) -> str | None:
        try:
            check_unproven_values(made, body, compiled)
        except WriteRefusal as refused:
            return str(refused)
        return None

    assert refusal(accepting) == refusal(None)
