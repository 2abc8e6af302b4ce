"""A reference whose holder shows the named entity's members (a dashboard's ``app_type`` is the type of
the app its ``app_id`` names) may be a join over a link the named entity holds: an application keeping
``dashboard_id`` on the app shows each app under one dashboard, and a second dashboard naming the app
takes it from the first, whose ``app_id`` and ``app_type`` then read null. Where every app the capture
shows is named by one dashboard only, a create or update naming an app another held dashboard names is
refused with the state unchanged, saying why and what is accepted (an app no held dashboard names);
where the capture shows two dashboards naming one app, the repeat is served. A reference the holder
copies nothing through (many comments naming one post) is not judged this way
(tests/writes_serving/test_writes_references)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send, sent_beside_the_state, served_over_http

APPS = [{"id": "0cde50eb-0520-492e-aea2-b10cdea6dbf2", "type": "metrics"},
        {"id": "21eb8aea-641a-4bd1-a3ec-f2444effdf3a", "type": "params"}]
MADE_APP = {"id": "21d5867a-f22c-11f1-8dfc-02fc00000001", "type": "images"}
DASHBOARDS = [{"id": "b134ac25-4521-483d-8ca5-9beb6ac3c9c1", "name": "Loss", "app_id": APPS[0]["id"],
               "app_type": "metrics"},
              {"id": "54f1a973-a7fc-41f3-b31d-edb77f502fd6", "name": "Params", "app_id": APPS[1]["id"],
               "app_type": "params"}]


def capture(*, shared: bool = False) -> HarBuilder:
    """Apps and the dashboards naming them read; an app made, then a dashboard naming it (and, when
    ``shared``, a second dashboard naming the app the first seeded dashboard names, both read after)."""
    har = HarBuilder()
    har.call("GET", "/apps", response=APPS)
    for app in APPS:
        har.call("GET", f"/apps/{app['id']}", response=app)
    har.call("GET", "/dashboards", response=DASHBOARDS)
    for dashboard in DASHBOARDS:
        har.call("GET", f"/dashboards/{dashboard['id']}", response=dashboard)
    har.call("POST", "/apps", body={"type": "images"}, status=201, response=MADE_APP)
    har.call("GET", f"/apps/{MADE_APP['id']}", response=MADE_APP)
    made = {"id": "2224cb68-f22c-11f1-8dfc-02fc00000001", "name": "Images", "app_id": MADE_APP["id"],
            "app_type": "images"}
    har.call("POST", "/dashboards", body={"name": "Images", "app_id": MADE_APP["id"]}, status=201, response=made)
    har.call("GET", f"/dashboards/{made['id']}", response=made)
    held = [*DASHBOARDS, made]
    har.call("GET", "/dashboards", response=held)
    if shared:
        second = {"id": "226bd3aa-f22c-11f1-8dfc-02fc00000001", "name": "Loss too", "app_id": APPS[0]["id"],
                  "app_type": "metrics"}
        har.call("POST", "/dashboards", body={"name": "Loss too", "app_id": APPS[0]["id"]}, status=201,
                 response=second)
        har.call("GET", f"/dashboards/{second['id']}", response=second)
        har.call("GET", f"/dashboards/{DASHBOARDS[0]['id']}", response=DASHBOARDS[0])
        har.call("GET", "/dashboards", response=[*held, second])
    return har


@pytest.fixture(scope="module")
def joined(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("joined") / "capture.har")


def test_the_create_names_the_joined_reference_distinct(joined) -> None:
    create = plan(joined, "POST", "/dashboards")
    assert create.served, create.reason
    assert [(c.member, c.field, c.source) for c in create.reference_copies] == [("app_id", "app_type", "type")]
    assert [(d.member, d.names) for d in create.distinct_members if d.member == "app_id"] == [("app_id", "apps")]
    assert any(e.rule_id == "distinct.joined-reference-never-repeated" and e.outcome == "match"
               for e in create.traces)


def test_a_dashboard_naming_an_app_another_names_is_refused(joined) -> None:
    status, answer, before, after = sent_beside_the_state(
        joined, "POST", "/dashboards", {"name": "Params too", "app_id": APPS[1]["id"]})
    assert status == 400, answer
    message = answer["message"]
    assert "'app_id'" in message and APPS[1]["id"] in message and DASHBOARDS[1]["id"] in message, message
    assert "no held dashboards entity names is accepted" in message, message
    assert after == before


def test_a_dashboard_naming_an_app_no_dashboard_names_is_served(tmp_path) -> None:
    bundle = build_from(capture(), tmp_path / "capture.har")
    with served_over_http(bundle) as serving:
        status, app = send(serving, "POST", "/apps", {"type": "texts"})
        assert status == 201, app
        status, answer = send(serving, "POST", "/dashboards", {"name": "Texts", "app_id": app["id"]})
        assert status == 201 and answer["app_type"] == "texts", answer


def test_a_capture_showing_two_dashboards_naming_one_app_serves_the_repeat(tmp_path) -> None:
    bundle = build_from(capture(shared=True), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/dashboards")
    assert create.served, create.reason
    assert [d.member for d in create.distinct_members if d.member == "app_id"] == []
    status, answer, _, _ = sent_beside_the_state(bundle, "POST", "/dashboards",
                                                 {"name": "Params too", "app_id": APPS[1]["id"]})
    assert status == 201 and answer["app_type"] == "params", answer
