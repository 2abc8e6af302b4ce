"""Manifest models: tools, their path templates and parameters."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.path_actions import glued, split_action
from capenv.interpreter.bundle.path_spans import PathSpan, fold_path
from capenv.interpreter.bundle.paths import has_trailing_slash, split_path
from capenv.interpreter.bundle.trace_event import TraceEvent


class Segment(BaseModel):
    """One path segment of a template: a literal (raw spelling) or a named parameter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    literal: str | None = None
    param: str | None = None

    @property
    def is_param(self) -> bool:
        return self.param is not None

    def text(self) -> str:
        return "{" + self.param + "}" if self.param is not None else (self.literal or "")


class Tool(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    method: str
    template: str
    """``/posts/{post_id}``: literal segments in their raw spelling."""
    segments: tuple[Segment, ...]
    params: tuple[str, ...]
    query_names: tuple[str, ...] = ()
    record_ordinals: tuple[int, ...]
    changes_state: bool
    trailing_slash: bool = False
    """The template is spelled with a trailing slash (``/api/projects/``): spelling, not a segment."""
    either_slash: bool = False
    """The capture shows the tool's paths spelled both with and without the trailing slash, and
    the application answered both: the HTTP surface routes both spellings."""
    format_suffix: str = ""
    """The suffix the tool's paths are sent with (``.json``, ``Manifest.format_suffix``): spelling,
    not part of the last segment; the template and every path inside capenv are without it."""

    @property
    def spelled_template(self) -> str:
        """The template as a client sends it (``/blog/articles/{article_id}.json``, an action segment
        glued after a colon: ``/notes/{note_id}:archive``)."""
        return self.spelled(self.template)

    def spelled(self, path: str) -> str:
        """One of this tool's paths as capenv reads it (its template, a call's path) as a client
        sends it: what a description or a message shows, since the bare path answers 404."""
        path = glued(path)
        return path + self.format_suffix if self.format_suffix and not self.trailing_slash else path

    def match(self, path: str) -> dict[str, str] | None:
        """The raw path arguments when ``path`` fits this template, else None (a path spelled
        with or without a trailing slash fits only a template so spelled, unless ``either_slash``)."""
        return self.match_parts(split_path(path), has_trailing_slash(path))

    def match_parts(self, parts: list[str], trailing_slash: bool) -> dict[str, str] | None:
        """``match`` of a path split once (``split_path``, ``has_trailing_slash``) for every tool tried."""
        if len(parts) != len(self.segments):
            return None
        if not self.either_slash and trailing_slash != self.trailing_slash:
            return None
        args: dict[str, str] = {}
        for part, segment in zip(parts, self.segments):
            if segment.param is not None:
                if part == "":
                    return None
                args[segment.param] = part
            elif part != segment.literal:
                return None
        return args


class Manifest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_id: str
    rules_revision: str
    primary_origin: str | None
    tools: tuple[Tool, ...]
    unassigned_ordinals: tuple[int, ...] = ()
    """Primary-origin records no tool holds (dropped by an override)."""
    path_spans: tuple[PathSpan, ...] = ()
    """Parameters spanning segments: a request path is folded (``fold_path``) before it is matched,
    as the capture's paths were."""
    traces: tuple[TraceEvent, ...] = ()
    """The segment and naming decisions, for ``capenv explain``."""
    format_suffix: str | None = None
    """The format suffix the application's reads are spelled with (``.json``), taken off every
    recorded path (``path-format-suffixes``); a request path is read the same way (``route``)."""
    colon_actions: tuple[str, ...] = ()
    """Verbs glued after a colon (``/notes/5:archive``) that every recorded path spells as their own
    segment (``/notes/5/:archive``, ``path-colon-actions``); ``fold_path`` reads a request path so."""

    def tool(self, name: str) -> Tool:
        for tool in self.tools:
            if tool.name == name:
                return tool
        raise KeyError(name)

    def fold_path(self, path: str) -> str:
        """``path`` with a colon action spelled as its own segment and a value spanning segments
        folded into one, as the capture's paths were."""
        return fold_path(split_action(path, self.colon_actions), self.path_spans)

    def tool_for(self, method: str, path: str) -> tuple[Tool, dict[str, str]] | None:
        """The tool answering ``method path`` (folded); a literal template wins over a parameter."""
        return best_tool((tool for tool in self.tools if tool.method == method), self.fold_path(path))

    def route(self, method: str, path: str) -> tuple[Tool, dict[str, str], str] | None:
        """The tool answering a request path as a client sends it, its arguments, and the path as
        capenv reads it (without the format suffix, folded as ``fold_path`` folds it). A path fits a tool only spelled as the tool's
        recordings were, with or without the suffix."""
        return self.route_by(self.tool_for, method, path)

    def route_by(self, tool_for: Callable[[str, str], tuple[Tool, dict[str, str]] | None], method: str,
                 path: str) -> tuple[Tool, dict[str, str], str] | None:
        """``route`` with another lookup of the same answers as ``tool_for`` (``routes.RouteTable``'s)."""
        spellings = [(path, "")]
        if self.format_suffix and not path.endswith("/"):
            last = path.rsplit("/", 1)[-1]
            if last.endswith(self.format_suffix) and len(last) > len(self.format_suffix):
                spellings.insert(0, (path[: -len(self.format_suffix)], self.format_suffix))
        for internal, suffix in spellings:
            found = tool_for(method, internal)
            if found is not None and found[0].format_suffix == suffix:
                return found[0], found[1], self.fold_path(internal)
        return None


def best_tool(tools: Iterable[Tool], path: str) -> tuple[Tool, dict[str, str]] | None:
    """Of ``tools`` (one method's, in the manifest's order), the one a folded ``path`` fits with
    the most literal segments (the first of them), and its arguments."""
    return best_of_parts(tools, split_path(path), has_trailing_slash(path))


def best_of_parts(tools: Iterable[Tool], parts: list[str], trailing_slash: bool) -> tuple[Tool, dict[str, str]] | None:
    """``best_tool`` of a path split once."""
    best: tuple[int, Tool, dict[str, str]] | None = None
    for tool in tools:
        args = tool.match_parts(parts, trailing_slash)
        if args is None:
            continue
        literals = literal_count(tool)
        if best is None or literals > best[0]:
            best = (literals, tool, args)
    return (best[1], best[2]) if best else None


def literal_count(tool: Tool) -> int:
    """How many of the tool's segments are literal: of two templates a path fits, the one with more wins."""
    return sum(1 for s in tool.segments if not s.is_param)


def related_paths(a: str, b: str) -> bool:
    """One path is a prefix of the other, segment by segment (a write to either may change a
    read of the other)."""
    left, right = split_path(a), split_path(b)
    shorter, longer = (left, right) if len(left) <= len(right) else (right, left)
    return all(x == y for x, y in zip(shorter, longer[: len(shorter)]))
