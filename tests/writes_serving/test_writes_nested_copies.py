"""Writes other entities' copies would contradict.

Issues answer their version as a reference object copying its name ({"id": 3, "name": "beta"}):
renaming or deleting version 3 changes what the issue's reads show too, which a write of the one
entity does not model, so serving refuses it while a held entity carries such a copy (an update of
a member no copy shows, or of a version no issue names, is served)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state


VERSIONS = [{"id": n, "name": name, "status": "open", "parent": None} for n, name in ((1, "1.0"), (2, "2.0"), (3, "beta"), (4, "gamma"))]
ISSUES = [{"id": 1, "subject": "s1", "version": {"id": 1, "name": "1.0"}},
          {"id": 2, "subject": "s2", "version": {"id": 3, "name": "beta"}},
          # another kind of object numbered like version 4, sharing only a null with it: not a copy
          {"id": 3, "subject": "s3", "project": {"id": 4, "name": "Website", "parent": None}}]


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/versions", response=VERSIONS)
    for version in VERSIONS:
        har.call("GET", f"/versions/{version['id']}", response=version)
    har.call("GET", "/issues", response=ISSUES)
    for issue in ISSUES:
        har.call("GET", f"/issues/{issue['id']}", response=issue)
    renamed = {**VERSIONS[1], "name": "two-rc", "status": "locked"}
    har.call("PATCH", "/versions/2", body={"name": "two-rc", "status": "locked"}, response=renamed)
    har.call("GET", "/versions/2", response=renamed)
    closed = {**VERSIONS[3], "status": "closed"}
    har.call("PATCH", "/versions/4", body={"status": "closed"}, response=closed)
    har.call("GET", "/versions/4", response=closed)
    har.call("DELETE", "/versions/2", status=204)
    har.call("GET", "/versions/2", status=404, response={"error": "not found"})
    har.call("GET", "/versions", response=[VERSIONS[0], VERSIONS[2], closed])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("copies") / "capture.har")


def call(bundle, method: str, path: str, body: dict | None = None) -> tuple[int, dict, bool]:
    """The status, the answer, and whether the state is unchanged."""
    status, answer, before, after = sent_beside_the_state(bundle, method, path, body)
    return status, answer, after == before


def test_the_plans_are_served(bundle) -> None:
    assert plan(bundle, "PATCH", "/versions/{version_id}").served
    assert plan(bundle, "DELETE", "/versions/{version_id}").served


def test_renaming_a_version_an_issue_copies_is_refused(bundle) -> None:
    status, answer, unchanged = call(bundle, "PATCH", "/versions/3", {"name": "beta-1"})
    assert status == 400 and unchanged, answer
    assert "issues entity 2" in answer["message"] and '"name"' in answer["message"], answer


def test_a_member_no_copy_shows_is_served(bundle) -> None:
    status, answer, unchanged = call(bundle, "PATCH", "/versions/3", {"status": "locked"})
    assert status == 200 and answer["status"] == "locked" and not unchanged, answer


def test_a_version_no_issue_names_is_renamed(bundle) -> None:
    status, answer, _ = call(bundle, "PATCH", "/versions/4", {"name": "delta"})
    assert status == 200 and answer["name"] == "delta", answer


def test_deleting_a_version_an_issue_copies_is_refused(bundle) -> None:
    status, answer, unchanged = call(bundle, "DELETE", "/versions/1")
    assert status == 400 and unchanged and "issues" in answer["message"], answer  # a referrer or a copy
    status, answer, unchanged = call(bundle, "DELETE", "/versions/4")
    assert status == 204 and not unchanged, answer  # issue 3's project 4 shows another name: not a copy
