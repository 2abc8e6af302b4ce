"""A manifest's routing table: the tools grouped once by method and segment count.

``Manifest.route`` tries every tool of the manifest on every request, and a 404 or 405 asked it
once per tool more; a server routes each request through ``RouteTable`` instead, which gives the
same answers (a path fits only a template of as many segments, so only those are tried, in the
manifest's order) at the cost of the few tools of that shape.
"""

from __future__ import annotations

from capenv.interpreter.bundle.paths import has_trailing_slash, split_path
from capenv.interpreter.manifest.models import Manifest, Tool, best_of_parts


class RouteTable:
    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        self._by_shape: dict[tuple[str, int], list[Tool]] = {}
        for tool in manifest.tools:
            self._by_shape.setdefault((tool.method, len(tool.segments)), []).append(tool)
        self.methods = tuple(sorted({tool.method for tool in manifest.tools}))
        """Every method some tool answers."""

    def tool_for(self, method: str, path: str) -> tuple[Tool, dict[str, str]] | None:
        """``Manifest.tool_for``: the tool answering ``method path`` (folded), and its arguments."""
        path = self.manifest.fold_path(path)
        parts = split_path(path)  # once, for every tool of the path's shape
        return best_of_parts(self._by_shape.get((method, len(parts)), ()), parts, has_trailing_slash(path))

    def route(self, method: str, path: str) -> tuple[Tool, dict[str, str], str] | None:
        """``Manifest.route``: the tool answering a request path as sent, its arguments, and the path
        as capenv reads it."""
        return self.manifest.route_by(self.tool_for, method, path)
