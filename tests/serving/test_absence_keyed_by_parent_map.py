"""An item absence the parent's document contradicts: before any write the capture read
``/projects/p1/labels`` as ``{"labels": {"env": "prod", "owner": "dba"}}`` (a map keyed by the
label names) and the item ``/projects/p1/labels/env`` alone. The state holds the env label only,
but the map shows owner too, so ``/projects/p1/labels/owner`` is no absence to answer: it is
refused, where it once answered 404 for a label the application holds. A name the map does not
hold still answers the recorded absence."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/projects/p1/labels", response={"labels": {"env": "prod", "owner": "dba"}})
    har.call("GET", "/projects/p1/labels/env", response={"key": "env", "value": "prod"})
    har.call("GET", "/projects/p2/labels", response={"labels": {"tier": "gold"}})
    har.call("GET", "/projects/p2/labels/tier", response={"key": "tier", "value": "gold"})
    har.call("GET", "/projects/p1/labels/nothing", status=404, response={"error": "no such label"})
    har.call("GET", "/projects/p2/labels/missing", status=404, response={"error": "no such label"})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("keyed-map") / "capture.har")


def test_an_item_the_parents_map_names_is_not_answered_absent(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/projects/p1/labels/env", None, method="GET")
        assert status == 200 and answer == {"key": "env", "value": "prod"}, answer
        # must not: the recorded absence, for a label the map above it shows
        status, answer = send_json(serving, "/projects/p1/labels/owner", None, method="GET")
        assert "a map keyed by it" in str(answer), (status, answer)
        status, answer = send_json(serving, "/projects/p1/labels/unheard", None, method="GET")
        assert status == 404 and "a map keyed by it" not in str(answer), (status, answer)
