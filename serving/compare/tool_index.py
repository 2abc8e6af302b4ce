"""What the bundle says about a call: its tool, whether the model serves that tool, whether
the call writes, and which paths a write changes (its *scope*).

"Served" is the bundle report's word: a read tool answered from the state
(``reads[].state_backed``) or a write tool whose plan is served (``writes[].served``).
Anything else answers by replay or not at all, and may disagree with the live application.
"""

from __future__ import annotations

from dataclasses import dataclass

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.manifest.models import Tool, split_path

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class CallTool:
    name: str | None
    served: bool
    writes: bool


class ToolIndex:
    def __init__(self, bundle: Bundle) -> None:
        self._manifest = bundle.manifest
        report = bundle.report
        self._served = {r["tool"] for r in report.get("reads", []) if r.get("state_backed")}
        self._served |= {w["tool"] for w in report.get("writes", []) if w.get("served")}
        self._read_only_posts = {p["tool"] for p in report.get("read_only_posts", [])}
        self._collections = {t.collection_template for t in bundle.view.types}
        self._items = {t.item_template for t in bundle.view.types if t.item_template}

    def tool(self, method: str, path: str) -> CallTool:
        found = self._manifest.tool_for("GET" if method == "HEAD" else method, path)
        if found is None:
            return CallTool(None, False, method not in READ_METHODS)
        tool = found[0]
        writes = tool.changes_state and tool.name not in self._read_only_posts
        return CallTool(tool.name, tool.name in self._served, writes)

    def write_scopes(self, method: str, path: str) -> list[tuple[str, ...]]:
        """The path prefixes a write may change: reads under them can no longer be expected
        to agree once the model did not make that write as the application did.

        An item write changes its collection (which lists it); a create changes the
        collection it creates in; any other write (an action, a document, a nested create)
        changes its own path and, when it sits under an item, that item's collection.
        """
        parts = segments(path)
        found = self._manifest.tool_for(method, path)
        template = found[0] if found else None
        if template is not None and template.template in self._collections:
            return [parts]
        if template is not None and template.template in self._items:
            return [parts[:-1]]
        params = _param_positions(template, parts, method)
        if parts and (len(parts) - 1) in params:
            return [parts[:-1]]
        scopes = [parts]
        if len(parts) >= 2 and (len(parts) - 2) in params:
            scopes.append(parts[:-2])
        return scopes


def within(path: str, scope: tuple[str, ...]) -> bool:
    """Whether ``path`` lies at or under ``scope`` (segment by segment)."""
    parts = segments(path)
    return parts[: len(scope)] == scope


def segments(path: str) -> tuple[str, ...]:
    parts = split_path(path)
    while parts and parts[-1] == "":  # /api/flows/ and /api/flows name one collection
        parts = parts[:-1]
    return tuple(parts)


def _param_positions(tool: Tool | None, parts: tuple[str, ...], method: str) -> set[int]:
    if tool is not None:
        return {i for i, segment in enumerate(tool.segments) if segment.is_param}
    # No tool in the manifest: guess the usual shape, an item write ends in its id.
    return {len(parts) - 1} if method in ("PUT", "PATCH", "DELETE") and parts else set()
