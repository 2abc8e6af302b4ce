"""An item path whose word shortens the envelope member its answer names (``/perm/{id}`` answering
``{"permission": {…}, "status": "ok"}`` beside the list ``/perms``, Alerta's permissions): the
object is the entity (envelope.spelled-out-path-word), so the item path is the type's item view
and its delete an item delete, served; a path word too short to read as a shortening stays a
document read, its delete unserved."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

P1 = {"id": "e1000000-0000-4000-8000-000000000001", "match": "ops", "scopes": ["read"]}
P2 = {"id": "e1000000-0000-4000-8000-000000000002", "match": "viewer", "scopes": ["read", "write"]}
P3 = {"id": "e1000000-0000-4000-8000-000000000003", "match": "auditor", "scopes": ["read:alerts"]}
MISSING = {"code": 404, "message": "not found", "status": "error"}


def shortened(word: str, member: str) -> HarBuilder:
    """A list at /{word}s and items at /{word}/{id} answered under ``member``."""
    def listed(items: list) -> dict:
        return {"status": "ok", "total": len(items), f"{member}s": items}
    return (HarBuilder()
            .call("GET", f"/{word}s", response=listed([P1, P2, P3]))                                 # 1
            .call("GET", f"/{word}/{P1['id']}", response={member: P1, "status": "ok", "total": 1})  # 2
            .call("GET", f"/{word}/{P2['id']}", response={member: P2, "status": "ok", "total": 1})  # 3
            .call("GET", f"/{word}/{P3['id']}", response={member: P3, "status": "ok", "total": 1})  # 4
            .call("DELETE", f"/{word}/{P2['id']}", response={"status": "ok"})                     # 5
            .call("GET", f"/{word}/{P2['id']}", status=404, response=MISSING)                      # 6
            .call("GET", f"/{word}s", response=listed([P1, P3])))                                  # 7


def test_an_item_answer_under_the_spelled_out_word_is_the_item():
    bundle = build_from(shortened("perm", "permission"))
    item = bundle.view.view("get_perm_by_perm_id")
    assert (item.kind, item.locator.member, item.state_backed) == ("item", "permission", True)
    delete = plan(bundle, "DELETE", "/perm/{perm_id}")
    assert (delete.effect, delete.served) == ("delete", True), delete.reason
    runtime = EnvironmentRuntime(bundle)
    runtime.read("delete_perm_by_perm_id", {"perm_id": P3["id"]})
    assert [p["id"] for p in runtime.read("get_perms")["body"]["permissions"]] == [P1["id"], P2["id"]]  # the state as the capture began
    assert runtime.read("get_perm_by_perm_id", {"perm_id": P1["id"]})["body"]["permission"]["match"] == "ops"


def test_a_short_path_word_is_no_shortening():
    bundle = build_from(shortened("pe", "permission"))
    assert bundle.view.view("get_pe_by_pe_id").kind == "document"
    assert not plan(bundle, "DELETE", "/pe/{pe_id}").served
