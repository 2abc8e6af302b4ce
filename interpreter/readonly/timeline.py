"""The capture's timeline as the read-only POST decision sees it: GET lines, writes, and
which writes may fall between two moments.

What counts as a write (a choice the spec leaves open, made here once for every rule):

- a primary-origin record of a state-changing method (every method but GET, HEAD, OPTIONS);
  other origins are other applications and change none of this one's state;
- except the calls of POST tools still taken to be read-only (the spec: "the other read-only
  tools' calls are no writes there"), which is why the decision iterates;
- except a call answered within ``unchanged_write_status_range`` (rules/readonly-settings.yaml;
  DESIGN.md §6: a write answered 4xx is taken to have changed nothing). A 5xx, a redirected
  or an unanswered write may have changed state, so it stays a write.

A write *may fall between* an earlier record and a later one when it ended after the earlier
one began and began before the later one ended. A write overlapping either end is counted:
the read (or call) it overlaps may show either state, so nothing shows it did not intervene.
"""

from __future__ import annotations

from functools import lru_cache

import bisect
from datetime import datetime, timedelta
from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.manifest.models import Manifest, Segment

SAFE_METHOD = "GET"


class GetLine:
    """The GET reads of one path with one query."""

    def __init__(self, path: str, query: tuple[tuple[str, str], ...], segments: tuple[Segment, ...] | None,
                 reads: list[Record]):
        self.path, self.query = path, query
        self.segments = segments  # the template of the GET tool reading this path; None when no tool holds it
        self._by_finish = sorted(reads, key=lambda r: (r.finished_at, r.ordinal))
        self._finishes = [r.finished_at for r in self._by_finish]
        self._by_start = sorted(reads, key=lambda r: (r.started_at, r.ordinal))
        self._starts = [r.started_at for r in self._by_start]

    @property
    def label(self) -> str:
        query = "&".join(f"{name}={value}" for name, value in self.query)
        return f"GET {self.path}" + (f"?{query}" if query else "")

    @property
    def reads_by_start(self) -> list[Record]:
        """The line's reads in the order they began."""
        return list(self._by_start)

    def last_finished_before(self, moment: datetime) -> Record | None:
        """The read that finished last at or before ``moment``."""
        index = bisect.bisect_right(self._finishes, moment)
        return self._by_finish[index - 1] if index else None

    def first_started_after(self, moment: datetime) -> Record | None:
        """The first read that began at or after ``moment``."""
        index = bisect.bisect_left(self._starts, moment)
        return self._by_start[index] if index < len(self._by_start) else None


class Timeline:
    """Primary-origin records with their tools, GET lines, and the writes for a set of read-only tools."""

    def __init__(self, evidence: Evidence, manifest: Manifest, unchanged_write_status_range: tuple[int, int]):
        self.records = evidence.primary_records
        self.by_ordinal = {record.ordinal: record for record in self.records}
        self.tool_of = {ordinal: tool.name for tool in manifest.tools for ordinal in tool.record_ordinals}
        self._segments = {tool.name: tool.segments for tool in manifest.tools}
        low, high = unchanged_write_status_range
        self._changed_nothing = lambda record: low <= record.status <= high
        self.lines = self._get_lines()
        successful: dict[str, list[Record]] = {}
        for record in self.records:
            if record.method == SAFE_METHOD and record.succeeded:
                successful.setdefault(record.path, []).append(record)
        self._successful_gets = {path: GetLine(path, (), None, reads) for path, reads in successful.items()}
        self._gets_by_parts: dict[tuple[str, ...], list[Record]] = {}
        for record in self.records:
            if record.method == SAFE_METHOD:
                self._gets_by_parts.setdefault(_parts(record.path), []).append(record)
        self._children: dict[tuple[str, ...], list[tuple[str, Record]]] = {}
        for parts, reads in self._gets_by_parts.items():
            if parts:
                self._children.setdefault(parts[:-1], []).extend((unquote(parts[-1]), read) for read in reads)
        # The GET lines related to a call path: the same for every call of that path, every set of
        # writes and every round of the decision, so worked out once (calls × lines pairs otherwise).
        self._related: dict[tuple[str, tuple[bool, ...] | None], list[GetLine]] = {}

    def segments_of(self, ordinal: int) -> tuple[Segment, ...] | None:
        name = self.tool_of.get(ordinal)
        return self._segments.get(name) if name else None

    def writes(self, read_only_tools: frozenset[str]) -> "Writes":
        """The records that count as writes while ``read_only_tools`` are taken to only read."""
        found = [record for record in self.records
                 if record.changes_state and not self._changed_nothing(record)
                 and self.tool_of.get(record.ordinal) not in read_only_tools]
        return Writes(found)

    def prior_successful_get(self, call: Record) -> Record | None:
        """The successful GET of the call's path (any query) that finished last before it began."""
        reads = self._successful_gets.get(call.path)
        return reads.last_finished_before(call.started_at) if reads else None

    def own_path_gets(self, path: str) -> list[Record]:
        """Every GET of ``path`` (any query; a trailing slash passed over), in record order."""
        return self._gets_by_parts.get(_parts(path), [])

    def child_gets(self, path: str) -> list[tuple[str, Record]]:
        """Every GET of ``path`` plus one segment, with that segment percent-decoded."""
        return self._children.get(_parts(path), [])

    def lines_related(self, path: str, segments: tuple[Segment, ...] | None) -> list[GetLine]:
        """The GET lines whose path relates to ``path`` (see ``paths_relate``), in line order."""
        key = (path, tuple(segment.is_param for segment in segments) if segments is not None else None)
        found = self._related.get(key)
        if found is None:
            found = [line for line in self.lines if paths_relate(path, segments, line.path, line.segments)]
            self._related[key] = found
        return found

    def _get_lines(self) -> list[GetLine]:
        grouped: dict[tuple[str, tuple[tuple[str, str], ...]], list[Record]] = {}
        for record in self.records:
            if record.method == SAFE_METHOD:
                grouped.setdefault((record.path, record.query), []).append(record)
        lines = []
        for (path, query), reads in sorted(grouped.items(), key=lambda item: item[1][0].ordinal):
            lines.append(GetLine(path, query, self.segments_of(reads[0].ordinal), reads))
        return lines


