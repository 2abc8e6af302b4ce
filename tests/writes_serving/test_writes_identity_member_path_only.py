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
from support.served_calls import send_json, served_over_http

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


def masked_capture() -> HarBuilder:
    """Pools named by the path, updated with ``?update_mask=slots`` and a body that must repeat the
    pool's name (an AIP-134 mask, as Airflow's PATCH asks): the mask never names the identity."""
    pools = [{"name": "default", "slots": 128}, {"name": "etl", "slots": 4}, {"name": "ml", "slots": 2}]
    har = HarBuilder()
    har.call("GET", "/pools", response={"pools": pools, "total_entries": 3})
    for pool in pools:
        har.call("GET", f"/pools/{pool['name']}", response=pool)
    for name, slots in (("etl", 8), ("ml", 6), ("etl", 16)):
        pools = [dict(p, slots=slots) if p["name"] == name else p for p in pools]
        har.call("PATCH", f"/pools/{name}", query=[("update_mask", "slots")], body={"name": name, "slots": slots},
                 response={"name": name, "slots": slots})
        har.call("GET", f"/pools/{name}", response={"name": name, "slots": slots})
        har.call("GET", "/pools", response={"pools": pools, "total_entries": 3})
    return har


def test_a_mask_leaving_out_the_identity_member_takes_it_as_the_path_id(tmp_path) -> None:
    """Once, a mask that did not name the identity member made the plan refuse every recorded call
    (``name`` not accepted): the update went unconfirmed."""
    bundle = build_from(masked_capture(), tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/pools/{pool_id}")
    assert update.served, update.reason
    assert update.update_mask is not None
    identity = next(m for m in update.members if m.member == "name")
    assert identity.rule_id == "update-member.identity" and identity.path_id_only
    with served_over_http(bundle) as serving:
        status, answer = send_json(serving, "/pools/default?update_mask=slots", {"name": "default", "slots": 32},
                                   method="PATCH")
        assert (status, answer) == (200, {"name": "default", "slots": 32})
        assert send_json(serving, "/pools/default", None, method="GET")[1] == answer
        before = send_json(serving, "/pools/ml", None, method="GET")[1]
        # must not: 200 renaming nothing and changing ml (the mask left the name out, so it went unchecked)
        status, answer = send_json(serving, "/pools/ml?update_mask=slots", {"name": "etl", "slots": 1},
                                   method="PATCH")
        assert status == 400 and "accepted only as the id the path names" in answer["message"], answer
        assert send_json(serving, "/pools/ml", None, method="GET")[1] == before == {"name": "ml", "slots": 2}
