"""An application that reads an id in any letter case as the entity it names (it stores ids folded:
``GET /states/SENSOR.DOOR`` answers ``sensor.door``), which the capture shows by one such read, has
another letter case of a held id answered with that entity (``view-letter-case-reads``); without
such a read, or where a read in another letter case answered the absence, the spelling stays
refused naming the held id (tests/absence/test_other_spellings.py), and only letter case is folded,
never a final dot or dashes. Deletes are not folded: the capture proves reads only."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

DOOR = {"entity_id": "sensor.door", "state": "closed"}
LAMP = {"entity_id": "light.lamp_one", "state": "on"}


def capture(*, spelled_read: bool = True, spelled_absence: bool = False) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/states", response=[DOOR, LAMP])
           .call("GET", "/states/sensor.door", response=DOOR)
           .call("GET", "/states/light.lamp_one", response=LAMP)
           .call("GET", "/states/sensor.gone", status=404, response={"message": "Entity not found."}))
    if spelled_read:
        har = har.call("GET", "/states/SENSOR.DOOR", response=DOOR)
    if spelled_absence:
        har = har.call("GET", "/states/Light.Lamp_One", status=404, response={"message": "Entity not found."})
    return (har.call("DELETE", "/states/sensor.door", response={"message": "Entity removed."})
               .call("GET", "/states/sensor.door", status=404, response={"message": "Entity not found."})
               .call("GET", "/states", response=[LAMP]))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_read_in_another_letter_case_the_capture_shows_answered_serves_the_held_entity():
    bundle = build_from(capture())
    view = next(v for v in bundle.view.views if v.tool == "get_states_by_state_id")
    assert view.letter_case_reads, [e for e in bundle.view.traces if "letter-case" in str(e.rule_id)]
    runtime = EnvironmentRuntime(bundle)
    for spelling in ("/states/LIGHT.LAMP_ONE", "/states/Light.Lamp_One", "/states/light.LAMP_one"):
        answer = get(runtime, spelling)
        assert answer.status == 200 and json.loads(answer.body) == LAMP, (spelling, answer)
    assert get(runtime, "/states/LIGHT.NOPE").status == 404  # no held id folds to it: the learned absence
    assert get(runtime, "/states/LIGHT.LAMP_ONE.").status == 409  # a final dot besides: not proven
    delete = runtime.http(HttpRequest("DELETE", "/states/LIGHT.LAMP_ONE", (), (), b""))
    assert delete.status >= 400 and json.loads(delete.body)["message"].endswith('call it by "light.lamp_one"')
    assert get(runtime, "/states/light.lamp_one").status == 200


def test_without_a_read_in_another_letter_case_the_spelling_stays_refused():
    runtime = EnvironmentRuntime(build_from(capture(spelled_read=False)))
    answer = get(runtime, "/states/LIGHT.LAMP_ONE")
    assert answer.status == 409 and json.loads(answer.body)["message"].endswith('call it by "light.lamp_one"')


def test_a_read_in_another_letter_case_answered_absent_vetoes_the_folding():
    bundle = build_from(capture(spelled_absence=True))
    view = next(v for v in bundle.view.views if v.tool == "get_states_by_state_id")
    assert not view.letter_case_reads
    assert get(EnvironmentRuntime(bundle), "/states/LIGHT.LAMP_ONE").status != 200
