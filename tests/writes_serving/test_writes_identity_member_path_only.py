"""An update whose body sends the identity member: every recorded call sent it as the id the path
names, so what the application does with another value (refuse it, rename the entity) the capture
cannot show. Serving takes it only as the path's id: a call naming another is refused with the
state unchanged, where it once stored the call as if the member matched (an application answering
409 was served 200)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

SETTINGS = [{"key": key, "value": value} for key, value in (("theme", "dark"), ("locale", "en-GB"),
                                                           ("timezone", "UTC"))]


def capture() -> HarBuilder:
    """Settings read; theme and locale updated with their own key in the body, each read back."""
    har = HarBuilder()
    har.call("GET", "/settings", response={"settings": SETTINGS})
    for setting in SETTINGS:
        har.call("GET", f"/settings/{setting['key']}", response=setting)
    for key, value in (("theme", "light"), ("locale", "fr-FR"), ("theme", "solarized")):
        har.call("PUT", f"/settings/{key}", body={"key": key, "value": value}, response={"key": key, "value": value})
        har.call("GET", f"/settings/{key}", response={"key": key, "value": value})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("identity-member") / "capture.har")


def test_an_identity_member_other_than_the_path_id_is_refused(bundle) -> None:
    update = plan(bundle, "PUT", "/settings/{setting_id}")
    assert update.served, update.reason
    identity = next(m for m in update.members if m.member == "key")
    assert identity.rule_id == "update-member.identity" and identity.path_id_only
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        before = send_json(serving, "/settings/timezone", None, method="GET")[1]
        # must not: 200, as if the body named the path's entity
        status, answer = send_json(serving, "/settings/timezone", {"key": "region", "value": "CET"}, method="PUT")
        assert status == 400 and "accepted only as the id the path names" in answer["message"], answer
        assert send_json(serving, "/settings/timezone", None, method="GET")[1] == before
        status, answer = send_json(serving, "/settings/timezone", {"key": "timezone", "value": "CET"}, method="PUT")
        assert status == 200 and answer == {"key": "timezone", "value": "CET"}, answer
        assert send_json(serving, "/settings/timezone", None, method="GET")[1] == answer
