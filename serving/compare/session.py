"""Run a probe file against both sides, call by call, and judge each call.

Per probe: fill its placeholders with each side's own saved values, send it to the live
application and to the model, save what it asks to save (and pair the two sides' values),
judge the answers, and note whether an earlier write left the two states apart.

*Diverged*: a write whose answers disagree (unless both sides refused it with a 4xx, which
changes nothing) means the two states may now differ under that write's scope
(``ToolIndex.write_scopes``, plus the probe's own ``affects``). Later calls under such a scope
are reported with ``diverged_by``: a disagreement there follows from the earlier one.
"""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import quote, unquote

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.pointers import parse as parse_pointer
from capenv.interpreter.bundle.rule_data import setting_value
from capenv.serving.reads.origins import websocket_spelling

from .jsondiff import ValueMap
from .judge import SAME, Judgement, body_differences, judge, parsed_body, reordered_sets
from .placeholders import MISSING, SEGMENT_SAFE, WHOLE_PLACEHOLDER, fill, fill_json, resolve_pointer
from .minted import MintedValue
from .pairing import first_seen_pairs, in_model_order, seeded_pairs
from .probes import Probe, ProbeFile, placeholder_names
from .call_records import CallResult, SideState
from .sides import SIDES, Observed, Outgoing, Side, side_origin
from .divergence import unexplained
from .reach import WriteReach
from .write_reach import body_sent, reach_of, request_values, scalars
from .tool_index import ToolIndex, segments, within

# What a query name or value keeps unescaped; both sides get the same bytes either way.
_QUERY_SAFE = "!$'()*,;:@/?-._~"
ORIGIN_PLACEHOLDER = "{origin}"
"""What either side's own origin reads as in a compared body."""
WEBSOCKET_ORIGIN_PLACEHOLDER = "{websocket-origin}"
"""What either side's own origin in its WebSocket spelling (``ws://`` for ``http://``, ``wss://`` for
``https://``: a stream endpoint at the same host and port) reads as."""


def _own_origins(origin: str) -> list[tuple[str, str]]:
    """A side's own origin and its WebSocket spelling, each with the placeholder it reads as."""
    socket = websocket_spelling(origin)
    return [(origin, ORIGIN_PLACEHOLDER)] + ([(socket, WEBSOCKET_ORIGIN_PLACEHOLDER)] if socket else [])


