"""A filtered list line no learned query covers answers its recorded members (seeds: "Not modelled":
membership of filtered lists): a later recording of it listing a create's entity contradicts the
create, and the note says why, not only where the answers part (a group made in a classroom, its
classroom's groups read by ?parent=)."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

G1 = {"id": "f4f30e2e77f98b49743ed08c0321aad6", "name": "Readers", "parent": "c1", "user_ids": []}
G2 = {"id": "65cb479aff0ef146baa780bbdd6708da", "name": "Writers", "parent": "c1", "user_ids": []}


def test_a_recorded_membership_line_listing_a_created_entity_says_it_answers_its_recorded_members():
    builder = (HarBuilder()
               .call("GET", "/groups/", query=[("parent", "c1")], response=[G1])               # 1
               .call("GET", f"/groups/{G1['id']}/", response=G1)                               # 2
               .call("GET", "/groups/0123456789abcdef0123456789abcdef/", status=404,
                     response={"detail": "Not found."})                                        # 3
               .call("POST", "/groups/", body={"name": "Writers", "parent": "c1"}, status=201,
                     response=G2)                                                              # 4
               .call("GET", f"/groups/{G2['id']}/", response=G2)                               # 5
               .call("GET", "/groups/", query=[("parent", "c1")], response=[G2, G1]))          # 6
    bundle = build_from(builder)
    create = plan(bundle, "POST", "/groups/")
    assert (create.served, create.contradicted_by) == (False, 6), summary(bundle)
    note = next(t for t in create.traces if t.rule_id == "verdict.contradicted" and t.outcome == "match")
    assert "answers its recorded members" in note.evidence["difference"], note.evidence
    assert G2["id"] in note.evidence["difference"]
