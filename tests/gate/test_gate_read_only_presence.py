"""A read-only POST's recording shows an entity present (gate/presence.py): a write no plan models
left a deployment unknown, a later filter POST still listed it, and deleting its flow made it
answer 404. The flow delete removed it as a side effect (Prefect's DELETE /api/flows/{id}); without
the listing, the unmodelled write may have removed it, and the delete stays served."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

F1 = {"id": "e08d6d51-e7d3-4687-b826-a086ef48888b", "name": "etl"}
F2 = {"id": "f3ded7c9-75bc-4541-a3da-5f138cd94f9c", "name": "train"}
D1 = {"id": "e97d3508-0107-476d-863d-a523d57c8b23", "name": "nightly", "flow_id": F1["id"]}
GONE_F, GONE_D = {"detail": "Flow not found"}, {"detail": "Deployment not found"}


def _app(listed: bool) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/api/flows", response=[F1, F2])                                       # 1
           .call("GET", f"/api/flows/{F1['id']}", response=F1)                                 # 2
           .call("GET", f"/api/flows/{F2['id']}", response=F2)                                 # 3
           .call("GET", "/api/deployments", response=[D1])                                     # 4
           .call("GET", f"/api/deployments/{D1['id']}", response=D1)                           # 5
           .call("GET", "/api/flows/0a9fa248-2be8-496c-bc8e-3a0f61e263f0", status=404, response=GONE_F)  # 6
           .call("GET", "/api/deployments/9a63d9f9-cf36-4a4c-9cfc-8ba280b23db2", status=404,
                 response=GONE_D)                                                               # 7
           .call("POST", f"/api/deployments/{D1['id']}/create_run", body={"n": 1}, status=201,
                 response={"run": "f7f7abe9-07c4-4563-995e-79fd55d28a6e", "deployment_id": D1["id"]}))  # 8
    if listed:
        har = har.call("POST", "/api/deployments/filter", body={}, response=[D1])               # 9
    return (har.call("DELETE", f"/api/flows/{F2['id']}", status=204)
            .call("GET", f"/api/flows/{F2['id']}", status=404, response=GONE_F)
            .call("DELETE", f"/api/flows/{F1['id']}", status=204)
            .call("GET", f"/api/flows/{F1['id']}", status=404, response=GONE_F)
            .call("GET", f"/api/deployments/{D1['id']}", status=404, response=GONE_D))


def test_an_unknown_entity_a_read_only_post_listed_blames_the_delete_that_removed_it():
    bundle = build_from(_app(listed=True))
    delete = plan(bundle, "DELETE", "/api/flows/{flow_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 14), summary(bundle)
    note = next(t for t in delete.traces if "absences.py" in (t.location or ""))
    assert "record 9 (a read-only POST) listed it" in note.reason and "record 12" in note.reason


def test_without_the_listing_the_unmodelled_write_may_have_removed_it():
    bundle = build_from(_app(listed=False))
    delete = plan(bundle, "DELETE", "/api/flows/{flow_id}")
    assert delete.served and delete.contradicted_by is None, summary(bundle)


def test_a_listing_inside_an_envelope_around_the_page_is_a_listing():
    """The filter POST answers ``{"code": 0, "msg": "ok", "data": {"list": [...], "total": 1}}``
    (found by answering every 2xx so: Prefect's flow delete became served, its side effect on the
    deployment hidden)."""
    def nest(value: object) -> dict:
        return {"code": 0, "msg": "ok", "data": {"list": value, "total": len(value)}}
    har = _app(listed=True)
    for entry in har.har()["log"]["entries"]:
        if entry["request"]["method"] == "POST" and entry["request"]["url"].endswith("/filter"):
            entry["response"]["content"]["text"] = json.dumps(nest([D1]))
    bundle = build_from(har)
    delete = plan(bundle, "DELETE", "/api/flows/{flow_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 14), summary(bundle)