class Writes:
    """Writes sorted by start, answering which may fall between two records."""

    def __init__(self, records: list[Record]):
        self.records = sorted(records, key=lambda r: (r.started_at, r.ordinal))
        self.ordinals = frozenset(r.ordinal for r in records)
        self._starts = [r.started_at for r in self.records]
        self._longest = max((r.finished_at - r.started_at for r in self.records), default=timedelta(0))
        # The two latest ends among the writes begun so far (by start), each as (end, ordinal): the
        # latest end before a moment, less one write, is then a bisection, not a walk.
        self._latest_ends: list[tuple[tuple[datetime, int] | None, tuple[datetime, int] | None]] = []
        first: tuple[datetime, int] | None = None
        second: tuple[datetime, int] | None = None
        for record in self.records:
            end = (record.finished_at, record.ordinal)
            if first is None or end > first:
                first, second = end, first
            elif second is None or end > second:
                second = end
            self._latest_ends.append((first, second))

    def between(self, earlier: Record, later: Record, *, besides: int) -> list[int]:
        """Ordinals of writes (other than ``besides``) that ended after ``earlier`` began and
        began before ``later`` ended."""
        found = []
        index = bisect.bisect_left(self._starts, later.finished_at) - 1
        while index >= 0 and self._starts[index] >= earlier.started_at - self._longest:
            write = self.records[index]
            if write.ordinal != besides and write.finished_at > earlier.started_at:
                found.append(write.ordinal)
            index -= 1
        return sorted(found)

    def any_between(self, earlier: Record, later: Record, *, besides: int) -> bool:
        """Whether ``between`` finds any write: the same test, stopping at the first."""
        index = bisect.bisect_left(self._starts, later.finished_at) - 1
        while index >= 0 and self._starts[index] >= earlier.started_at - self._longest:
            write = self.records[index]
            if write.ordinal != besides and write.finished_at > earlier.started_at:
                return True
            index -= 1
        return False

    def latest_end_begun_before(self, moment: datetime, *, besides: int) -> datetime | None:
        """The latest end of a write (other than ``besides``) that began before ``moment``: a read
        begun before it has that write between it and anything ending after ``moment``."""
        index = bisect.bisect_left(self._starts, moment) - 1
        if index < 0:
            return None
        first, second = self._latest_ends[index]
        chosen = second if first is not None and first[1] == besides else first
        return chosen[0] if chosen is not None else None


def paths_relate(call_path: str, call_segments: tuple[Segment, ...] | None,
                 read_path: str, read_segments: tuple[Segment, ...] | None) -> bool:
    """Segment by segment over the shorter path, each pair is equal or a template parameter on
    either side (a parameter matches any value): ``/api/flows/filter`` relates to
    ``/api/flows/{id}`` and to ``/api``, not to ``/api/health``. A trailing slash's empty
    segment is passed over, so ``/v1/`` is the parent of ``/v1/batch``."""
    call_parts, read_parts = _parts(call_path), _parts(read_path)
    for index in range(min(len(call_parts), len(read_parts))):
        if call_parts[index] == read_parts[index]:
            continue
        if _is_param(call_segments, index) or _is_param(read_segments, index):
            continue
        return False
    return True


def _trimmed(parts: list[str]) -> list[str]:
    return parts[:-1] if parts and parts[-1] == "" else parts


@lru_cache(maxsize=65536)
def _parts(path: str) -> tuple[str, ...]:
    """A path's segments less a trailing slash's empty one (cached: vetoes compare every pair)."""
    return tuple(_trimmed(split_path(path)))


def _is_param(segments: tuple[Segment, ...] | None, index: int) -> bool:
    return segments is not None and index < len(segments) and segments[index].is_param
