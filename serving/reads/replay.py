"""Replay (DESIGN.md §5): answer a call with a recorded response of its tool, never with another
entity's recording or another query's.

* **Exact**: a recorded call with the same arguments: each path argument the same (verbatim
  or either spelling once percent-decoded), the same query as a multiset of decoded pairs,
  and the same body by JSON value (or the same text, for a body that is not JSON). When
  several match, the earliest wins: the served environment starts from the initial state,
  and the earliest recording is the one nearest it.
* **Nearest**: otherwise a recorded call with the same path values and body whose query differs
  from the call's only in parameters two recordings of the tool show change nothing
  (``ReplayTable.neutral_query``): the most query pairs in common, then the earliest.
  Answered with ``exact_match: false``. A query differing in any other parameter (``sort``
  alone against ``sort&limit``) may change the answer, so no recording answers it. A proving
  pair shows only what it holds (``NeutralProof``): the parameter's values it held (absent
  counts as one), beside the other parameters both held. ``state=inactive`` answered as no
  ``state`` says nothing of ``state=active``; ``inhibited=false`` answered alike beside
  ``silenced=false`` says nothing of it alone, where silenced alerts no longer hide inhibited
  ones; ``sort=-views`` and ``sort=-views,title`` answered alike say nothing of ``sort=title``.
  Only two different numbers answered alike (a cache-buster's ``_=1`` and ``_=2``) stand for
  any number the call sends there.
* **Variants**: a tool whose recordings sent a header selecting the answer with more than one
  value (an Accept header, an API version: ``view-variant-headers``) is answered only by
  recordings of the values the call sends; a call sending none (every MCP call) or ``Accept:
  */*`` sends the ones most recordings sent (``ReplayTable.default_accept``), and only such a call
  is answered from the state.
* Nothing else: a path no recording names is the caller's to answer (the learned absence, or a
  tool error, ``reads.unrecorded``); a path recorded with other queries or bodies is a tool error
  naming what was recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.models import RecordedCall, ReplayTable
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.variants import ACCEPT, ACCEPT_ONLY, call_key, key_values
from capenv.interpreter.bundle.values import same_json, spelling_key
from capenv.interpreter.manifest.models import Tool
from capenv.serving.read_call import CallRefused, ReadCall, Served, quoted

from .answers import from_recording
from .media_ranges import answered_types
from .call_match import Pairs, query_overlap, same_query_multiset


Values = tuple[str, ...]
"""A parameter's decoded values in one query, sorted; () when the query lacks it."""


NUMBER = re.compile(r"[0-9][0-9.:-]*")
"""A value a cache-buster sends: a counter or a timestamp."""


@dataclass(frozen=True)
class NeutralProof:
    """What the pair of recordings proving a parameter neutral shows: its values in the two
    queries answer alike, beside the other parameters (``context``) both queries held; when
    they were two numbers (``any_number``), so does any number."""

    values: frozenset[Values]
    context: frozenset[tuple[str, str]]
    any_number: bool

    def covers(self, name: str, recorded: Pairs, call: Pairs) -> bool:
        mine, theirs = _decoded(recorded), _decoded(call)
        return (self._takes(_values_of(name, mine)) and self._takes(_values_of(name, theirs))
                and self.context <= {pair for pair in mine & theirs if pair[0] != name})

    def _takes(self, values: Values) -> bool:
        return values in self.values or (self.any_number and len(values) == 1 and bool(NUMBER.fullmatch(values[0])))


