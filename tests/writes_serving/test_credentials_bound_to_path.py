"""Credentials bound to a path value (``credential-value.bound-to-path``): each project of a shared-budget
application has its own HTTP Basic credentials (the project's id and code), accepted on that project's
paths alone; the capture records one project's credentials refused 401 on another project's path. The
model does not check authorization otherwise, so without the binding it answered another project's
data to those credentials, and a wrong code too, where the application refuses them (a wrong answer).
Serving accepts a value only with the path value the capture's calls sent it with. Without a refusal
telling the projects apart, the credentials are not bound, as before.
"""

from __future__ import annotations

import base64

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


HOUSE = basic("house", "house-code")
TRIP = basic("trip", "trip-code")
WRONG = basic("house", "not-the-code")
UNAUTHORIZED = {"message": "The server could not verify that you are authorized to access the URL requested."}


def project(pid: str, name: str) -> dict:
    return {"id": pid, "name": name, "contact_email": f"{pid}@example.com", "default_currency": "EUR"}


def member(mid: int, name: str) -> dict:
    return {"id": mid, "name": name, "weight": 1.0, "activated": True}


def capture(*, refused_across: bool) -> HarBuilder:
    """Each project read with its own credentials; with ``refused_across``, house's credentials on
    trip's paths refused 401."""
    har = HarBuilder()
    house, trip = [("Authorization", HOUSE)], [("Authorization", TRIP)]
    har.call("GET", "/api/projects/house", response=project("house", "Household"), headers=house)
    har.call("GET", "/api/projects/house/members", response=[member(1, "alice"), member(2, "bob")], headers=house)
    har.call("GET", "/api/projects/house/members/1", response=member(1, "alice"), headers=house)
    har.call("GET", "/api/projects/trip", response=project("trip", "Trip"), headers=trip)
    har.call("GET", "/api/projects/trip/members", response=[member(3, "erin")], headers=trip)
    har.call("GET", "/api/projects/trip/members/3", response=member(3, "erin"), headers=trip)
    if refused_across:
        har.call("GET", "/api/projects/trip", status=401, response=UNAUTHORIZED, headers=house)
        har.call("GET", "/api/projects/trip/members", status=401, response=UNAUTHORIZED, headers=house)
    har.call("GET", "/api/projects/house/members/2", response=member(2, "bob"), headers=house)
    har.call("GET", "/api/projects/trip", response=project("trip", "Trip"), headers=trip)
    return har


@pytest.fixture(scope="module", params=[True, False], ids=["refused-across", "never-refused"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(refused_across=request.param),
                                     tmp_path_factory.mktemp("bound-credentials") / "capture.har")


def test_credentials_refused_on_another_projects_path_are_bound_to_the_path(built) -> None:
    refused, bundle = built
    credential = bundle.replay.static_credentials.get("authorization")
    if refused:
        assert credential is not None and credential.rule_id == "credential-value.bound-to-path", credential
        assert credential.bound_to and len(credential.digests) == 2, credential
    else:
        assert credential is None or not credential.bound_to, credential


def test_a_projects_credentials_open_its_own_paths_alone(built) -> None:
    refused, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send(serving, "GET", "/api/projects/house", headers={"Authorization": HOUSE})
            assert status == 200 and answer["name"] == "Household", answer
            status, answer = send(serving, "GET", "/api/projects/trip/members/3", headers={"Authorization": TRIP})
            assert status == 200 and answer["name"] == "erin", answer
            across = [send(serving, "GET", "/api/projects/trip", headers={"Authorization": HOUSE}),
                      send(serving, "GET", "/api/projects/house/members/1", headers={"Authorization": TRIP}),
                      send(serving, "GET", "/api/projects/house", headers={"Authorization": WRONG})]
            if refused:
                # another project's data, or a wrong code answered, would be a wrong answer: refused, saying why
                for status, answer in across:
                    assert status == 401 and "on this path" in answer["message"], answer
            else:
                assert across[0][0] == 200, across[0]  # nothing in the capture tells the projects apart
    finally:
        runtime.close()
