"""A nested collection whose entities the parent's own read embeds whole (a question's read
embedding its options, /questions/2/options/ beneath /questions/2): every create, delete or update
of a shown field of such an entity changes the parent's read too, a copy in another collection the
spec leaves unmodelled, so the write is not served (``copy.embedded-in-parent``, reason
``copied-entity``), even when the capture never read the parent again after the write. A parent
that names its children only by id (a pointer, no copy) leaves them served. Small integer ids:
the copy is told by every other member being equal, not by the identity's shape."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

RED = {"id": 1, "label": "red", "rank": 0}
BLUE = {"id": 2, "label": "blue", "rank": 1}
GREEN = {"id": 3, "label": "green", "rank": 2}


def boxes_app(embedded: bool) -> HarBuilder:
    def box(*colours):
        return {"id": 7, "name": "paint", "colours": [dict(c) if embedded else c["id"] for c in colours]}

    def page(*colours):
        return {"count": len(colours), "results": list(colours)}

    return (HarBuilder()
            .call("GET", "/boxes/7/", response=box(RED, BLUE))
            .call("GET", "/boxes/7/colours/", response=page(RED, BLUE))
            .call("GET", "/boxes/7/colours/1/", response=RED)
            .call("POST", "/boxes/7/colours/", body={"label": "green", "rank": 2}, status=201, response=GREEN)
            .call("GET", "/boxes/7/colours/3/", response=GREEN)
            .call("GET", "/boxes/7/colours/", response=page(RED, BLUE, GREEN))
            .call("PATCH", "/boxes/7/colours/3/", body={"label": "lime"}, response={**GREEN, "label": "lime"})
            .call("GET", "/boxes/7/colours/3/", response={**GREEN, "label": "lime"})
            .call("DELETE", "/boxes/7/colours/3/", status=204)
            .call("GET", "/boxes/7/colours/3/", status=404, response={"detail": "Not found."})
            .call("GET", "/boxes/7/colours/", response=page(RED, BLUE)))


def plans(embedded: bool):
    return {p.method: p for p in build_from(boxes_app(embedded)).view.writes}


def test_writes_of_children_the_parent_embeds_whole_are_not_served():
    written = plans(embedded=True)
    for method in ("POST", "PATCH", "DELETE"):
        plan = written[method]
        assert not plan.served and plan.reason == "copied-entity", (method, plan.reason)
        assert any(e.rule_id == "copy.embedded-in-parent" and e.outcome == "match" for e in plan.traces), method


def test_writes_of_children_the_parent_names_by_id_are_served():
    written = plans(embedded=False)
    for method in ("POST", "PATCH", "DELETE"):
        assert written[method].served, (method, written[method].reason)
