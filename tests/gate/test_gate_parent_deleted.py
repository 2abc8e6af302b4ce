"""A read beneath an entity a write in between deleted (``DELETE /lists/2`` before ``GET
/lists/2/entries/4`` answered 404) shows that delete's cascade (the ``gate-absence-blame`` table, gate/read_check._blamed_alone):
the absence is blamed on the delete alone, not on every write on a related path since, so a
create of another list stays served while the delete is the one refused."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder
from support.rules_copy import edit_pattern

L1, L2 = {"id": 1, "name": "downloads"}, {"id": 2, "name": "watch"}
E3 = {"id": 3, "list_id": 1, "title": "Open.Movie"}
E4 = {"id": 4, "list_id": 2, "title": "Big.Buck"}
GONE = {"message": "not found", "status_code": 404}


def _app(cascade: bool) -> HarBuilder:
    builder = (HarBuilder()
               .call("GET", "/api/lists", response=[L1, L2])                               # 1
               .call("GET", "/api/lists/1", response=L1)                                   # 2
               .call("GET", "/api/lists/9", status=404, response=GONE)                     # 3
               .call("GET", "/api/lists/1/entries", response=[E3])                         # 4
               .call("GET", "/api/lists/2/entries", response=[E4])                         # 5
               .call("GET", "/api/lists/2/entries/4", response=E4)                         # 6
               .call("GET", "/api/lists/2/entries/9", status=404, response=GONE)           # 7
               .call("POST", "/api/lists", body={"name": "queue"}, status=201, response={"id": 3, "name": "queue"})  # 8
               .call("GET", "/api/lists/3", response={"id": 3, "name": "queue"})           # 9
               .call("GET", "/api/lists", response=[L1, L2, {"id": 3, "name": "queue"}])   # 10
               .call("DELETE", "/api/lists/2", response={"message": "deleted"})            # 11
               .call("GET", "/api/lists/2", status=404, response=GONE))                    # 12
    if cascade:
        builder.call("GET", "/api/lists/2/entries/4", status=404, response=GONE)           # 13
    return builder


def test_an_entry_gone_with_its_deleted_list_blames_the_delete_alone():
    bundle = build_from(_app(cascade=True))
    create = plan(bundle, "POST", "/api/lists")
    delete = plan(bundle, "DELETE", "/api/lists/{list_id}")
    assert create.served and create.contradicted_by is None, summary(bundle)
    assert not delete.served, summary(bundle)


def test_without_the_cascade_read_both_stand_as_before():
    bundle = build_from(_app(cascade=False))
    assert plan(bundle, "POST", "/api/lists").served, summary(bundle)


def test_a_maintainer_dropping_delete_from_the_rule_blames_every_write_again(rules_dir):
    """The choice is the table's: with no method it names, the create shares the blame."""
    edit_pattern(rules_dir / "gate-absence-blame.yaml", r"methods: \[DELETE\]", "methods: [PURGE]")
    bundle = build_from(_app(cascade=True), rules=rules_dir)
    assert not plan(bundle, "POST", "/api/lists").served, summary(bundle)
