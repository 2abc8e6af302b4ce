"""Projection queries (``fields=title,done``, ``fields[0]=title``, ``fields[]=title``): learned from
the session's projected reads, served from the state on members and entities the session never
read so (after a create and an update), over HTTP and MCP alike, and refused where no recording
proves the form: a path into a member, a member no entity holds, another spelling of the
parameter, and a wildcard the session never sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.serving.compare import REFUSED, SAME
from capenv.serving.runtime import EnvironmentRuntime

from . import convention_shapes as shapes
from .convention_projection import REFUSED_FORMS, SERVED, spelled
from .conventions import Conventions
from .holding import hold
from .scenario import PLAIN_WRITES

WRITES = PLAIN_WRITES + ("create a projected note", "update the projected note")
CASES = [
    Conventions("projection-comma", projection="comma"),
    Conventions("projection-comma-keeps-id-data-uuid", projection="comma-keeps-id", list_shape="data",
                item_shape="data", body_shape="data", ids="uuid"),
    Conventions("projection-indexed-data-meta-total", projection="indexed", list_shape="data_meta_total",
                item_shape="data", body_shape="data"),
    # a projection beside a learned sort (order_by=-title&fields=id,title,done): both evaluated over the state
    Conventions("projection-comma-order-by", projection="comma", query_style="order_by"),
    Conventions("projection-appended-wildcard-slash", projection="appended", projection_wildcard_recorded=True,
                slash=True, update="PUT"),
    Conventions("projection-jsonapi-sparse-fieldsets", projection="typed", list_shape="jsonapi", item_shape="jsonapi",
                body_shape="jsonapi", ids="text-sequence"),
]
JSONAPI_SERVED = ("seeded note 2 projected",)
"""JSON:API's creates and updates are not served (tests/generality/test_more_conventions.py): its
projections are held on a seeded note, the attributes named and the resource's id and type kept."""


@pytest.mark.parametrize("conventions", CASES, ids=lambda c: c.name)
def test_projections_are_served_from_the_state_and_unproven_forms_refused(conventions: Conventions,
                                                                          tmp_path: Path) -> None:
    jsonapi = conventions.projection == "typed"
    bundle, results = hold(conventions, tmp_path, ("delete seeded tag 2",) if jsonapi else WRITES)
    verdicts = {r.probe.name: r.verdict for r in results}
    served = JSONAPI_SERVED if jsonapi else SERVED + (("projected notes in a learned order",)
                                                        if conventions.query_style == "order_by" else ())
    assert {name: verdicts[name] for name in served} == dict.fromkeys(served, SAME)
    refused = REFUSED_FORMS + (() if conventions.projection_wildcard_recorded else ("every member",))
    assert {name: verdicts[name] for name in refused} == dict.fromkeys(refused, REFUSED)
    if conventions.projection_wildcard_recorded:
        assert verdicts["every member"] == SAME
    _served_over_mcp(bundle, conventions)


def _served_over_mcp(bundle, conventions: Conventions) -> None:
    """The same projection as a tool call: answered from the state after a create (JSON:API: on a
    seeded note, its list being unserved), and a path into a member refused with the reason."""
    runtime = EnvironmentRuntime(bundle)
    query = _arguments(spelled(conventions, "title", "done"))
    if conventions.projection == "typed":  # the resource's type and id, and the attributes named
        item = next(v for v in bundle.view.views if v.kind == "item" and v.projections and "notes" in v.tool)
        answer = runtime.read(item.tool, {"note_id": "2", "query": query})
        assert answer["state"]["source"] == "state"
        assert answer["body"]["data"] == {"type": "notes", "id": "2", "attributes": {"title": "Call Ana", "done": True}}
        return
    view = next(v for v in bundle.view.views if v.kind == "list" and v.projections and "notes" in v.tool)
    create = next(p.tool for p in bundle.view.writes if p.served and p.effect == "create" and "notes" in p.tool)
    members = {"title": "Over MCP", "body": "a tool call", "done": True}
    assert not runtime.call_tool(create, {"body": shapes.body(conventions, "notes", members)}).is_error
    answer = runtime.read(view.tool, {"query": query})
    assert answer["state"]["source"] == "state" and answer["projection"]["param"] == view.projections[0].param
    listed = answer["body"] if conventions.list_shape == "bare" else answer["body"]["data"]
    assert {"title": "Over MCP", "done": True} in [{k: v for k, v in e.items() if k != "id"} for e in listed]
    kept = {"id"} if conventions.projection in ("comma-keeps-id", "indexed") else set()
    assert all(set(e) == {"title", "done"} | kept for e in listed)
    dotted = runtime.call_tool(view.tool, {"query": _arguments(spelled(conventions, "author.name"))})
    assert dotted.is_error and "path into a member" in dotted.structured["message"]


def _arguments(pairs: tuple[tuple[str, str], ...]) -> dict[str, str | list[str]]:
    """Query pairs as a tool's ``query`` argument (a repeated name as an array)."""
    query: dict[str, list[str]] = {}
    for name, value in pairs:
        query.setdefault(name, []).append(value)
    return {name: values[0] if len(values) == 1 else values for name, values in query.items()}
