"""A member the application validates by layout (``validated.text-layout``): a create refused with an
answer keyed by ``color`` for ``red``, where every colour the type's successful creates and updates
sent was ``#`` and six hexadecimal characters, makes the create and the type's update accept only
text of that layout (``#111111`` served, ``blue-ish`` refused, state unchanged), though the refused
body differed from the success in more than the colour and the create sent one colour only."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, validated_rules
from support.har_builder import HarBuilder
from support.served_calls import send_json, served_over_http, state_of


TRACKS = [{"id": 1, "name": "Frontend", "color": "#ff7f0e", "position": 1}]


def capture(refusal: dict | None) -> HarBuilder:
    """One track created, then recoloured twice; ``refusal``: the answer a create sending another
    name, no position and the colour ``red`` records (None: no such call)."""
    har = HarBuilder()
    har.call("GET", "/tracks", response=TRACKS)
    har.call("GET", "/tracks/1", response=TRACKS[0])
    made = {"id": 2, "name": "Operations", "color": "#17becf", "position": 2}
    har.call("POST", "/tracks", body={"name": "Operations", "color": "#17becf", "position": 2}, status=201,
             response=made)
    har.call("GET", "/tracks/2", response=made)
    har.call("GET", "/tracks", response=TRACKS + [made])
    for colour in ("#8c564b", "#e377c2"):
        made = {**made, "color": colour}
        har.call("PATCH", "/tracks/2", body={"color": colour}, response=made)
        har.call("GET", "/tracks/2", response=made)
    if refusal is not None:
        har.call("POST", "/tracks", body={"name": "Bad colour", "color": "red"}, status=400, response=refusal)
    return har


@pytest.fixture(scope="module", params=["keyed", "none"])
def built(request, tmp_path_factory):
    refusal = {"color": ["Enter a valid value."]} if request.param == "keyed" else None
    return request.param, build_from(capture(refusal), tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_create_and_the_update_learn_the_layout(built) -> None:
    case, bundle = built
    for rule in validated_rules(bundle, (("POST", "/tracks"), ("PATCH", "/tracks/{track_id}")), learned=case != "none"):
        assert rule.member == "color" and rule.layout == "^#[0-9a-f]{6}$" and rule.status == 400


def test_a_colour_of_another_layout_is_refused_on_the_update(built) -> None:
    case, bundle = built
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/tracks/1", {"color": "blue-ish"}, method="PATCH")
        if case == "none":  # no refusal shows the colour validated: stored as sent, as before
            assert status == 200 and answer["color"] == "blue-ish", answer
            return
        assert status == 400, answer
        assert "'color'" in answer["message"] and "^#[0-9a-f]{6}$" in answer["message"]
        assert state_of(serving) == before
        status, answer = send_json(serving, "/tracks", {"name": "Security", "color": "red", "position": 3})
        assert status == 400 and "'color'" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/tracks/1", {"color": "#222222"}, method="PATCH")
        assert status == 200 and answer["color"] == "#222222", answer
        status, answer = send_json(serving, "/tracks", {"name": "Security", "color": "#111111", "position": 3})
        assert status == 201 and answer["color"] == "#111111", answer
