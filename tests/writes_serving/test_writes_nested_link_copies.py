"""A copy of an entity that shows its own link instead of its identity member.

Pulp answers a user with the groups it belongs to as ``{name, pulp_href, prn}``: the group's name
beside its href (``/pulp/api/v3/groups/1/``), without the group's ``id``. Renaming group 1 changes
what the user's reads show, which a write of the one group does not model, so serving refuses it
while a held entity shows such a copy: the copy names the group by a member holding its identity as
a token (its href) that no other group holds. Found by tests/live -k pulp: the served
PATCH /pulp/api/v3/groups/1/ renamed the group while GET /pulp/api/v3/users/2/ kept answering the
old name in its groups (the judge counted it different only because earlier refused writes had
diverged the session)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state



def group(n: int, name: str) -> dict:
    return {"name": name, "pulp_href": f"/api/groups/{n}/", "prn": f"prn:core.group:{n}", "id": n}


def shown(g: dict) -> dict:
    return {k: g[k] for k in ("name", "pulp_href", "prn")}


GROUPS = [group(1, "editors"), group(2, "qa"), group(3, "ops")]
USERS = [{"id": 2, "username": "alice", "pulp_href": "/api/users/2/", "groups": [shown(GROUPS[0])]},
         {"id": 3, "username": "bob", "pulp_href": "/api/users/3/", "groups": []}]


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/api/groups/", response={"count": 3, "results": GROUPS})
    for g in GROUPS:
        har.call("GET", f"/api/groups/{g['id']}/", response=g)
    har.call("GET", "/api/users/", response={"count": 2, "results": USERS})
    for u in USERS:
        har.call("GET", f"/api/users/{u['id']}/", response=u)
    renamed = {**GROUPS[1], "name": "quality"}
    har.call("PATCH", "/api/groups/2/", body={"name": "quality"}, response=renamed)
    har.call("GET", "/api/groups/2/", response=renamed)
    har.call("GET", "/api/groups/", response={"count": 3, "results": [GROUPS[0], renamed, GROUPS[2]]})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("links") / "capture.har")


def call(bundle, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bool]:
    """The status, the answer, and whether the state is unchanged."""
    status, answer, before, after = sent_beside_the_state(bundle, method, path, body)
    return status, answer, after == before


def test_the_rename_is_served(bundle) -> None:
    assert plan(bundle, "PATCH", "/api/groups/{group_id}/").served


def test_renaming_a_group_a_user_shows_by_its_href_is_refused(bundle) -> None:
    status, answer, unchanged = call(bundle, "PATCH", "/api/groups/1/", {"name": "writers"})
    assert status == 400 and unchanged, answer
    assert "users entity" in answer["message"] and '"name"' in answer["message"], answer


def test_renaming_a_group_no_user_shows_is_served(bundle) -> None:
    status, answer, unchanged = call(bundle, "PATCH", "/api/groups/3/", {"name": "operations"})
    assert status == 200 and answer["name"] == "operations" and not unchanged, answer
