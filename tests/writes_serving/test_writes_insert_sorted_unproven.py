"""A collection listed by its identity that another member sorts alike
(``insert.id-descending-member-unproven``, ``InsertRule.unproven_anywhere``): entries named m and d are listed by name descending and by their codes
q.* and * descending as well, and a create named n with the code r.* keeps both orders. The capture
cannot tell which one the application keeps, and a next create named a with the code b.* goes last
by its name but before d by its code: serving places it by the identity (last) and refuses the
collection's list once a served create placed one beside another, saying why; item reads still answer, and a
reset brings the list back. Where no other member sorts the listings, the identity order is proven
and the list is answered.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def capture(codes: dict[str, str]) -> HarBuilder:
    held = [{"name": "m", "code": codes["m"]}, {"name": "d", "code": codes["d"]}]
    har = HarBuilder().call("GET", "/entries", response=held)
    for entry in held:
        har.call("GET", f"/entries/{entry['name']}", response=entry)
    made = {"name": "n", "code": codes["n"]}
    har.call("POST", "/entries", body=made, status=201, response=made)
    har.call("GET", "/entries/n", response=made)
    return har.call("GET", "/entries", response=[made, *held])


@pytest.fixture(scope="module")
def ambiguous(tmp_path_factory):
    return build_from(capture({"m": "q.*", "n": "r.*", "d": "*"}), tmp_path_factory.mktemp("ambiguous") / "capture.har")


@pytest.fixture(scope="module")
def proven(tmp_path_factory):
    return build_from(capture({"m": "q.*", "n": "*", "d": "n.*"}), tmp_path_factory.mktemp("proven") / "capture.har")


def test_another_member_sorting_every_listing_leaves_the_place_unproven(ambiguous) -> None:
    made = plan(ambiguous, "post_entries")
    assert made.served, made.reason
    assert made.insert is not None
    assert (made.insert.kind, made.insert.field, made.insert.descending, made.insert.unproven) == \
        ("sorted", "name", True, True)
    assert made.insert.rule_id == "insert.id-descending-member-unproven" and made.insert.unproven_anywhere
    runtime = EnvironmentRuntime(ambiguous)
    try:
        assert not runtime.call_tool("get_entries", {}).is_error  # as recorded: answered
        answer = runtime.call_tool("post_entries", {"body": {"name": "a", "code": "b.*"}})
        assert not answer.is_error, answer.structured
        refused = runtime.call_tool("get_entries", {})
        assert refused.is_error and "a served create or update placed" in refused.structured["message"]
        item = runtime.call_tool("get_entries_by_entry_id", {"entry_id": "a"})
        assert not item.is_error and item.structured["body"]["code"] == "b.*"
        runtime.data_reset()
        assert not runtime.call_tool("get_entries", {}).is_error
    finally:
        runtime.close()


def test_a_listing_no_other_member_sorts_is_placed_by_the_identity(proven) -> None:
    made = plan(proven, "post_entries")
    assert made.served, made.reason
    assert made.insert is not None
    assert (made.insert.kind, made.insert.field, made.insert.descending, made.insert.unproven) == \
        ("sorted", "name", True, False)
    runtime = EnvironmentRuntime(proven)
    try:
        assert not runtime.call_tool("post_entries", {"body": {"name": "a", "code": "b.*"}}).is_error
        answer = runtime.call_tool("get_entries", {})
        assert not answer.is_error, answer.structured
        assert [e["name"] for e in answer.structured["body"]] == ["m", "d", "a"]  # the initial state, and the create by name
    finally:
        runtime.close()
