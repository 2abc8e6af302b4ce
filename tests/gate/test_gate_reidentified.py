"""An entity a list names anew on every read (gate/reidentified.py): a later whole list lacking
a held id, but listing under an id the copy does not hold an object whose every other member is
the held entity's (its id in text read as the new one), shows the entity renamed, not removed, so
no write in between is blamed for its absence (gate/absences.py, the ``gate-reidentified`` table). Two writes lie between the
role lists, as in a capture, so no one call is taken to have changed them (write-cascades). One member otherwise, or too few
members alike, and the absence is a side effect as before."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder
from support.rules_copy import edit_pattern

S1 = {"id": "s1", "name": "one"}
S2 = {"id": "s2", "name": "two"}


def _role(ident: str, match: str = "admin", scopes: tuple[str, ...] = ("read", "write")) -> dict:
    return {"id": ident, "href": f"http://app.test/roles/{ident}", "match": match, "scopes": list(scopes)}


def _app(later: list[dict]) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/api/sessions", response=[S1, S2])                          # 1
            .call("GET", "/api/sessions/s1", response=S1)                             # 2
            .call("GET", "/api/roles", response=[_role("r-00000001"), _role("r-00000002", "guest")])  # 3
            .call("GET", "/api/sessions/s9", status=404, response={"message": "no such session"})  # 4
            .call("DELETE", "/api/sessions/s1", status=204)                           # 5
            .call("GET", "/api/sessions/s1", status=404, response={"message": "no such session"})  # 6
            .call("GET", "/api/sessions", response=[S2])                              # 7
            .call("PATCH", "/api/sessions/s2", body={"name": "deux"}, response={**S2, "name": "deux"})  # 8
            .call("GET", "/api/sessions/s2", response={**S2, "name": "deux"})         # 9
            .call("GET", "/api/roles", response=later))                               # 10


def test_a_role_listed_again_under_a_new_id_blames_no_write():
    bundle = build_from(_app([_role("r-00000009"), _role("r-00000002", "guest")]))
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    rename = plan(bundle, "PATCH", "/api/sessions/{session_id}")
    assert delete.served and delete.contradicted_by is None, summary(bundle)
    assert rename.served and rename.contradicted_by is None, summary(bundle)


def test_a_role_listed_otherwise_under_a_new_id_is_still_a_side_effect():
    bundle = build_from(_app([_role("r-00000009", scopes=("read",)), _role("r-00000002", "guest")]))
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.reason, delete.contradicted_by) == ("side-effect", 10), summary(bundle)


def test_a_new_id_naming_a_held_entity_renames_nothing():
    """The other object is the held guest role itself: the admin role is gone."""
    bundle = build_from(_app([_role("r-00000002", "guest")]))
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.reason, delete.contradicted_by) == ("side-effect", 10), summary(bundle)


def test_a_maintainer_asking_more_members_alike_sees_the_absence_blamed(rules_dir):
    """match and scopes agree as they are, href only with the id read anew: two members, so a
    table asking three takes the role for gone (``reidentified.all-else-alike``)."""
    edit_pattern(rules_dir / "gate-reidentified.yaml", r"min_members: 2", "min_members: 3")
    bundle = build_from(_app([_role("r-00000009"), _role("r-00000002", "guest")]), rules=rules_dir)
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.reason, delete.contradicted_by) == ("side-effect", 10), summary(bundle)
