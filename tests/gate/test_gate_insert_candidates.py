"""A list that fails only for where one create placed its entity (write-effects, "The gate",
"Attribution": "…passes when another of that create's insert candidates reproduces it, which then
becomes the plan's rule, unless an earlier list check relied on the rule")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary

# random (version 4) identities: the initial order by them is a coincidence, so the plan's rule is last
A = {"id": "3a1f8a52-3c7e-4d0a-9f1e-2a7c4e6b8d90", "title": "a"}
B = {"id": "5b1f8a52-3c7e-4d0a-9f1e-2a7c4e6b8d91", "title": "b"}
C = {"id": "8c1f8a52-3c7e-4d0a-9f1e-2a7c4e6b8d92", "title": "c"}
Z = {"id": "0d1f8a52-3c7e-4d0a-9f1e-2a7c4e6b8d93", "title": "z"}


def _two_creates(list_between: bool):
    builder = (items_app([A, B])
               .call("POST", "/items", body={"title": "c"}, status=201, response=C)      # 4
               .call("GET", f"/items/{C['id']}", response=C))                          # 5
    if list_between:
        builder.call("GET", "/items", response=[A, B, C])                             # 6: relies on last
    return build_from(builder
                      .call("POST", "/items", body={"title": "z"}, status=201, response=Z)
                      .call("GET", f"/items/{Z['id']}", response=Z)
                      .call("GET", "/items", response=[Z, A, B, C]))                  # z placed by its id


def test_a_list_another_insert_candidate_reproduces_passes_and_that_candidate_becomes_the_rule():
    bundle = _two_creates(list_between=False)
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None and create.served, summary(bundle)
    assert create.checked_record_ordinals[-1] == 8, summary(bundle)
    assert create.insert is not None and create.insert.kind in ("sorted", "first"), create.insert
    if create.insert.kind == "sorted":
        assert (create.insert.field, create.insert.descending) == ("id", False)


def test_a_rule_an_earlier_list_check_relied_on_is_not_replaced():
    bundle = _two_creates(list_between=True)
    create = plan(bundle, "POST", "/items")
    assert (create.reason, create.contradicted_by) == ("contradicted", 9), summary(bundle)
    assert create.insert is not None and create.insert.kind == "last"
