"""Build a bundle from a ``HarBuilder`` capture and look up its write plans, for tests.

    from support.capture_runs import build_from, plan

    bundle = build_from(HarBuilder().call(...).call(...))
    created = plan(bundle, "POST", "/items")          # by method and template
    created = plan(bundle, "post_items")              # or by tool name

Record ordinals count from 1 in start order: when every ``.call`` starts after the previous one
(the builder's default), the n-th call is record n.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.pipeline import build_bundle

from .har_builder import HarBuilder


def items_app(entities: list[dict[str, Any]] | None = None, builder: HarBuilder | None = None) -> HarBuilder:
    """A small fake REST app's initial reads: ``GET /items`` (the whole list), then ``GET /items/{id}``
    of each entity, as records 1, 2, … (default entities: ``{"id": 1, "title": "t1"}`` and 2)."""
    builder = builder or HarBuilder()
    entities = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}] if entities is None else entities
    builder.call("GET", "/items", response=entities)
    for entity in entities:
        builder.call("GET", f"/items/{entity['id']}", response=entity)
    return builder


def tag_limit(n: int, tag: str) -> dict[str, Any]:
    """A limit of the ``limits_app``: UUID identity ``id``, also named by its ``tag``."""
    return {"id": f"a1b2c3d4-0000-4000-8000-00000000000{n}", "tag": tag, "limit": n}


def limits_app(builder: HarBuilder | None = None) -> HarBuilder:
    """An app whose limits the initial window reads only by tag (``GET /limits/tag/{tag}`` of
    limits 1 "alpha" and 2 "beta", records 1 and 2): the item view's key is ``tag``, so an item
    read by id (``/limits/{id}``) is a view no window read proves, answered by replay."""
    builder = builder or HarBuilder()
    return (builder.call("GET", "/limits/tag/alpha", response=tag_limit(1, "alpha"))
            .call("GET", "/limits/tag/beta", response=tag_limit(2, "beta")))


def build_from(builder: HarBuilder, path: str | Path | None = None, *, rules: Path | None = None) -> Bundle:
    """Write the builder's HAR (to ``path``, else a temporary file) and run the whole build (with
    the rule tables in ``rules``, as ``--rules`` would, else the packaged ones)."""
    rules_arg = str(rules) if rules is not None else None
    if path is not None:
        return build_bundle(builder.write(path), rules=rules_arg)
    with tempfile.TemporaryDirectory(prefix="capenv-capture-") as folder:
        return build_bundle(builder.write(Path(folder) / "capture.har"), rules=rules_arg)


def tool_name(bundle: Bundle, method_or_name: str, template: str | None = None) -> str:
    """The manifest tool with that name, or with that method and path template."""
    for tool in bundle.manifest.tools:
        if template is None and tool.name == method_or_name:
            return tool.name
        if template is not None and tool.method == method_or_name and tool.template == template:
            return tool.name
    known = ", ".join(f"{t.name} ({t.method} {t.template})" for t in bundle.manifest.tools)
    raise KeyError(f"no tool {method_or_name} {template or ''}; the manifest has: {known}")


def plan(bundle: Bundle, method_or_name: str, template: str | None = None) -> WritePlan:
    """The write plan of a tool (by name, or by method and template); KeyError when it has none."""
    name = tool_name(bundle, method_or_name, template)
    for write in bundle.view.writes:
        if write.tool == name:
            return write
    raise KeyError(f"tool {name} has no write plan; plans: {[w.tool for w in bundle.view.writes]}")


def validated_rules(bundle: Bundle, writes: tuple[tuple[str, str], ...], learned: bool) -> list:
    """The one validated-value rule each served write (method, template) learned, or none when
    ``learned`` is false (no refusal showed the member validated): asserted either way."""
    rules = []
    for method, template in writes:
        write = plan(bundle, method, template)
        assert write.served, write.reason
        if not learned:
            assert write.validated_values == ()
            continue
        (rule,) = write.validated_values
        rules.append(rule)
    return rules


def has_plan(bundle: Bundle, method_or_name: str, template: str | None = None) -> bool:
    try:
        plan(bundle, method_or_name, template)
    except KeyError:
        return False
    return True


def recorded_body(bundle: Bundle, ordinal: int) -> Any:
    """The JSON response body record ``ordinal`` recorded (from the bundle's replay table)."""
    for calls in bundle.replay.tools.values():
        for call in calls:
            if call.ordinal == ordinal:
                return call.response.body
    raise KeyError(f"record {ordinal} is in no tool's replay table")


def summary(bundle: Bundle) -> dict[str, tuple]:
    """tool -> (effect, served, reason, contradicted_by, checked_record_ordinals): for assertion messages."""
    return {p.tool: (p.effect, p.served, p.reason, p.contradicted_by, p.checked_record_ordinals)
            for p in bundle.view.writes}


def verdict_evidence(write: WritePlan) -> dict[str, Any]:
    """The evidence of the plan's one matching verdict trace event (the gate's verdict, explained)."""
    events = [e for e in write.traces if e.table == "verdicts" and e.outcome == "match"]
    assert len(events) == 1, [(e.rule_id, e.outcome) for e in write.traces if e.table == "verdicts"]
    return dict(events[0].evidence)
