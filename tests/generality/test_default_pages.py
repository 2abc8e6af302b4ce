"""Lists the application caps at a default page size when the call names none (a bare array of at
most 4 notes): a create pushing the collection past the cap leaves the unqueried list answering
its first 4. The gate learns the cap from those lists (``view-default-page-caps``), records it in
the view, and predicts, and serving renders, the first 4 members; the create is served, and the
model's list after more creates answers as the application does."""

from __future__ import annotations

import json
from pathlib import Path

from capenv.serving.compare.sides import Outgoing, RuntimeSide
from capenv.serving.runtime import EnvironmentRuntime

from .convention_app import ConventionApp, Conventions
from .holding import hold


def test_a_list_capped_at_a_default_page_lists_its_first_members(tmp_path: Path) -> None:
    conventions = Conventions("bare-lists-capped-at-4", page_size=4)
    bundle, _ = hold(conventions, tmp_path, ())
    creates = {plan.tool: plan for plan in bundle.view.writes if plan.tool == "post_notes"}
    assert creates["post_notes"].served, creates["post_notes"].reason
    notes = next(v for v in bundle.view.views if v.kind == "list" and v.type == "notes")
    assert notes.default_page is not None and notes.default_page.size == 4
    assert notes.default_page.rule_id == "page-cap.one-size-below-held"
    model, app = RuntimeSide(EnvironmentRuntime(bundle)), ConventionApp(conventions)
    for title in ("one", "two", "three"):
        call = Outgoing("POST", conventions.collection("notes"), (), (("content-type", "application/json"),),
                        json.dumps({"title": title, "body": f"body of {title}", "done": False}).encode())
        assert model.send(call).status < 300 and app.send(call).status < 300
    listed = Outgoing("GET", conventions.collection("notes"), (), (), None)
    shown = json.loads(model.send(listed).body)
    assert len(shown) == 4 and [n["title"] for n in shown] == [n["title"] for n in json.loads(app.send(listed).body)]


def test_lists_never_past_the_held_collection_learn_no_cap(tmp_path: Path) -> None:
    bundle, _ = hold(Conventions("bare-lists-unpaged"), tmp_path, ())
    assert all(v.default_page is None for v in bundle.view.views)