class CompareSession:
    def __init__(self, live: Side, model: Side, tools: ToolIndex) -> None:
        self.sides = {"live": live, "model": model}
        self.tools = tools
        self.values = ValueMap()
        self._state = {name: SideState() for name in SIDES}
        self._scopes: list[tuple[int, tuple[str, ...]]] = []
        self._reaches: dict[int, WriteReach] = {}
        """Per diverging write, what it reached (``divergence``)."""
        self.results: list[CallResult] = []
        self._minted: dict[str, MintedValue] = {}
        self._wrote = False
        """A write was sent: from then on the two sides' states may differ."""
        self.seeded: dict[Any, Any] = {}
        """Per generated value the model's state held at the start, the live value of the same entity
        (``pairing``): a value the live application drew anew at its start. Only pairs that no read
        contradicted: an explored probe addresses the live entity by it."""
        self._seeded_doubt: set[Any] = set()
        """Model values two reads paired with two different live values: no pairing is certain."""
        self._first_seen_seeds: list[tuple[Any, Any]] = []
        """Values of the seed a read after the writes showed on both sides, entity by entity, that no write
        sent or answered and nothing paired (``pairing.first_seen_pairs``): paired only to judge what a
        diverging write reached."""

    def run(self, probe_file: ProbeFile) -> list[CallResult]:
        self.use_minted(probe_file.minted)
        for probe in probe_file.probes:
            self.call(probe, probe_file.headers)
        return self.results

    def use_minted(self, minted: dict[str, MintedValue]) -> None:
        """The values made anew for every call from now on (a probe file's ``minted``)."""
        self._minted = dict(minted)

    def call(self, probe: Probe, file_headers: dict[str, str] | None = None,
             bound: dict[str, dict[str, Any]] | None = None, detect_sets: bool = False) -> CallResult:
        """``bound``: per side, placeholder values for this call alone (an explored read's live and
        model ids of one entity, ``explore``). ``detect_sets``: before any write, arrays of distinct
        strings or numbers holding the same items in another order are compared as sets (the
        application orders them anew at each start; a derived probe has no ``unordered`` to say so)."""
        index = len(self.results) + 1
        file_headers = file_headers or {}
        bound = bound or {}
        minted = {name: value.mint() for name, value in self._minted.items()}  # one value for both sides
        requests = {side: self._request(probe, file_headers, side, {**minted, **bound.get(side, {})})
                    for side in SIDES}
        own = frozenset(minted) | {name for values in bound.values() for name in values}
        borrowed, unresolved = self._availability(placeholder_names(probe, file_headers, own))
        answers = {side: self._send(side, requests[side]) for side in SIDES}
        unsaved = self._save(probe, answers)
        tool = self.tools.tool(probe.method, requests["model"].path)
        if not tool.writes and not self._wrote and answers["live"].status == answers["model"].status:
            self._pair_seeded(answers)
        fresh = {side: scalars(parsed_body(answers[side])[1]) - self._state[side].seen for side in SIDES}
        may_pair = None
        if tool.writes:  # a write's answer is where generated ids first appear
            may_pair = lambda live, model: live in fresh["live"] and model in fresh["model"]  # noqa: E731
        elif not self._wrote:
            # Before any write both sides hold the seed: a generated id the model's state held before
            # the capture began (the application drew it at its start, as it drew the live one at
            # this start) pairs with a live value of its shape, each seen here for the first time;
            # the pair then holds for the rest of the session.
            seeded = self.tools.initial_generated
            may_pair = lambda live, model: (live in fresh["live"] and model in fresh["model"]  # noqa: E731
                                            and model in seeded)
        paired_before = self.values.pairs()
        volatile: frozenset[str] = frozenset()
        judgement = judge(answers["live"], answers["model"], self.values, may_pair, unordered=probe.unordered)
        if judgement.verdict != SAME and probe.method == "GET":
            volatile = self._volatile(requests["live"], answers["live"])
            if volatile:
                judgement = judge(answers["live"], answers["model"], self.values, may_pair, volatile, probe.unordered)
            if judgement.verdict != SAME and self._only_volatile_members(tool.name, judgement):
                volatile |= self._volatile(requests["live"], answers["live"], pause=True)
                judgement = judge(answers["live"], answers["model"], self.values, may_pair, volatile, probe.unordered)
        if judgement.verdict != SAME and detect_sets and not self._wrote:
            judgement = self._as_sets(answers, may_pair, probe, judgement, not tool.served, paired_before)
        read_path = self.tools.read_as(probe.method, requests["model"].path)
        diverged_by = sorted({i for i, scope in self._scopes if within(read_path, scope)})
        result = CallResult(index, probe, requests, answers, judgement, tool, diverged_by, borrowed, unresolved,
                            {s: n for s, n in unsaved.items() if n})
        if diverged_by and judgement.verdict != SAME:
            read_paths = {side: segments(self.tools.read_as(probe.method, requests[side].path)) for side in SIDES}
            (live_json, live_body), (model_json, model_body) = (parsed_body(answers[side]) for side in SIDES)
            if not tool.writes and live_json and model_json and self.tools.initial_drawn:
                written = {side: self._state[side].written for side in SIDES}
                self._first_seen_seeds += [pair for pair in first_seen_pairs(
                    live_body, model_body, self.tools.initial_drawn, written, self.values)
                    if pair not in self._first_seen_seeds]
            # every earlier diverging write, not only those whose scope holds the read: an answer embeds a
            # copy of an entity written under another path (a model's tags)
            result.unexplained = unexplained(
                list(self._reaches.values()), read_paths, answers["live"],
                answers["model"], judgement.differences, self.values.with_pairs(self._first_seen_seeds),
                probe.unordered, volatile,
                {side: frozenset(fresh[side] - request_values(requests[side])) for side in SIDES}
                if tool.writes else None,
                self._read_before(),
                {side: frozenset(unquote(value) for _, value in requests[side].query) for side in SIDES})
        self._remember(result, fresh)
        self._wrote = self._wrote or tool.writes
        self.results.append(result)
        return result

    # --- one side's request ------------------------------------------------------------

    def _request(self, probe: Probe, file_headers: dict[str, str], side: str,
                 minted: dict[str, str] | None = None) -> Outgoing:
        values = {**self._values_for(side), **(minted or {})}

        def text(template: str, escape_segment: bool = False) -> str:
            return fill(template, values, escape_segment=escape_segment)[0]

        if WHOLE_PLACEHOLDER.match(probe.path):
            # An href the application answered, saved whole (Pulp's pulp_href): its segments as sent,
            # a value that is no path (unsaved on this side) put under / so the call still goes out.
            path = text(probe.path)
            path = path if path.startswith("/") else "/" + quote(path, safe=SEGMENT_SAFE)
        else:
            path = text(probe.path, escape_segment=True)
        query = tuple((quote(text(name), safe=_QUERY_SAFE), quote(text(value), safe=_QUERY_SAFE))
                      for name, value in probe.query)
        headers = {name: text(value) for name, value in {**file_headers, **probe.headers}.items()}
        body: bytes | None = None
        if probe.has_body:
            body = dumps(fill_json(probe.body, values)[0])
        elif probe.raw_body is not None:
            body = text(probe.raw_body).encode("utf-8")
        if body is not None:
            headers.setdefault("content-type", "application/json")
        return Outgoing(probe.method, path, query, tuple(headers.items()), body)

    def _availability(self, names: list[str]) -> tuple[dict[str, list[str]], list[str]]:
        """Per side the names it borrows from the other; and the names neither side has."""
        has = {side: self._state[side].saved for side in SIDES}
        borrowed = {side: [n for n in names if n not in has[side] and n in has[_other(side)]] for side in SIDES}
        unresolved = [n for n in names if all(n not in has[side] for side in SIDES)]
        return {side: found for side, found in borrowed.items() if found}, unresolved

    def _values_for(self, side: str) -> dict[str, Any]:
        """This side's saved values; a name it never got (its create was refused, say) takes
        the other side's value, so the call still goes out and shows what the model holds."""
        return {**self._state[_other(side)].saved, **self._state[side].saved}

    def _send(self, side: str, request: Outgoing) -> Observed:
        """The side's answer, its own origin in the body (a page link's ``http://host:port``, written
        plain or with JSON's escaped slashes) read as ``{origin}``: each side names the origin it was
        reached at, and the two are reached at different ones."""
        observed = self.sides[side].send(request)
        origin = side_origin(self.sides[side])
        if origin is None or not observed.body:
            return observed
        body = observed.body
        for own, placeholder in _own_origins(origin):
            for spelled in (own, own.replace("/", "\\/")):  # not a longer host or port it begins
                body = re.sub(re.escape(spelled.encode()) + rb"(?![0-9A-Za-z.:-])", placeholder.encode(), body)
        return Observed(observed.status, observed.headers, body) if body != observed.body else observed

    # --- after the answers ---------------------------------------------------------------

    def _volatile(self, request: Outgoing, first: Observed, pause: bool = False) -> frozenset[str]:
        """The body pointers the live application answers differently when the same GET is
        sent again at once (or, ``pause``, after rules/clocks.yaml's ``volatile_reread_pause``
        seconds): values that are no state (a timing), which no model can match."""
        if pause:
            time.sleep(float(setting_value("clocks", "volatile_reread_pause")))
        again = self._send("live", request)
        if again.status != first.status:
            return frozenset()
        return frozenset(d.pointer for d in body_differences(first, again, ValueMap()) if d.pointer.startswith("/"))

    def _only_volatile_members(self, tool: str | None, judgement: Judgement) -> bool:
        """Whether every difference is in the body, at a member the build found the read's
        entities change with no write (a count of seconds since a clock): one the live
        application may show otherwise only a second later, which a second read at once misses."""
        members = self.tools.volatile_members(tool)
        return bool(members) and bool(judgement.differences) and all(
            d.pointer.startswith("/") and members & set(d.pointer.split("/")) for d in judgement.differences)

    def _as_sets(self, answers: dict[str, Observed], may_pair: Any, probe: Probe, judgement: Judgement,
                 replayed: bool, paired_before: list[tuple[Any, Any]]) -> Judgement:
        """Judged again with arrays the application orders anew at each start taken in the model's
        order: strings or numbers (``reordered_sets``; any items where the model ``replayed`` the
        recording), entities sorted by ids drawn at the start (``pairing.in_model_order``); the same
        then only when nothing else differs. The pairs the first judgement made by place, in the other
        order, are taken back first (``paired_before``)."""
        (live_json, live), (model_json, model) = parsed_body(answers["live"]), parsed_body(answers["model"])
        if not (live_json and model_json):
            return judgement
        live, moved = in_model_order(live, model, self.tools.initial_drawn)
        sets = reordered_sets(live, model, self.values, objects=replayed)
        if not sets and not moved:
            return judgement
        for pointer in sets:  # the live items in the model's order: the same multiset, by reordered_sets
            order = [self.values.live_value(item) for item in resolve_pointer(model, pointer)]
            live = _replaced(live, pointer, order)
        observed = answers["live"]
        observed = Observed(observed.status, observed.headers, dumps(live))
        paired_first = self.values.pairs()
        self.values.restore(paired_before)
        again = judge(observed, answers["model"], self.values, may_pair, unordered=probe.unordered)
        if again.verdict != SAME:
            self.values.restore(paired_first)
            return judgement
        said = [f"entities ordered by ids drawn at the start, taken in the model's order: {', '.join(moved)}"] \
            if moved else []
        said += [f"the same items in another order, compared as sets: {', '.join(sets)}"] if sets else []
        return Judgement(SAME, note="; ".join(said))

    def _pair_seeded(self, answers: dict[str, Observed]) -> None:
        """Before any write: the values the live application drew anew at its start, paired entity by
        entity with the model's (``pairing``), before the judge pairs what is left by place."""
        (live_json, live), (model_json, model) = parsed_body(answers["live"]), parsed_body(answers["model"])
        if not (live_json and model_json) or not self.tools.initial_drawn:
            return
        for live_value, model_value in seeded_pairs(live, model, self.tools.initial_drawn):
            if model_value in self._seeded_doubt:
                continue
            known = self.seeded.get(model_value)
            taken = any(v == live_value for m, v in self.seeded.items() if m != model_value)
            if (known is not None and known != live_value) or taken:
                self._seeded_doubt.add(model_value)
                self.seeded.pop(model_value, None)
                continue
            self.seeded[model_value] = live_value
            self.values.pair(live_value, model_value, force=True)

    def _save(self, probe: Probe, answers: dict[str, Observed]) -> dict[str, list[str]]:
        unsaved: dict[str, list[str]] = {side: [] for side in SIDES}
        for name, pointer in probe.save.items():
            found = {}
            for side in SIDES:
                is_json, body = parsed_body(answers[side])
                value = resolve_pointer(body, pointer) if is_json else MISSING
                if value is MISSING or isinstance(value, (dict, list)):
                    unsaved[side].append(name)
                    self._state[side].saved.pop(name, None)
                else:
                    self._state[side].saved[name] = found[side] = value
            if len(found) == 2:  # the same probe saved both at one pointer: they name one thing
                self.values.pair(found["live"], found["model"], force=True)
        return unsaved

    def _read_before(self) -> dict[str, tuple[frozenset[tuple[str, str]], ...]]:
        """Per side, the text members of each entity a diverging write wrote at its own path, as the last
        read of that path on the side answered them (``divergence.unexplained``'s ``read_before``)."""
        found: dict[str, tuple[frozenset[tuple[str, str]], ...]] = {}
        for side in SIDES:
            objects = self._state[side].objects
            found[side] = tuple(
                frozenset((name, value) for name, value in objects[reach.own_paths[side]].items()
                          if isinstance(value, str))
                for reach in self._reaches.values() if reach.own_paths.get(side) in objects)
        return found

    def _remember(self, result: CallResult, fresh: dict[str, set[Any]]) -> None:
        for side in SIDES:
            request = result.requests[side]
            is_json, body = parsed_body(result.answers[side])
            if (result.probe.method == "GET" and not result.tool.writes and 200 <= result.answers[side].status < 300
                    and is_json and isinstance(body, dict)):
                self._state[side].objects[segments(self.tools.read_as("GET", request.path))] = body
            seen = self._state[side].seen
            seen |= scalars(parsed_body(result.answers[side])[1])
            seen.update(segment for segment in request.path.split("/") if segment)
            seen.update(segment for segment in self.tools.read_as(result.probe.method, request.path).split("/")
                        if segment)
            if request.body:
                seen |= scalars(parsed_body(Observed(0, (("content-type", "application/json"),), request.body))[1])
            if result.tool.writes:
                self._state[side].written |= scalars(body) | scalars(body_sent(request)) \
                    | {unquote(segment) for segment in request.path.split("/") if segment}
        if result.tool.writes and result.verdict != SAME and not _both_client_errors(result):
            model_path = result.requests["model"].path
            for scope in self.tools.write_scopes(result.probe.method, model_path):
                self._scopes.append((result.index, scope))
            self._reaches[result.index] = reach_of(result, fresh, self.tools, self._state, self._values_for)
            values = self._values_for("model")
            for extra in result.probe.affects:
                filled, _ = fill(extra, values, escape_segment=True)  # read as later calls are (read_as)
                self._scopes.append((result.index, segments(self.tools.read_as("GET", filled))))
        for side in SIDES:  # after its reach: what this write answered names nothing it acted on
            self._state[side].answered |= scalars(parsed_body(result.answers[side])[1])

def _replaced(document: Any, pointer: str, value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``pointer`` (an existing member or item)."""
    return _replaced_at(document, parse_pointer(pointer), value)


def _replaced_at(document: Any, tokens: tuple[str, ...], value: Any) -> Any:
    if not tokens:
        return value
    token, rest = tokens[0], tokens[1:]
    if isinstance(document, list):
        index = int(token)
        return [_replaced_at(item, rest, value) if i == index else item for i, item in enumerate(document)]
    return {name: _replaced_at(member, rest, value) if name == token else member for name, member in document.items()}


def _both_client_errors(result: CallResult) -> bool:
    """Both sides answered 4xx: neither changed anything, the states are still alike."""
    return all(400 <= result.answers[side].status < 500 for side in SIDES)


def _other(side: str) -> str:
    return "model" if side == "live" else "live"
