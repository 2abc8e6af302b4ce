"""A capture's Ground truth as data: which write endpoints a correct model could serve.

``captures/<app>/ground-truth.yaml`` sits beside ``capture.har`` and restates, endpoint by
endpoint, the verdict of the README's "Ground truth" section (servable by
``seeds/write-effects.txt`` or not, and why). ``capenv verify`` reads it to measure what the
build serves against what it could serve (``docs/verification.md``).

An endpoint is a method and a path pattern in the application's own terms, not capenv's tool
template (which is what is being measured): ``{name}`` stands for one path segment,
``{name...}`` for one or more, ``{name}.json`` for one segment ending in a format suffix (Rails'
``/issues/{id}.json``), anything else is literal; a trailing slash is spelling, and so is a
``.json`` ending the last segment, as the build reads it when the application's reads all end in it
(rules/path-format-suffixes.yaml): ``/issues/{id}.json`` covers the recorded ``/issues/7``. The
endpoint is matched to the tools whose *successful* recorded calls (2xx) it covers, with the
most literal pattern winning where two patterns cover a call (``/api/contents/{path...}/checkpoints``
over ``/api/contents/{path...}``). It is served when it has such tools and every one is a
served write tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.gate.gate_notes import UNEXPLAINED

GROUND_TRUTH_FILE = "ground-truth.yaml"
_PARAM = re.compile(r"^\{[A-Za-z_][A-Za-z0-9_]*(\.\.\.)?\}$")
_SUFFIXED_PARAM = re.compile(r"^\{[A-Za-z_][A-Za-z0-9_]*\}(?P<suffix>\.[A-Za-z0-9]+)$")
FORMAT_SUFFIX = ".json"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


class GroundTruthError(ValueError):
    """A ground-truth file that cannot be read; one line naming the file and the problem."""


class Endpoint(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    path: str
    servable: bool
    why: str = Field(min_length=1)

    @field_validator("method")
    @classmethod
    def _method(cls, value: str) -> str:
        if value.upper() not in METHODS:
            raise ValueError(f"{value!r} is not one of {', '.join(METHODS)}")
        return value.upper()

    @field_validator("path")
    @classmethod
    def _path(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError("a path starting with /")
        for segment in _segments(value):
            if "{" in segment and not (_PARAM.match(segment) or _SUFFIXED_PARAM.match(segment)):
                raise ValueError(f"segment {segment!r}: a parameter is the whole segment, {{name}} or {{name...}}, "
                                 f"or {{name}}.ext")
        return value

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"

    def pattern(self) -> re.Pattern[str]:
        parts = []
        segments = _segments(self.path)
        for index, segment in enumerate(segments):
            spelling = ""
            if index == len(segments) - 1 and segment.endswith(FORMAT_SUFFIX) and segment != FORMAT_SUFFIX:
                segment, spelling = segment[:-len(FORMAT_SUFFIX)], f"(?:{re.escape(FORMAT_SUFFIX)})?"
            if _PARAM.match(segment):
                parts.append("[^/]+(?:/[^/]+)*" if segment.endswith("...}") else "[^/]+")
            elif suffixed := _SUFFIXED_PARAM.match(segment):
                parts.append("[^/]+" + re.escape(suffixed["suffix"]))
            else:
                parts.append(re.escape(segment))
            parts[-1] += spelling
        return re.compile("/" + "/".join(parts))

    def literal_count(self) -> int:
        return sum(1 for s in _segments(self.path) if not _PARAM.match(s))


class GroundTruth(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    application: str
    source: str = "README.md, section Ground truth"
    served_at_least: int | None = None
    """Write tools the build served when this file was written: the count must not drop."""
    endpoints: tuple[Endpoint, ...] = ()


def load_ground_truth(capture: str | Path) -> GroundTruth | None:
    """The ground truth beside ``capture``, or None when it has none."""
    path = Path(capture).parent / GROUND_TRUTH_FILE
    if not path.exists():
        return None
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise GroundTruthError(f"{path}: cannot read it ({' '.join(str(exc).split())})") from None
    try:
        return GroundTruth.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "/".join(str(p) for p in first["loc"])
        raise GroundTruthError(f"{path}: {where}: {first['msg']}") from None


@dataclass(frozen=True)
class EndpointVerdict:
    endpoint: Endpoint
    tools: tuple[str, ...]
    served: tuple[str, ...]
    reasons: tuple[str, ...]
    """Per tool not served, ``tool: reason``."""

    @property
    def is_served(self) -> bool:
        return bool(self.tools) and len(self.served) == len(self.tools)


def judge_endpoints(truth: GroundTruth, bundle: Bundle) -> list[EndpointVerdict]:
    """Each endpoint of ``truth`` with the tools its successful recorded calls reached. A served
    tool serves an endpoint only when its plan explains one of those calls: a plan learned from
    another endpoint's calls (one tool for ``/classes/{name}`` whose members are one class's)
    refuses every call of this one, and counting it served would overstate the model."""
    writes = {w["tool"]: w for w in bundle.report["writes"]}
    unexplained = _unexplained_calls(bundle)
    compiled = [(e, e.pattern()) for e in truth.endpoints]
    reached: dict[Endpoint, dict[str, list[int]]] = {e: {} for e in truth.endpoints}
    for tool, calls in bundle.replay.tools.items():
        for call in calls:
            if not 200 <= call.response.status < 300:
                continue
            path = _spelling(call.path)
            covering = [e for e, pattern in compiled if e.method == call.method and pattern.fullmatch(path)]
            if covering:
                reached[max(covering, key=Endpoint.literal_count)].setdefault(tool, []).append(call.ordinal)
    verdicts = []
    for endpoint in truth.endpoints:
        tools = tuple(sorted(reached[endpoint]))
        served, reasons = [], []
        for tool in tools:
            if not (tool in writes and writes[tool]["served"]):
                reasons.append(f"{tool}: {_why_not(writes.get(tool))}")
            elif all(ordinal in unexplained.get(tool, {}) for ordinal in reached[endpoint][tool]):
                first = reached[endpoint][tool][0]
                reasons.append(f"{tool}: served, but its plan explains none of this endpoint's calls "
                               f"(record {first}: {unexplained[tool][first]})")
            else:
                served.append(tool)
        verdicts.append(EndpointVerdict(endpoint, tools, tuple(served), tuple(reasons)))
    return verdicts


def _unexplained_calls(bundle: Bundle) -> dict[str, dict[int, str]]:
    """Per write tool, the recorded calls the gate found its plan does not explain, with why."""
    found: dict[str, dict[int, str]] = {}
    for plan in bundle.view.writes:
        for event in plan.traces:
            if event.table == "gate" and event.evidence.get(UNEXPLAINED):
                refusal = event.evidence.get("refusal")
                found.setdefault(plan.tool, {})[event.evidence["record"]] = \
                    f"serving refuses it: {refusal}" if refusal else "the plan does not explain it"
    return found


def _why_not(write: dict | None) -> str:
    if write is None:
        return "not a write tool (a read or a read-only POST)"
    return write["reason"] or "not served"


def _segments(path: str) -> list[str]:
    return _spelling(path)[1:].split("/")


def _spelling(path: str) -> str:
    """A trailing slash is spelling: ``/api/projects/`` and ``/api/projects`` are one endpoint."""
    return path.rstrip("/") or "/"
