"""An entity's own name shaped as a UUID (``sent-values.name-not-an-id``): tags with UUID ids created
and renamed with plain names, so a create or rename naming a tag with a UUID is refused, state
unchanged (ZenML answers 422 'Tag names cannot be a UUID'), while a plain name is served. Where the
capture shows a tag holding a UUID-shaped name, such names stay accepted."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send_json, served_over_http, state_of

UUID_NAME = "5a2c9b1e-0f3d-4c8a-9e7b-1d2f3a4b5c6d"
IDS = ["0f4e9a52-7c1b-4d8e-9a3f-2b6c8d0e1f21", "0f4e9a52-7c1b-4d8e-9a3f-2b6c8d0e1f22",
       "0f4e9a52-7c1b-4d8e-9a3f-2b6c8d0e1f23", "0f4e9a52-7c1b-4d8e-9a3f-2b6c8d0e1f24"]


def capture(held_name: str) -> HarBuilder:
    """A seeded tag named ``held_name`` read, two tags created and one renamed, each read back."""
    seed = [{"id": IDS[0], "name": held_name, "color": "red"}]
    har = HarBuilder()
    har.call("GET", "/tags", response=seed)
    har.call("GET", f"/tags/{IDS[0]}", response=seed[0])
    made = []
    for number, name in ((1, "prod"), (2, "nightly")):
        tag = {"id": IDS[number], "name": name, "color": "green"}
        har.call("POST", "/tags", body={"name": name, "color": "green"}, status=201, response=tag)
        har.call("GET", f"/tags/{IDS[number]}", response=tag)
        made.append(tag)
    renamed = {**made[1], "name": "weekly"}
    har.call("PATCH", f"/tags/{IDS[2]}", body={"name": "weekly"}, response=renamed)
    har.call("GET", f"/tags/{IDS[2]}", response=renamed)
    har.call("GET", "/tags", response=seed + [made[0], renamed])
    return har


@pytest.fixture(scope="module", params=["plain", "uuid-held"])
def built(request, tmp_path_factory):
    har = capture("legacy" if request.param == "plain" else "9b1d3c5e-7f90-4a2b-8c4d-6e8f0a1b2c3d")
    return request.param, build_from(har, tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_writes_learn_the_name_is_no_id(built) -> None:
    case, bundle = built
    for method, path in (("POST", "/tags"), ("PATCH", "/tags/{tag_id}")):
        write = plan(bundle, method, path)
        assert write.served
        learned = [u.member for u in write.unproven_values if u.rule_id == "sent-values.name-not-an-id"]
        assert learned == ([] if case == "uuid-held" else ["name"])


def test_a_name_shaped_as_a_uuid_is_refused(built) -> None:
    case, bundle = built
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/tags", {"name": UUID_NAME, "color": "green"})
        if case == "uuid-held":  # the capture shows a tag holding such a name
            assert status == 201 and answer["name"] == UUID_NAME, answer
            return
        assert status == 400 and "'name'" in answer["message"] and "UUID" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, f"/tags/{IDS[0]}", {"name": UUID_NAME}, method="PATCH")
        assert status == 400 and "'name'" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/tags", {"name": "canary", "color": "green"})
        assert status == 201 and answer["name"] == "canary", answer