class Replayer:
    def __init__(self, table: ReplayTable, values_quoted: int) -> None:
        """``values_quoted``: the recorded paths, queries and media types a refusal lists at most
        (the bundle's budget)."""
        self._listed = values_quoted
        self._calls = {tool: tuple(sorted(calls, key=lambda c: c.ordinal)) for tool, calls in table.tools.items()}
        self._neutral = {tool: _proofs(params, self._calls.get(tool, ()))
                         for tool, params in table.neutral_query.items()}
        self._default_accept = dict(table.default_accept)
        self._variant_headers = dict(table.variant_headers)
        self._credential_variants = dict(table.credential_variant_headers)
        self.unauthenticated = frozenset(table.unauthenticated)
        """Reads refused for their credentials: no answer about the ids they name."""
        self._beside: dict[tuple[str, ...], list[RecordedCall]] = {}
        self._paths: dict[str, PathIndex] = {}  # built at a tool's first call
        self._media_types: dict[str, tuple[str, ...]] = {}
        for calls in self._calls.values():
            for recorded in calls:
                if recorded.method == "GET":
                    self._beside.setdefault(tuple(split_path(recorded.path)[:-1]), []).append(recorded)

    def variant_of(self, call: ReadCall) -> str | None:
        """The variant the call is taken to send (``bundle/variants.call_key``), for a tool whose
        recordings sent several; else None."""
        default = self._default_accept.get(call.tool.name)
        if default is None:
            return None
        headers = self._variant_headers.get(call.tool.name, ACCEPT_ONLY)

        def value_of(name: str) -> str | None:
            if name == ACCEPT:
                return call.accept
            return next((value for key, value in call.headers if key.lower() == name), None)

        # over HTTP a call sending no credentials is a caller without any, not the usual one (an MCP
        # call, with no headers at all, stands for the usual caller)
        absent = frozenset(self._credential_variants.get(call.tool.name, ())) if call.over_http else frozenset()
        return call_key(headers, default, value_of, absent)

    def other_accept(self, call: ReadCall) -> bool:
        """The call asks for another variant than the tool's usual one: only its recordings answer it."""
        variant = self.variant_of(call)
        return variant is not None and variant != self._default_accept[call.tool.name]

    def media_types(self, tool: str) -> tuple[str, ...]:
        """The media types the tool's recordings answered with (made once per tool)."""
        found = self._media_types.get(tool)
        if found is None:
            found = self._media_types[tool] = answered_types(self.calls(tool))
        return found

    def calls(self, tool: str) -> tuple[RecordedCall, ...]:
        return self._calls.get(tool, ())

    def reads_beside(self, path: str) -> list[RecordedCall]:
        """Every recorded GET, of any tool, of a path that differs from ``path`` in its last
        segment alone: the item reads of its siblings, literal ones too (``/silence/nope``)."""
        return self._beside.get(tuple(split_path(path)[:-1]), [])

    def beside_key(self, path: str) -> tuple[str, ...] | None:
        """The parent path ``reads_beside`` finds ``path``'s sibling reads under (its segments), or
        None where none was recorded: two paths of one key have the same reads beside them."""
        parent = tuple(split_path(path)[:-1])
        return parent if parent in self._beside else None

    def same_path(self, call: ReadCall) -> list[RecordedCall]:
        """The tool's recordings whose path names what the call's path names (every argument)."""
        calls = self.calls(call.tool.name)
        if not call.path_args:
            return list(calls)
        index = self._paths.get(call.tool.name)
        if index is None or index.tool is not call.tool:
            index = self._paths[call.tool.name] = PathIndex(call.tool, calls)
        return index.naming(call.path_args)

    def find(self, call: ReadCall) -> tuple[RecordedCall, bool] | None:
        """(the recording to answer with, whether it matches exactly), or None."""
        variant = self.variant_of(call)
        # a recording refused for its credentials answers no call this environment serves: it serves
        # the principal (other credentials are refused before), never the wrong password's 401
        candidates = [r for r in self.same_path(call) if _same_body(r, call) and (variant is None or r.accept == variant)
                      and r.ordinal not in self.unauthenticated]
        exact = next((r for r in candidates if same_query_multiset(r.query, call.query)), None)
        if exact is not None:
            return exact, True
        neutral = self._neutral.get(call.tool.name, {})
        best: tuple[tuple, RecordedCall] | None = None
        for recorded in candidates:
            if not _differs_only_in(recorded.query, call.query, neutral):
                continue
            pairs, names, apart = query_overlap(recorded.query, call.query)
            score = (pairs, names, -apart)
            if best is None or score > best[0]:  # strictly better: ties keep the earlier
                best = (score, recorded)
        return (best[1], False) if best else None

    def replay(self, call: ReadCall) -> Served:
        found = self.find(call)
        if found is None:
            raise CallRefused(self.nothing_recorded(call), http_status=404)
        recorded, exact = found
        return Served(from_recording(recorded.response),
                      {"replay": {"exact_match": exact, "record": recorded.ordinal}})

    def nothing_recorded(self, call: ReadCall) -> str:
        """Why no recording answers the call, with what was recorded."""
        same = self.same_path(call)
        where = f"{call.tool.method} {call.tool.spelled(call.path)}"
        if not same:
            paths = list(dict.fromkeys(call.tool.spelled(r.path) for r in self.calls(call.tool.name)))
            return (f"nothing was recorded for {where}: no recording of {call.tool.name} names it, and another "
                    f"path's recording would answer for another entity; recorded paths: {quoted(paths, self._listed)}")
        queries = list(dict.fromkeys("&".join(f"{n}={v}" for n, v in r.query) or "(no query)" for r in same))
        variant = self.variant_of(call)
        if variant is not None:
            headers = self._variant_headers.get(call.tool.name, ACCEPT_ONLY)
            hidden = self._credential_variants.get(call.tool.name, ())
            named = " and ".join(h.title() for h in headers)
            sent = list(dict.fromkeys(_unsaid(headers, r.accept, hidden) for r in same if r.accept))
            return (f"nothing was recorded for {where} with this query, body and {named} header "
                    f"({_unsaid(headers, variant, hidden)!r}): the application answers another shape per {named}; "
                    f"recorded for this path: {quoted(queries, self._listed)}, with {named} "
                    f"{quoted(sent, self._listed)} (a call sending none sends "
                    f"{_unsaid(headers, self._default_accept[call.tool.name], hidden)!r})")
        return (f"nothing was recorded for {where} with this query and body; a query or body differing in "
                f"something the capture does not show to be without effect may change the answer; recorded "
                f"for this path: {quoted(queries, self._listed)}")


