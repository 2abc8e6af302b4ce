"""A member the application validates by its characters (``validated.text-characters``): a create
refused 422 for a name of capitals, a space and ``!``, answered with a message speaking of the
letters a name may hold, where every name the type's successful creates and updates sent drew on
lowercase letters, digits and ``_`` (of no one layout), makes the create and the type's update
accept only such text (``job_c3`` served; ``Other Name?`` refused, state unchanged). Without the
refusal names are stored as sent, as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, validated_rules
from support.har_builder import HarBuilder
from support.served_calls import send_json, served_over_http, state_of

JOBS = [{"id": 1, "name": "seed_job", "value": "a"}]
# the answer echoes the refused body: its keys name every member sent, its "loc" the one refused
REFUSAL = {"detail": [{"loc": ["body", "name"], "input": "Bad Name!",
                       "msg": "name must only contain lowercase letters, numbers and underscores"}],
           "request_body": {"name": "Bad Name!", "value": "z"}}


def capture(refused: bool) -> HarBuilder:
    """Two jobs created and one renamed; ``refused``: a create of ``Bad Name!`` answered 422."""
    har = HarBuilder()
    har.call("GET", "/jobs", response=JOBS)
    har.call("GET", "/jobs/1", response=JOBS[0])
    made = []
    for number, (name, value) in enumerate((("job_a1", "x"), ("job_b2", "y")), start=2):
        job = {"id": number, "name": name, "value": value}
        har.call("POST", "/jobs", body={"name": name, "value": value}, status=201, response=job)
        har.call("GET", f"/jobs/{number}", response=job)
        made.append(job)
    har.call("GET", "/jobs", response=JOBS + made)
    renamed = {**made[1], "name": "job_b2_renamed"}
    har.call("PATCH", "/jobs/3", body={"name": "job_b2_renamed"}, response=renamed)
    har.call("GET", "/jobs/3", response=renamed)
    if refused:
        har.call("POST", "/jobs", body={"name": "Bad Name!", "value": "z"}, status=422, response=REFUSAL)
    return har


@pytest.fixture(scope="module", params=["refused", "none"])
def built(request, tmp_path_factory):
    har = capture(request.param == "refused")
    return request.param, build_from(har, tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_create_and_the_update_learn_the_characters(built) -> None:
    case, bundle = built
    for rule in validated_rules(bundle, (("POST", "/jobs"), ("PATCH", "/jobs/{job_id}")), learned=case != "none"):
        assert rule.member == "name" and rule.layout == "^[0-9a-z_]+$" and rule.status == 422


def test_a_name_of_other_characters_is_refused(built) -> None:
    case, bundle = built
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/jobs", {"name": "Other Name?", "value": "q"})
        if case == "none":  # no refusal shows the name validated: stored as sent, as before
            assert status == 201 and answer["name"] == "Other Name?", answer
            return
        assert status == 400, answer
        assert "'name'" in answer["message"] and "^[0-9a-z_]+$" in answer["message"]
        assert state_of(serving) == before
        status, answer = send_json(serving, "/jobs/1", {"name": "Seed Job"}, method="PATCH")
        assert status == 400 and "'name'" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/jobs", {"name": "job_c3", "value": "q"})
        assert status == 201 and answer["name"] == "job_c3", answer
        status, answer = send_json(serving, "/jobs/1", {"name": "seed_job_2"}, method="PATCH")
        assert status == 200 and answer["name"] == "seed_job_2", answer
