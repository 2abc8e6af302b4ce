"""A delete of an entity whose type's path word is another type's word followed by that type's
member (a host's ``groups`` naming ``/hostgroups``; Icinga 2 answers 500 "cannot be deleted because
other objects depend on it" to a group its hosts name): the member is a referrer
(``referrer.compound-word``), so serving refuses the delete of a named group, state unchanged,
and serves the delete of a group nothing names."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

GROUPS = [{"name": name, "display_name": name.title()} for name in ("linux", "windows", "spare", "lab")]
HOSTS = [{"name": "web01", "groups": ["linux"], "address": "10.0.0.1"},
         {"name": "win01", "groups": ["windows"], "address": "10.0.0.2"},
         {"name": "db01", "groups": ["linux"], "address": "10.0.0.3"}]


def capture() -> HarBuilder:
    """Groups and hosts read; the group lab, which no host names, deleted and read back missing."""
    har = HarBuilder()
    har.call("GET", "/objects/hostgroups", response=GROUPS)
    for group in GROUPS:
        har.call("GET", f"/objects/hostgroups/{group['name']}", response=group)
    har.call("GET", "/objects/hosts", response=HOSTS)
    for host in HOSTS:
        har.call("GET", f"/objects/hosts/{host['name']}", response=host)
    har.call("DELETE", "/objects/hostgroups/lab", status=204)
    har.call("GET", "/objects/hostgroups/lab", status=404, response={"error": "No objects found."})
    har.call("GET", "/objects/hostgroups", response=GROUPS[:3])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("compound") / "capture.har")


def test_the_hosts_groups_refer_to_the_hostgroups(bundle) -> None:
    delete = plan(bundle, "DELETE", "/objects/hostgroups/{hostgroup_id}")
    assert delete.served, delete.reason
    assert {(r.type, r.member, r.rule_id) for r in delete.referrers} == {("hosts", "groups", "referrer.compound-word")}


def test_a_group_a_host_names_is_not_deleted_and_one_nothing_names_is(bundle) -> None:
    # must not: 204 for windows, which win01's groups name (the application refuses the delete)
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/objects/hostgroups/windows", None, method="DELETE")
        assert status == 400 and "hosts 'win01' (groups)" in answer["message"], answer
        assert send_json(serving, "/objects/hostgroups/windows", None, method="GET")[0] == 200
        assert send_json(serving, "/objects/hostgroups/spare", None, method="DELETE")[0] == 204
        assert send_json(serving, "/objects/hostgroups/spare", None, method="GET")[0] == 404
