"""An update sending only values the entity already holds, of a plan that stamps a clock: the
capture shows the clock moving only with updates that changed something, not whether the
application moves or answers it when nothing changes (an ORM saving no changed column answers
the entity without a new ``updatedAt``), so serving refuses it, state unchanged, and serves an
update that changes a member as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

TAGS = [{"id": f"T{n}aaaaaaaaaaaaa", "name": name, "createdAt": "2025-12-31T10:00:00.000Z",
         "updatedAt": "2025-12-31T10:00:00.000Z"} for n, name in enumerate(["ops", "dev", "qa"], start=1)]


def capture() -> HarBuilder:
    """Tags read; dev renamed twice (answered {id, name, updatedAt}, the clock the call's), then read."""
    har = HarBuilder()
    har.call("GET", "/tags", response=TAGS)
    for tag in TAGS:
        har.call("GET", f"/tags/{tag['id']}", response=tag)
    renamed = dict(TAGS[1])
    for name in ("devel", "development"):
        now = har._next_start.isoformat(timespec="milliseconds").replace("+00:00", "Z")  # the call's own clock
        har.call("PUT", f"/tags/{renamed['id']}", body={"name": name},
                 response={"id": renamed["id"], "name": name, "updatedAt": now})
        renamed = {**renamed, "name": name, "updatedAt": now}
        har.call("GET", f"/tags/{renamed['id']}", response=renamed)
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("unchanged") / "capture.har")


def test_an_update_changing_nothing_is_refused_and_one_changing_a_member_is_served(bundle) -> None:
    update = plan(bundle, "PUT", "/tags/{tag_id}")
    assert update.served, update.reason
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        before = send_json(serving, "/tags/T1aaaaaaaaaaaaa", None, method="GET")[1]
        # must not: 200 with a new updatedAt for a rename to the name ops already has
        status, answer = send_json(serving, "/tags/T1aaaaaaaaaaaaa", {"name": "ops"}, method="PUT")
        assert status == 400 and "sends only values the entity already holds" in answer["message"], answer
        assert send_json(serving, "/tags/T1aaaaaaaaaaaaa", None, method="GET")[1] == before
        status, answer = send_json(serving, "/tags/T1aaaaaaaaaaaaa", {"name": "operations"}, method="PUT")
        assert status == 200 and answer["name"] == "operations", answer
