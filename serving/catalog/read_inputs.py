"""A read tool's inputs: its input schema, and turning MCP arguments or an HTTP request into a
``ReadCall`` (or a refusal that names what is accepted).

Query parameters (DESIGN.md §7, write-effects "Catalog"): each recorded name is optional. A
name every recorded call sent with one value defaults to that value in an MCP call (its schema
says so), so leaving it out sends what the recording sent; an HTTP call leaving it out is refused,
since the application's own clients send it and what the application answers without it (another
projection, page or filter) the capture does not show. Any other name left out is not sent (its
absence is a recorded case too). The schema lists the recorded values as an ``enum`` unless a learned query evaluates any
value over the state, or one recorded value is empty (some clients reject empty literals, so
an empty value is described instead and accepted at execution). A value outside the recorded
ones is not refused: it answers from the nearest recording, flagged ``exact_match: false``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import quote, unquote_plus

from capenv.interpreter.bundle.jsonvalue import JsonError, dumps, json_kind, loads
from capenv.interpreter.bundle.models import Budgets, RecordedCall, StaticCredential
from capenv.interpreter.manifest.models import Tool
from capenv.serving.read_call import CallRefused, ReadCall, json_kind_of, path_for, quoted
from capenv.serving.catalog.header_checks import refused_headers
from capenv.serving.catalog.withheld import withheld
from capenv.serving.runtime_api import HttpRequest

from .argument_schema import ArgumentSchema, path_param_schema, path_value

RESERVED_ARGUMENTS = ("query", "body")

# An MCP query value is the value itself, as the schema shows recorded ones: a "+" or a space is that
# character, never a form-encoded space (a time zone "+01:00", an address "a+b@x"), so both are escaped
# into the query text. "%" stays, so a value copied escaped from an answer's link names that spelling,
# as path arguments do; the description says so.
_QUERY_VALUE_SAFE = "!$%'()*,/:;=?@[]~"


@dataclass(frozen=True)
class QueryParam:
    name: str
    values: tuple[str, ...]
    """Distinct raw values as recorded, in recorded order."""
    always_sent: bool
    repeated: bool
    learned: bool
    examples_limit: int
    """Past this many distinct recorded values (the budget ``query_examples``) listing them stops
    helping a client; the values are described instead."""

    @property
    def default(self) -> str | None:
        return self.values[0] if self.always_sent and len(self.values) == 1 else None

    @property
    def shown_values(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(unquote_plus(v) for v in self.values))

    @property
    def enum(self) -> tuple[str, ...] | None:
        shown = self.shown_values
        if self.learned or "" in shown or len(shown) > self.examples_limit:
            return None
        return shown


@dataclass(frozen=True)
class BodyInput:
    kinds: tuple[str, ...]
    required: bool
    example: Any = None


@dataclass(frozen=True)
class ToolInputs:
    tool: Tool
    properties: tuple[tuple[str, str], ...]
    """(path parameter, argument name): the name differs only when a parameter is called
    ``query`` or ``body``."""
    path_samples: dict[str, tuple[str, ...]]
    query: tuple[QueryParam, ...]
    body: BodyInput | None
    budgets: Budgets
    """The bundle's: how many values its descriptions and refusals list (``path_values_quoted``,
    ``names_quoted``, ``values_quoted``)."""
    credentials: tuple[str, ...] = ()
    """Headers an HTTP call must send (``ReplayTable.credential_headers``), lower case."""
    pinned: tuple[tuple[str, str], ...] = ()
    """(header, value) an HTTP call must send as recorded (``ReplayTable.pinned_headers``)."""
    static_credentials: tuple[tuple[str, StaticCredential], ...] = ()
    """(header, values) of the credentials headers static across the capture
    (``ReplayTable.static_credentials``)."""
    guarded: tuple[tuple[str, str], ...] = ()
    """(header, value) an HTTP call must send as recorded (``ReplayTable.guarded_headers``)."""

    @classmethod
    def of(cls, tool: Tool, calls: tuple[RecordedCall, ...], learned: set[str], takes_body: bool, budgets: Budgets,
           accepted: tuple[str, ...] = (), credentials: tuple[str, ...] = (),
           pinned: tuple[tuple[str, str], ...] = (),
           static_credentials: tuple[tuple[str, StaticCredential], ...] = (),
           guarded: tuple[tuple[str, str], ...] = ()) -> ToolInputs:
        """``accepted``: names taken though not recorded (a learned projection's ``fields[3]``);
        ``budgets``: the bundle's (``query_examples``, ``body_example_characters``, and how many values
        a description or refusal lists)."""
        properties = tuple((p, f"{p}_path" if p in RESERVED_ARGUMENTS else p) for p in tool.params)
        samples: dict[str, list[str]] = {p: [] for p in tool.params}
        for call in calls:
            for name, value in (tool.match(call.path) or {}).items():
                if value not in samples[name]:
                    samples[name].append(value)
        names = list(tool.query_names) + [n for c in calls for n, _ in c.query if n not in tool.query_names]
        recorded = {unquote_plus(n) for n in names}
        names += [n for n in accepted if n not in recorded]
        query = []
        for name in dict.fromkeys(names):
            values = [v for c in calls for n, v in c.query if n == name]
            query.append(QueryParam(
                name=name, values=tuple(dict.fromkeys(values)),
                always_sent=bool(calls) and all(any(n == name for n, _ in c.query) for c in calls),
                repeated=any(sum(1 for n, _ in c.query if n == name) > 1 for c in calls),
                learned=name in learned, examples_limit=budgets.query_examples))
        body = None
        if takes_body:
            bodies = [c.request_body for c in calls if c.request_is_json]
            kinds = tuple(dict.fromkeys(json_kind(b) for b in bodies))
            fitting = [b for b in bodies if len(dumps(b)) <= budgets.body_example_characters]
            example = withheld(max(fitting, key=lambda b: len(dumps(b)))) if fitting else None  # the most telling
            body = BodyInput(kinds=kinds, required=bool(calls) and all(c.request_is_json for c in calls),
                             example=example)
        return cls(tool, properties, {k: tuple(v) for k, v in samples.items()}, tuple(query), body, budgets,
                   credentials,
                   pinned, static_credentials, guarded)

    # --- the schema ---------------------------------------------------------------------

    def schema(self) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for param, name in self.properties:
            properties[name] = path_param_schema(
                self.path_samples[param], f"path parameter {{{param}}}; recorded: "
                f"{quoted(self.path_samples[param], self.budgets.path_values_quoted)}")
        if self.query:
            named = {q.name: _query_schema(q, self.budgets.query_values_quoted) for q in self.query}
            # a name recorded percent-encoded is accepted decoded too (filter%5Ba%5D and filter[a] are one name)
            named |= {unquote_plus(q.name): named[q.name] for q in self.query if unquote_plus(q.name) not in named}
            properties["query"] = {"type": "object", "properties": named,
                                   "additionalProperties": False,
                                   "description": "query parameters, each optional; a value is taken as written "
                                                  '(a "+" or a space is that character; %XX is an escape)'}
        if self.body is not None:
            body: dict[str, Any] = {"description": "the JSON request body"}
            if self.body.kinds:  # what _check_body enforces (a "number" takes an integer too, as in the schema)
                body["type"] = self.body.kinds[0] if len(self.body.kinds) == 1 else list(self.body.kinds)
            if self.body.example is not None:
                body["examples"] = [self.body.example]
            properties["body"] = body
        required = [name for _, name in self.properties] + (["body"] if self.body and self.body.required else [])
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            schema["required"] = required
        return schema

    def accepted(self) -> str:
        parts = [f'"{name}" (a string{" or integer" if self.checked.schema["properties"][name]["type"] != "string" else ""}'
                 f', required)' for _, name in self.properties]
        if self.query:
            parts.append(f'"query" (an object of {quoted([q.name for q in self.query], self.budgets.names_quoted)})')
        if self.body is not None:
            parts.append(f'"body" (JSON{" " + "/".join(self.body.kinds) if self.body.kinds else ""}'
                         f'{", required" if self.body.required else ""})')
        return ", ".join(parts) or "no arguments"

    # --- MCP arguments ------------------------------------------------------------------

    @cached_property
    def checked(self) -> ArgumentSchema:
        """The published schema, compiled: what validation enforces."""
        return ArgumentSchema(self.schema(), self.tool.name)

    def parse(self, arguments: Any) -> ReadCall:
        if not isinstance(arguments, dict):
            raise CallRefused(f"arguments must be an object; {self.tool.name} accepts {self.accepted()}")
        if arguments.get("query", 0) is None or (not self.query and arguments.get("query", 0) == {}):
            arguments = {k: v for k, v in arguments.items() if k != "query"}  # no query sent, as it reads
        self.checked.check(arguments, self.accepted)
        known = {name for _, name in self.properties} | ({"query"} if self.query else set()) | (
            {"body"} if self.body is not None else set())
        unknown = [k for k in arguments if k not in known and not (k == "query" and arguments[k] in ({}, None))]
        if unknown:
            raise CallRefused(f"{self.tool.name} does not take {quoted(unknown, self.budgets.values_quoted)}; "
                              f"it accepts {self.accepted()}")
        args = {}
        for param, name in self.properties:
            value = path_value(arguments.get(name)) if arguments.get(name) is not None else None
            if not isinstance(value, str) or not value:
                what = "missing" if value is None else f"not a non-empty string ({json_kind_of(value)})"
                raise CallRefused(f'path parameter "{name}" is {what}; {self.tool.name} needs it as a string '
                                  f'(recorded: {quoted(self.path_samples[param], self.budgets.path_values_quoted)}); '
                                  f'it accepts {self.accepted()}')
            args[param] = value
        query = self._query_pairs(arguments.get("query"))
        has_body = self.body is not None and "body" in arguments
        body = arguments.get("body") if has_body else None
        if self.body is not None:
            self._check_body(has_body, body)
        path = path_for(self.tool, args)
        return ReadCall(self.tool, path, args, query, body, has_body, link_at=(None, path, query))

    def _query_pairs(self, given: Any) -> tuple[tuple[str, str], ...]:
        if given is None:
            given = {}
        if not isinstance(given, dict):
            raise CallRefused(f'"query" must be an object, not {json_kind_of(given)}; {self._query_names()}')
        by_name = {q.name: q for q in self.query} | {unquote_plus(q.name): q for q in self.query}
        pairs: list[tuple[str, str]] = []
        for name, value in given.items():
            param = by_name.get(name) or by_name.get(unquote_plus(name))
            if param is None:
                raise CallRefused(f'query parameter "{name}" was never recorded for {self.tool.name}; '
                                  f'{self._query_names()}')
            values = value if isinstance(value, list) and param.repeated else [value]
            for item in values:
                if not isinstance(item, str):
                    kind = "a string or an array of strings" if param.repeated else "a string"
                    raise CallRefused(f'query parameter "{name}" must be {kind}, not {json_kind_of(item)}'
                                      f'{_recorded_hint(param, self.budgets.query_values_quoted)}')
                pairs.append((param.name, quote(item, safe=_QUERY_VALUE_SAFE)))
        return tuple(pairs) + self._defaults(given)

    def _defaults(self, given: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        """Each always-sent parameter the call left out, by its decoded name (``filter[a]`` and
        ``filter%5Ba%5D`` are one name)."""
        if not self._sent_always:
            return ()
        named = {unquote_plus(name) for name in given}
        return tuple((q.name, q.default) for decoded, q in self._sent_always if decoded not in named)

    @cached_property
    def _sent_always(self) -> tuple[tuple[str, QueryParam], ...]:
        """(decoded name, parameter) of each parameter with a default: worked out once, not per call."""
        return tuple((unquote_plus(q.name), q) for q in self.query if q.default is not None)

    @cached_property
    def _decoded_query_names(self) -> frozenset[str]:
        return frozenset(unquote_plus(q.name) for q in self.query)

    @cached_property
    def _static_by_header(self) -> dict[str, StaticCredential]:
        return dict(self.static_credentials)

    def _query_names(self) -> str:
        if not self.query:
            return f"{self.tool.name} takes no query parameters"
        return f"recorded query parameters: {quoted([q.name for q in self.query], self.budgets.names_quoted)}"

    def _check_body(self, has_body: bool, body: Any) -> None:
        assert self.body is not None
        if not has_body:
            if self.body.required:
                raise CallRefused(f'"body" is required (JSON {"/".join(self.body.kinds)}, as recorded); '
                                  f"{self.tool.name} accepts {self.accepted()}")
            return
        try:
            kind = json_kind(body)
        except TypeError:
            kind = type(body).__name__
        if self.body.kinds and kind not in self.body.kinds and not (kind == "integer" and "number" in self.body.kinds):
            raise CallRefused(f'"body" must be JSON {" or ".join(self.body.kinds)} as recorded, not {kind}')

    # --- HTTP requests ------------------------------------------------------------------

    def from_http(self, request: HttpRequest, args: dict[str, str]) -> ReadCall:
        refused = refused_headers(self.credentials, self.pinned, request.header, self._static_by_header,
                                  request.header_values, args, self.guarded)
        if refused is not None:
            raise CallRefused(refused[0], http_status=refused[1])
        by_name = self._decoded_query_names
        unknown = [unquote_plus(n) for n, _ in request.query if unquote_plus(n) not in by_name]
        if unknown:
            raise CallRefused(f"query parameter {quoted(unknown, self.budgets.values_quoted)} was never recorded for "
                              f"{request.method} {self.tool.spelled_template}; {self._query_names()}")
        left_out = self._defaults({n: True for n, _ in request.query})
        if left_out:  # the application's own clients send it; its answer without it is not recorded
            names = [unquote_plus(name) for name, _ in left_out]
            raise CallRefused(f"query parameter {quoted(names, self.budgets.values_quoted)} was sent by every recorded "
                              f"call of {request.method} {self.tool.spelled_template}, and what the application "
                              "answers without it the capture does not show: send it, as recorded ("
                              + ", ".join(f"{unquote_plus(n)}={unquote_plus(v)}" for n, v in left_out) + ")",
                              http_status=400)
        query = tuple(request.query)
        body, has_body, text = None, False, None
        if self.body is not None and request.body:
            has_body = True
            try:
                body = loads(request.body)
            except JsonError:
                text = request.body.decode("utf-8", errors="replace")
        return ReadCall(self.tool, request.path, args, query, body, has_body, text, request.header("accept"),
                        tuple(request.headers), link_at=(request.origin, request.path, tuple(request.query)),
                        over_http=True)


def _recorded_hint(param: QueryParam, most: int) -> str:
    """``most``: the recorded values listed at most (budget ``query_values_quoted``)."""
    return f" (recorded: {quoted(param.shown_values, most)})" if param.values else ""


def _query_schema(param: QueryParam, most: int) -> dict[str, Any]:
    """``most``: the recorded values its description lists at most (budget ``query_values_quoted``)."""
    text: dict[str, Any] = {"type": "string"}
    if param.repeated:
        text = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    enum = param.enum
    if enum is not None and not param.repeated:
        text["examples"] = list(enum)  # not an enum: another value is answered as replay decides, not refused
    default = param.default
    notes = []
    if default is not None:
        shown = unquote_plus(default)
        if shown:
            text["default"] = shown
            notes.append(f'defaults to "{shown}" as every recorded call sent it')
        else:
            notes.append("defaults to an empty value as every recorded call sent it")
    if param.learned:
        notes.append("evaluated over the state for any value")
    shown_values = param.shown_values
    if shown_values and (enum is None or param.repeated):
        named = [f'"{v}"' for v in shown_values[:most] if v] + (["an empty value"] if "" in shown_values else [])
        more = len([v for v in shown_values if v]) - len([v for v in shown_values[:most] if v])
        notes.append(f"recorded: {', '.join(named)}" + (f" and {more} more" if more > 0 else ""))
    if notes:
        text["description"] = "; ".join(notes)
    return text
