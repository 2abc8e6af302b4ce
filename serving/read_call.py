"""One call of a served tool, whichever surface it came from, and what a call can answer.

MCP arguments and HTTP requests both become a ``ReadCall``: the path as the call spells it,
its path arguments, its raw query pairs and its body. The runtime answers a call with a
``Served`` answer (an ``Answer`` and its provenance) or refuses it with ``CallRefused``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.paths import spell_path
from capenv.interpreter.manifest.models import Tool
from capenv.serving.call_refused import CallRefused  # raised here, and imported from here by most callers
from capenv.serving.frozen_values import direct_init
from capenv.serving.reads.answers import Answer

Pairs = tuple[tuple[str, str], ...]

# Characters a path argument keeps as given: everything a segment may hold unescaped, and
# "%" so an argument already spelled with escapes (``%61cme1``) names that spelling.
_SEGMENT_SAFE = "!$&'()*+,;=:@~-._%"


@direct_init
@dataclass(frozen=True)
class ReadCall:
    tool: Tool
    path: str
    path_args: dict[str, str]
    query: Pairs = ()
    body: Any = None
    has_body: bool = False
    body_text: str | None = None
    """A body that is not JSON (HTTP only), compared with a recording's text."""
    accept: str | None = None
    """The request's Accept header (HTTP only): replay answers a tool whose recordings sent
    several only with a recording of the same one (``Replayer.variant_of``)."""
    headers: Pairs = ()
    """The request's headers, names lower case (HTTP only): replay answers a tool whose recordings
    sent a header selecting the answer with several values only with recordings of the value the
    call sends (``Replayer.variant_of``)."""
    link_at: tuple[str | None, str, Pairs] | None = None
    """Where the call reached the application, for an answer's links to other pages: the origin
    (None over MCP: the recorded links' origin), the raw path and the query as sent."""
    over_http: bool = False
    """The call came over the HTTP surface, where a missing Accept header leaves the representation
    to the application (``reads/accept_defaults``); an MCP call takes the tool's recorded one."""


@direct_init
@dataclass(frozen=True)
class Served:
    answer: Answer
    provenance: dict[str, Any] = field(default_factory=dict)
    """``{"state": {...}}``, ``{"replay": {...}}`` or both (a whole line answering a call it
    does not match exactly)."""




def path_for(tool: Tool, args: dict[str, str]) -> str:
    """The concrete path: literal segments as the template spells them, arguments escaped
    only where a character could not sit in one segment (``/``, ``?``, ``#``, spaces)."""
    if not tool.params:  # a path without parameters is the same on every call: spelled once per tool
        held = _fixed_paths.get(id(tool))
        if held is not None and held[0] is tool:
            return held[1]
        path = _spelled(tool, args)
        if len(_fixed_paths) >= 4096:
            _fixed_paths.clear()
        _fixed_paths[id(tool)] = (tool, path)
        return path
    return _spelled(tool, args)


_fixed_paths: dict[int, tuple[Tool, str]] = {}
"""id(tool) -> (tool, its path) for a tool without parameters (the entry holds the tool, so its id
is not reused while the entry lives)."""


def _spelled(tool: Tool, args: dict[str, str]) -> str:
    parts = []
    for segment in tool.segments:
        if segment.param is None:
            parts.append(segment.literal or "")
        else:
            parts.append(quote(args[segment.param], safe=_SEGMENT_SAFE))
    return spell_path(parts, tool.trailing_slash)


def quoted(values: Any, limit: int) -> str:
    """``"a", "b", "c" and 4 more``: a short, quoted sample for messages, ``limit`` values at most
    (the bundle's budget ``path_values_quoted``, ``names_quoted`` or ``values_quoted``)."""
    items = [str(v) for v in values]
    shown = ", ".join(f'"{v}"' for v in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown or "none"


def json_kind_of(value: Any) -> str:
    """A value's JSON type name for a refusal, or its Python type's name when it has none."""
    try:
        return json_kind(value)
    except TypeError:
        return type(value).__name__
