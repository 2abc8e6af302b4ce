"""A manifest's routing table: the tools grouped once by method and segment count.

``Manifest.route`` tries every tool of the manifest on every request, and a 404 or 405 asked it
once per tool more; a server routes each request through ``RouteTable`` instead, which gives the
same answers (a path fits only a template of as many segments, so only those are tried, the most
literal first, so the first that fits is the answer) at the cost of the few tools of that shape.
"""

from __future__ import annotations

from capenv.interpreter.bundle.paths import has_trailing_slash, split_path
from capenv.interpreter.manifest.models import Manifest, Tool, literal_count


class RouteTable:
    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        self._by_shape: dict[tuple[str, int], list[Tool]] = {}
        for tool in manifest.tools:
            self._by_shape.setdefault((tool.method, len(tool.segments)), []).append(tool)
        for tools in self._by_shape.values():
            # most literal segments first, the manifest's order among equals (a stable sort): the
            # first tool a path fits is then the one ``best_of_parts`` would choose of them all
            tools.sort(key=literal_count, reverse=True)
        self.methods = tuple(sorted({tool.method for tool in manifest.tools}))
        """Every method some tool answers."""

    def tool_for(self, method: str, path: str) -> tuple[Tool, dict[str, str]] | None:
        """``Manifest.tool_for``: the tool answering ``method path`` (folded), and its arguments."""
        path = self.manifest.fold_path(path)
        parts = split_path(path)  # once, for every tool of the path's shape
        trailing_slash = has_trailing_slash(path)
        for tool in self._by_shape.get((method, len(parts)), ()):
            args = tool.match_parts(parts, trailing_slash)
            if args is not None:
                return tool, args
        return None

    def route(self, method: str, path: str) -> tuple[Tool, dict[str, str], str] | None:
        """``Manifest.route``: the tool answering a request path as sent, its arguments, and the path
        as capenv reads it."""
        return self.manifest.route_by(self.tool_for, method, path)
