"""HAR 1.2 ingest: a ``.har`` file (plain, gzip, zlib or a Playwright ``.zip``) → ``Evidence``
(DESIGN.md §3).

Each entry becomes one ``Record`` (fields as the §3 table says; body decisions in ``bodies``,
URL splitting in ``origin``, the id in ``identity``, typed members in ``entry_fields``, times in
``instants``, containers and side files in ``containers``). Choices made here and there:

- Start times are read as dateutil's ``isoparse`` reads them and kept in UTC (the recorder's
  local offset says nothing about the application); a time without a zone is an error.
- ``finished_at`` is when the answer ended, read as the recorder (``log.creator``) writes timings
  (the ``har-timings`` table, in ``timings``): mitmproxy's ``time`` counts the server connection
  opened before the request started, Playwright's counts ``ssl`` twice; HAR 1.2's is start +
  ``time`` ms, or, when ``time`` is missing or negative, the sum of the non-negative ``timings``
  phases (``ssl`` excluded: HAR counts it inside ``connect``); else 0.
- Records are ordered by a stable sort on the start time (equal starts keep file order) and
  numbered from 1; ``entry_index`` keeps the 0-based position in the file for messages.
- The HAR envelope is read with orjson (fast, exact enough: its numbers are sizes and times);
  every *body* goes through ``jsonvalue`` so body numbers keep their exact text.

Bad input raises ``CaptureError`` (one line: file, entry index, problem). The one exception:
an entry malformed only in a body (bad base64, say) whose origin is not the primary origin is
skipped with a warning in ``Evidence.warnings``, since no verdict about the application reads
it. The primary origin is counted as if such entries were kept (a malformed answer counts
as JSON when its media type says JSON), so skipping them cannot move it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from ..bundle.trusted import trusted
from . import bodies
from .containers import SideFiles, unpack
from .entry_fields import headers_of, member_object, member_string, status_of
from .errors import CaptureError, EntryProblem, show
from .identity import evidence_id
from .instants import TimingConvention, entry_finished_at, entry_started_at
from .path_spans import find_spans, fold_records
from .origin import UrlError, normalise_origin, split_url
from .records import Evidence, Record
from .colon_actions import colon_actions
from .format_suffix import spelled_suffix
from .timings import timing_convention

__all__ = ["CaptureError", "load_evidence", "parse_har_bytes"]

Progress = Callable[[int, int], None]

PROGRESS_REPORTS = 100
"""At most about this many ``progress`` calls per file, however large."""

_UTF8_BOM = "\ufeff"


def load_evidence(path: str | Path, *, origin: str | None = None, progress: Progress | None = None,
                  ruleset: Any = None) -> Evidence:
    """Read a HAR capture (plain, gzip, zlib or zip, told apart by the magic bytes) into ``Evidence``;
    side files (``_file``) are read beside it.

    ``origin`` forces the primary origin (normalised; it must be some record's origin).
    ``progress(done, total)`` is called at most about ``PROGRESS_REPORTS`` times, last with
    ``(total, total)``. ``ruleset`` holds the ``har-timings`` table (default: the packaged rules).
    Raises ``CaptureError`` for any input it cannot read as evidence.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise CaptureError(source, None, f"cannot be read: {exc.strerror or exc}") from None
    return parse_har_bytes(data, source=source, origin=origin, progress=progress, ruleset=ruleset,
                           directory=Path(path).parent)


def parse_har_bytes(data: bytes, *, source: str, origin: str | None = None,
                    progress: Progress | None = None, ruleset: Any = None,
                    directory: Path | None = None) -> Evidence:
    """Like ``load_evidence`` for bytes already in memory; ``source`` names them in messages,
    ``directory`` is where side files (``_file``) are read from (none: a side file is a problem)."""
    har, side_files = unpack(data, source, directory)
    log = _har_log(_text(har, source), source)
    entries = log["entries"]
    timing = timing_convention(log.get("creator"), ruleset)
    total = len(entries)
    every = max(1, math.ceil(total / PROGRESS_REPORTS))
    normalised: list[_Entry] = []
    for index, entry in enumerate(entries):
        try:
            normalised.append(_normalise(entry, index, timing.convention, side_files))
        except EntryProblem as problem:
            raise CaptureError(source, index, problem.problem) from None
        if progress is not None and (index + 1) % every == 0 and index + 1 < total:
            progress(index + 1, total)
    normalised.sort(key=lambda item: item.started_at)  # list.sort is stable: ties keep file order

    primary = _primary_origin(normalised, origin, source)
    kept, warnings = _drop_skippable(normalised, primary, source)
    records = tuple(_record(ordinal, item.fields["origin"] == primary, item.fields)
                    for ordinal, item in enumerate(kept, start=1))
    warnings += _unkept_answers(records)
    identity = evidence_id(records)
    records, suffix, suffix_trace = spelled_suffix(records, ruleset)
    records, verbs, colon_trace = colon_actions(records, ruleset)
    spans, span_trace = find_spans(records, ruleset)
    evidence = Evidence(
        evidence_id=identity, source=source, records=fold_records(records, spans), primary_origin=primary,
        origins=dict(Counter(record.origin for record in records)), warnings=tuple(warnings),
        timing_rule=timing.convention.rule_id, timing_trace=timing.events, path_spans=spans, span_trace=span_trace,
        format_suffix=suffix, format_trace=suffix_trace, colon_actions=verbs, colon_trace=colon_trace,
    )
    if progress is not None:
        progress(total, total)
    return evidence


class _Entry(NamedTuple):
    index: int
    started_at: datetime
    fields: dict[str, Any]
    """Every ``Record`` field but ``ordinal`` and ``primary``, which need all entries."""
    body_problem: EntryProblem | None
    answers_json: bool
    """The response is JSON, or (when its body is malformed) says it is: what the primary origin counts."""


_RECORD_FIELDS = tuple(Record.model_fields)
_RECORD_DEFAULTS = {name: field.default for name, field in Record.model_fields.items() if not field.is_required()}


def _record(ordinal: int, primary: bool, fields: dict[str, Any]) -> Record:
    """The record of an entry ``_normalise`` read: its fields are of their types by construction
    (checked as the entry was read), so they are not validated again, one record per entry."""
    values = {**fields, "ordinal": ordinal, "primary": primary}
    return trusted(Record, {name: values[name] if name in values else _RECORD_DEFAULTS[name]
                            for name in _RECORD_FIELDS})


def _unkept_answers(records: tuple[Record, ...]) -> list[str]:
    """A warning naming the primary origin's answers whose body the recorder did not keep."""
    unkept = [r.ordinal for r in records if r.primary and not r.response.retained]
    if not unkept:
        return []
    shown = ", ".join(map(str, unkept[:10])) + (f" and {len(unkept) - 10} more" if len(unkept) > 10 else "")
    return [f"{len(unkept)} answer(s) carry a size but no body (the recorder did not keep it: records {shown}): "
            "they show nothing of the application's state and serving never answers with them; record again "
            "keeping response bodies to use them"]


# --- the file -------------------------------------------------------------------------------

def _text(data: bytes, source: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CaptureError(source, None, f"is not UTF-8 text (byte 0x{data[exc.start]:02x} at line {line}"
                                         f" column {column})") from None
    return text[1:] if text.startswith(_UTF8_BOM) else text


def _har_log(text: str, source: str) -> dict[str, Any]:
    try:
        document = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        ends_early = exc.pos >= len(text.rstrip())
        hint = " (the text ends early: a truncated file?)" if ends_early else ""
        raise CaptureError(source, None, f"is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                                         f"{hint}") from None
    log = document.get("log") if isinstance(document, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise CaptureError(source, None, "is not a HAR file: it has no log.entries list")
    return log


# --- one entry ------------------------------------------------------------------------------

def _normalise(entry: Any, index: int, timing: TimingConvention, side_files: SideFiles) -> _Entry:
    if not isinstance(entry, dict):
        raise EntryProblem(f"is {show(entry)}, not an object")
    started_at = entry_started_at(entry)
    request = member_object(entry, "request")
    response = member_object(entry, "response")
    method = member_string(request, "method", "request.method").upper()
    url = member_string(request, "url", "request.url")
    try:
        split = split_url(url)
    except UrlError as exc:
        raise EntryProblem(f"request.url {show(url)} {exc}") from None
    request_headers = headers_of(request, "request.headers")
    response_headers = headers_of(response, "response.headers")
    status = status_of(response)
    redirect_url = response.get("redirectURL") or ""
    if not isinstance(redirect_url, str):
        raise EntryProblem(f"response.redirectURL is {show(redirect_url)}, not a string")
    status_text = response.get("statusText") or ""
    if not isinstance(status_text, str):
        raise EntryProblem(f"response.statusText is {show(status_text)}, not a string")

    body_problem = None
    request_body = response_body = bodies.ABSENT
    try:
        request_body = bodies.request_body(request, request_headers, side_files)
    except EntryProblem as problem:
        body_problem = problem
    try:
        response_body = bodies.response_body(response, response_headers, side_files)
        answers_json = response_body.is_json
    except EntryProblem as problem:
        body_problem = body_problem or problem
        answers_json = bodies.is_json_media_type(bodies.response_media_type(response, response_headers))

    fields = {
        "entry_index": index, "started_at": started_at, "finished_at": entry_finished_at(entry, started_at, timing),
        "method": method, "origin": split.origin, "path": split.path, "query": split.query,
        "request_headers": request_headers, "request": request_body,
        "status": status, "status_text": status_text,
        "redirected": 300 <= status < 400 or bool(redirect_url), "redirect_url": redirect_url,
        "response_headers": response_headers, "response": response_body,
    }
    return _Entry(index, started_at, fields, body_problem, answers_json)


# --- the whole capture ----------------------------------------------------------------------

def _primary_origin(entries: list[_Entry], requested: str | None, source: str) -> str | None:
    """``requested`` normalised, or the most frequent origin of JSON answers (ties: the earliest)."""
    if requested is not None:
        try:
            wanted = normalise_origin(requested)
        except UrlError as exc:
            raise CaptureError(source, None, f"origin {show(requested)} {exc}") from None
        seen = sorted({item.fields["origin"] for item in entries})
        if wanted not in seen:
            raise CaptureError(source, None, f"origin {show(wanted)} matches no record"
                                             f" (the capture has {', '.join(seen) or 'no records'})")
        return wanted
    counts: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    for position, item in enumerate(entries):  # entries are in ordinal order here
        if item.answers_json:
            origin = item.fields["origin"]
            counts[origin] += 1
            first_seen.setdefault(origin, position)
    if not counts:
        return None
    return min(counts, key=lambda origin: (-counts[origin], first_seen[origin]))


def _drop_skippable(entries: list[_Entry], primary: str | None, source: str) -> tuple[list[_Entry], list[str]]:
    """Skip body-malformed entries of other origins; one of the primary origin is an error."""
    fatal = [item for item in entries if item.body_problem and (primary is None or item.fields["origin"] == primary)]
    if fatal:
        first = min(fatal, key=lambda item: item.index)
        raise CaptureError(source, first.index, first.body_problem.problem)
    kept, warnings = [], []
    for item in entries:
        if item.body_problem is None:
            kept.append(item)
        else:
            warnings.append(f"entry {item.index}: skipped, {item.fields['origin']} is not the primary origin"
                            f" and {item.body_problem.problem}")
    return kept, warnings