def _unsaid(headers: tuple[str, ...], key: str, hidden: tuple[str, ...]) -> str:
    """A variant key as a refusal shows it: a credential's value, sent or recorded, is never said."""
    if not hidden:
        return key
    return "\n".join(f"{name}: {'(credentials, not shown)' if name in hidden and value else value}"
                     for name, value in key_values(headers, key).items())


class PathIndex:
    """A tool's recordings by the spellings of their path arguments, so a call finds the ones its
    path names without matching every recorded path again. Two spellings name the same thing when
    they meet verbatim or both once percent-decoded (``same_spelling``): they have one
    ``spelling_key``."""

    def __init__(self, tool: Tool, calls: tuple[RecordedCall, ...]) -> None:
        self.tool = tool
        self._calls = calls
        self._by_arg: dict[str, dict[bytes, set[int]]] = {}
        for position, recorded in enumerate(calls):
            for name, value in (tool.match(recorded.path) or {}).items():
                self._by_arg.setdefault(name, {}).setdefault(spelling_key(value), set()).add(position)

    def naming(self, path_args: dict[str, str]) -> list[RecordedCall]:
        """The recordings, in their order, whose arguments name each of ``path_args``."""
        found: set[int] | None = None
        for name, value in path_args.items():
            positions = self._by_arg.get(name, {}).get(spelling_key(value), set())
            found = positions if found is None else found & positions
            if not found:
                return []
        return [self._calls[position] for position in sorted(found or ())]


def _differs_only_in(recorded: Pairs, call: Pairs, neutral: dict[str, NeutralProof]) -> bool:
    differing = {name for name, _ in _decoded(recorded) ^ _decoded(call)}
    return all(name in neutral and neutral[name].covers(name, recorded, call) for name in differing)


def _proofs(params: dict[str, tuple[int, int]], calls: tuple[RecordedCall, ...]) -> dict[str, NeutralProof]:
    by_ordinal = {call.ordinal: call for call in calls}
    proofs = {}
    for name, ordinals in params.items():
        proving = [by_ordinal.get(ordinal) for ordinal in ordinals]
        if None in proving:
            continue
        first, second = (_decoded(call.query) for call in proving)
        values = frozenset({_values_of(name, first), _values_of(name, second)})
        numbers = len(values) == 2 and all(len(held) == 1 and NUMBER.fullmatch(held[0]) for held in values)
        proofs[name] = NeutralProof(values, frozenset(pair for pair in first & second if pair[0] != name), numbers)
    return proofs


def _decoded(pairs: Pairs) -> set[tuple[str, str]]:
    return {(unquote_plus(n), unquote_plus(v)) for n, v in pairs}


def _values_of(name: str, pairs: set[tuple[str, str]]) -> Values:
    return tuple(sorted(value for key, value in pairs if key == name))


def _same_body(recorded: RecordedCall, call: ReadCall) -> bool:
    if not call.has_body:
        return recorded.request_body is None and not recorded.request_text
    if call.body_text is not None:
        return not recorded.request_is_json and recorded.request_text == call.body_text
    return recorded.request_is_json and same_json(recorded.request_body, call.body)
