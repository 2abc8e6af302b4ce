"""A body member naming an entity of a type keyed by names (``reference.one-type-named-keys``): a
job's ``engine`` sends ``python3``, the id of one of the runtimes ``/runtimes`` lists, though the
member's name names no type and the value is shorter than an id that could not match by chance.
A create naming a runtime the state does not hold is refused with the state unchanged, saying
which runtimes are held (the application cannot start a job on a runtime it does not have); one
naming a held runtime no recorded call sent is served. Where the type holding the value is keyed
by numbers, the value is no reference and is stored as sent.
"""

from __future__ import annotations

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

JOB_IDS = ["0b6f7a52-0c5e-4a1e-9c1b-6f2d2f0e5a01", "0b6f7a52-0c5e-4a1e-9c1b-6f2d2f0e5a02"]


def capture(keys: list[str | int]) -> HarBuilder:
    """Runtimes keyed ``keys`` (the first is ``python3``) and jobs made on ``python3``."""
    runtimes = [{"id": key, "display": f"Runtime {key}"} for key in keys]
    har = HarBuilder()
    har.call("GET", "/runtimes", response=runtimes)
    for runtime in runtimes:
        har.call("GET", f"/runtimes/{runtime['id']}", response=runtime)
    har.call("GET", "/jobs", response=[])
    made: list[dict[str, object]] = []
    for job_id in JOB_IDS:
        job = {"id": job_id, "engine": "python3", "state": "starting"}
        made.append(job)
        har.call("POST", "/jobs", body={"engine": "python3"}, status=201, response=job)
        har.call("GET", f"/jobs/{job_id}", response=job)
        har.call("GET", "/jobs", response=list(made))
    return har


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    return build_from(capture(["python3", "rlang"]), tmp_path_factory.mktemp("named") / "capture.har")


def test_a_name_keyed_type_makes_the_member_a_checked_reference(named) -> None:
    create = plan(named, "POST", "/jobs")
    assert create.served, create.reason
    assert [(r.member, r.type, r.rule_id, r.checked) for r in create.references] == [
        ("engine", "runtimes", "reference.one-type-named-keys", True)]


def test_an_unheld_name_is_refused_naming_the_held_ones(named) -> None:
    runtime = EnvironmentRuntime(named)
    tool = plan(named, "POST", "/jobs").tool
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            result = anyio.run(call_tool, serving, runtime, tool, {"body": {"engine": "julia"}})
            message = result.structured_content["message"]
            assert result.is_error is True and "'engine'" in message and "runtimes" in message
            assert "python3, rlang" in message  # which values are accepted
            status, answer = send_json(serving, "/jobs", {"engine": "julia"})
            assert status == 400 and answer["message"] == message
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before  # nothing written
            status, answer = send_json(serving, "/jobs", {"engine": "rlang"})  # held, never sent: served
            assert status == 201 and answer["engine"] == "rlang"
    finally:
        runtime.close()


def test_a_type_keyed_by_numbers_makes_no_reference(tmp_path) -> None:
    bundle = build_from(capture(["python3", 7]), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/jobs")
    assert create.served, create.reason
    assert create.references == ()
