"""A create refused where another call created with the same body (``verdict.refused-where-accepted``):
the body was valid, so the refusal is about what that collection held (a user already a member),
which serving would not check; the plan is not served (conditional-create). Without the refused
call the same create is served, and a refusal of another body (a validation failure) does not count."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def capture(refused_body: dict | None) -> HarBuilder:
    har = HarBuilder()
    groups = {1: [{"id": 1, "user": 1}], 2: [{"id": 2, "user": 1}]}
    for group, members in groups.items():
        har.call("GET", f"/groups/{group}/members", response=list(members))
        for member in members:
            har.call("GET", f"/groups/{group}/members/{member['id']}", response=member)
    made = {"id": 3, "user": 7}
    har.call("POST", "/groups/1/members", body={"user": 7}, status=201, response=made)
    groups[1].append(made)
    har.call("GET", "/groups/1/members/3", response=made)
    har.call("GET", "/groups/1/members", response=list(groups[1]))
    if refused_body is not None:
        har.call("POST", "/groups/1/members", body=refused_body, status=400, response={"detail": "refused"})
    made = {"id": 4, "user": 7}
    har.call("POST", "/groups/2/members", body={"user": 7}, status=201, response=made)
    groups[2].append(made)
    har.call("GET", "/groups/2/members/4", response=made)
    har.call("GET", "/groups/2/members", response=list(groups[2]))
    return har


@pytest.mark.parametrize("refused_body, served", [
    (None, True),
    ({"user": 7}, False),  # taken in group 1, accepted in group 2
    ({"user": "x"}, True),  # a body no successful call sent: a validation failure
], ids=["never-refused", "refused-where-accepted", "refused-another-body"])
def test_a_create_refused_where_accepted_is_not_served(refused_body, served, tmp_path) -> None:
    bundle = build_from(capture(refused_body), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/groups/{group_id}/members")
    assert create.served is served, create.reason
    if not served:
        assert create.reason == "conditional-create"
