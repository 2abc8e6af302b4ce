"""A member the application bounds the length of (``validated.text-length``): a create refused 400
with an error naming ``color`` (by a text value, ``{"field": "color"}``, beside keys like ``name``)
for a colour of 34 characters, where the type's successful creates and updates sent ``orange`` and
``cyan``, makes the create and the type's update accept only text of 6 characters or fewer
(``teal`` served, ``turquoise`` refused, state unchanged); without the refusal any text is stored."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, validated_rules
from support.har_builder import HarBuilder
from support.served_calls import send_json, served_over_http, state_of


TAGS = [{"id": 1, "name": "python", "color": "blue"}]
REFUSAL = {"errors": [{"name": "ValidationError", "data": [
    {"field": "color", "message": "This value must be shorter than the max length of 16 characters."}],
    "message": "The following field is invalid: color"}]}


def capture(refused: bool) -> HarBuilder:
    """One tag created and recoloured; ``refused``: then a create of a colour past the bound."""
    har = HarBuilder()
    har.call("GET", "/tags", response=TAGS)
    har.call("GET", "/tags/1", response=TAGS[0])
    made = {"id": 2, "name": "rust", "color": "orange"}
    har.call("POST", "/tags", body={"name": "rust", "color": "orange"}, status=201, response=made)
    har.call("GET", "/tags/2", response=made)
    har.call("GET", "/tags", response=TAGS + [made])
    made = {**made, "color": "cyan"}
    har.call("PATCH", "/tags/2", body={"color": "cyan"}, response=made)
    har.call("GET", "/tags/2", response=made)
    if refused:
        har.call("POST", "/tags", body={"name": "long-color", "color": "a colour name that is far too long"},
                 status=400, response=REFUSAL)
    return har


@pytest.fixture(scope="module", params=["refused", "none"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param == "refused"),
                                     tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_create_and_the_update_learn_the_bound(built) -> None:
    case, bundle = built
    for rule in validated_rules(bundle, (("POST", "/tags"), ("PATCH", "/tags/{tag_id}")), learned=case != "none"):
        assert rule.member == "color" and rule.max_length == 6 and rule.status == 400


def test_a_longer_colour_is_refused(built) -> None:
    case, bundle = built
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/tags/1", {"color": "turquoise"}, method="PATCH")
        if case == "none":  # no refusal shows the length bounded: stored as sent, as before
            assert status == 200 and answer["color"] == "turquoise", answer
            return
        assert status == 400, answer
        assert "'color'" in answer["message"] and "6 characters" in answer["message"]
        assert state_of(serving) == before
        status, answer = send_json(serving, "/tags", {"name": "go", "color": "a colour far too long"})
        assert status == 400 and "'color'" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/tags/1", {"color": "teal"}, method="PATCH")
        assert status == 200 and answer["color"] == "teal", answer
