"""Probe files: the calls ``capenv compare`` sends to the live application and to the model.

A probe file is YAML: a list of probes, or ``{headers: {...}, minted: {...}, probes: [...]}`` where
``headers`` go with every probe (a probe's own ``headers`` win) and ``minted`` names values made
anew for every call, as a JWT the client signs itself (minted.py). A probe::

    - name: create a post                 # optional, shown in the report
      method: POST
      path: /posts                        # or exactly "{post}": a path an earlier probe saved whole
      query: {_sort: views}               # or [[_sort, views], ...] to keep order and repeats
      headers: {content-type: application/merge-patch+json}
      body: {title: "{title}"}            # any JSON; or raw_body: "not json" for malformed input
      save: {post: /id}                   # JSON pointer into the answer: remembered as {post}
      affects: [/comments]                # more paths a write changes (a cascade), see session.py
      unordered: [/components]            # arrays the application orders anew at each start: any order
      expect: same                        # same | different | refused: checked, for tests

``{name}`` in the path, a query value, a header value, ``affects`` or a string of the body
is replaced, on each side separately, by what an earlier probe saved under that name there (or by
the value minted under that name for this call, the same on both sides);
``{{`` and ``}}`` are literal braces. A string that is exactly ``{name}`` becomes the saved
value itself (an integer id stays an integer).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .minted import MintedValue
from .placeholders import WHOLE_PLACEHOLDER, names_in

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
Verdict = Literal["same", "different", "refused"]
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ProbeFileError(ValueError):
    """A probe file that cannot be used; one line naming the file, the probe and the key."""


class Probe(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = None
    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    headers: dict[str, str] = Field(default_factory=dict)
    body: Any = None
    raw_body: str | None = None
    save: dict[str, str] = Field(default_factory=dict)
    affects: tuple[str, ...] = ()
    unordered: tuple[str, ...] = ()
    expect: Verdict | None = None

    @field_validator("method")
    @classmethod
    def _known_method(cls, value: str) -> str:
        method = value.upper()
        if method not in METHODS:
            raise ValueError(f"{value!r} is not one of {', '.join(METHODS)}")
        return method

    @field_validator("path")
    @classmethod
    def _absolute_path(cls, value: str) -> str:
        if WHOLE_PLACEHOLDER.match(value):
            return value  # a path the application answered (an href), saved whole by an earlier probe
        if not value.startswith("/") or "?" in value or "#" in value:
            raise ValueError("a path starting with / and without ? or # (put the query under `query`)")
        return value

    @field_validator("query", mode="before")
    @classmethod
    def _query_pairs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            value = list(value.items())
        if not isinstance(value, (list, tuple)):
            raise ValueError("a mapping {name: value} or a list of [name, value] pairs")
        pairs = []
        for pair in value:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError(f"{pair!r} is not a [name, value] pair")
            pairs.append((_scalar_text(pair[0]), _scalar_text(pair[1])))
        return pairs

    @field_validator("headers", mode="before")
    @classmethod
    def _headers(cls, value: Any) -> Any:
        return _header_texts(value)

    @field_validator("save")
    @classmethod
    def _pointers(cls, value: dict[str, str]) -> dict[str, str]:
        for name, pointer in value.items():
            if not _NAME.match(name):
                raise ValueError(f"{name!r}: a saved name is letters, digits and _ (not starting with a digit)")
            if pointer and not pointer.startswith("/"):
                raise ValueError(f"{name}: {pointer!r} is not a JSON pointer (\"\" or starting with /)")
        return value

    @field_validator("unordered")
    @classmethod
    def _array_pointers(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for pointer in value:
            if pointer and not pointer.startswith("/"):
                raise ValueError(f"{pointer!r} is not a JSON pointer (\"\" or starting with /)")
        return value

    @field_validator("body")
    @classmethod
    def _json_body(cls, value: Any) -> Any:
        problem = _not_json(value, "")
        if problem:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _one_body(self) -> Probe:
        if self.raw_body is not None and self.has_body:
            raise ValueError("body and raw_body: give one of them")
        return self

    @property
    def has_body(self) -> bool:
        """``body: null`` sends ``null``; a probe without ``body`` sends no body."""
        return "body" in self.model_fields_set

    @property
    def sends_body(self) -> bool:
        return self.has_body or self.raw_body is not None

    def label(self) -> str:
        return self.name or f"{self.method} {self.path}"


class ProbeFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    headers: dict[str, str] = Field(default_factory=dict)
    minted: dict[str, MintedValue] = Field(default_factory=dict)
    probes: tuple[Probe, ...]

    @field_validator("headers", mode="before")
    @classmethod
    def _headers(cls, value: Any) -> Any:
        return _header_texts(value)

    @field_validator("minted")
    @classmethod
    def _minted_names(cls, value: dict[str, MintedValue]) -> dict[str, MintedValue]:
        for name in value:
            if not _NAME.match(name):
                raise ValueError(f"{name!r}: a minted name is letters, digits and _ (not starting with a digit)")
        return value

    @model_validator(mode="after")
    def _minted_never_saved(self) -> ProbeFile:
        for probe in self.probes:
            taken = sorted(set(probe.save) & set(self.minted))
            if taken:
                raise ValueError(f"probe {probe.label()!r} saves {taken[0]!r}, a name the file mints")
        return self


def _header_texts(value: Any) -> dict[str, str]:
    """Header names in lower case (one spelling, so a probe's own header replaces the file's)."""
    if not isinstance(value, dict):
        raise ValueError("a mapping {header-name: value}")
    return {str(k).lower(): _scalar_text(v) for k, v in value.items()}


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise ValueError(f"{value!r} is not a string or a number")


class _JsonishLoader(yaml.SafeLoader):
    """YAML without the timestamp type: `2024-01-01` in a body stays the string it is in JSON."""


_JsonishLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_probes(path: str | Path) -> ProbeFile:
    """Read and validate a probe file; every problem is a ``ProbeFileError`` naming where it is."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProbeFileError(f"{source}: cannot read the probe file ({exc.strerror or exc})") from None
    return parse_probes(text, str(source))


def parse_probes(text: str, source: str = "<probes>") -> ProbeFile:
    try:
        document = yaml.load(text, Loader=_JsonishLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ProbeFileError(f"{source}: not YAML: {' '.join(str(exc).split())}") from None
    if isinstance(document, list):
        document = {"probes": document}
    if not isinstance(document, dict) or "probes" not in document:
        raise ProbeFileError(f"{source}: expected a list of probes, or a mapping with `probes` (and `headers`)")
    raw_probes = document.get("probes")
    if not isinstance(raw_probes, list) or not raw_probes:
        raise ProbeFileError(f"{source}: probes: expected a non-empty list of probes")
    try:
        probe_file = ProbeFile.model_validate(document)
    except ValidationError as exc:
        raise ProbeFileError(_first_error(source, exc, raw_probes)) from None
    _check_placeholders(probe_file, source)
    return probe_file


def _not_json(value: Any, pointer: str) -> str | None:
    """Why ``value`` is not JSON (a YAML key that is not a string, say), or None."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return None
    if isinstance(value, list):
        return next((p for i, v in enumerate(value) if (p := _not_json(v, f"{pointer}/{i}"))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{pointer or '/'}: member name {key!r} is not a string (quote it)"
            if problem := _not_json(item, f"{pointer}/{key}"):
                return problem
        return None
    return f"{pointer or '/'}: {type(value).__name__} is not JSON"


def _first_error(source: str, exc: ValidationError, raw_probes: list[Any]) -> str:
    error = exc.errors()[0]
    loc = list(error["loc"])
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    if loc[:1] == ["probes"] and len(loc) >= 2 and isinstance(loc[1], int):
        index = loc[1]
        raw = raw_probes[index]
        named = f" ({raw['name']})" if isinstance(raw, dict) and isinstance(raw.get("name"), str) else ""
        key = ".".join(str(part) for part in loc[2:]) or "probe"
        return f"{source}: probe {index + 1}{named}: {key}: {message}"
    key = ".".join(str(part) for part in loc) or "file"
    return f"{source}: {key}: {message}"


def _check_placeholders(probe_file: ProbeFile, source: str) -> None:
    """Every ``{name}`` must be saved by an earlier probe or minted: a typo is caught before any call."""
    saved: set[str] = set(probe_file.minted)
    for index, probe in enumerate(probe_file.probes, start=1):
        for key, text in _templated_texts(probe, probe_file.headers):
            try:
                missing = [n for n in names_in(text) if n not in saved]
            except ValueError as exc:
                raise ProbeFileError(f"{source}: probe {index}{_named(probe)}: {key}: {exc}") from None
            if missing:
                earlier = ", ".join(sorted(saved)) or "none yet"
                raise ProbeFileError(f"{source}: probe {index}{_named(probe)}: {key}: {{{missing[0]}}} is not saved "
                                     f"by an earlier probe (saved: {earlier})")
        saved.update(probe.save)


def placeholder_names(probe: Probe, file_headers: dict[str, str], minted: frozenset[str] = frozenset()) -> list[str]:
    """The saved names ``probe`` uses, in order of first use (the file is already validated);
    ``minted`` names are made for the call, never saved, so they are left out."""
    names: list[str] = []
    for _, text in _templated_texts(probe, file_headers):
        names += [name for name in names_in(text) if name not in names and name not in minted]
    return names


def _named(probe: Probe) -> str:
    return f" ({probe.name})" if probe.name else ""


def _templated_texts(probe: Probe, file_headers: dict[str, str]) -> list[tuple[str, str]]:
    texts = [("path", probe.path)]
    texts += [(f"query.{name}", value) for name, value in probe.query]
    texts += [(f"headers.{name}", value) for name, value in {**file_headers, **probe.headers}.items()]
    texts += [(f"affects.{i}", value) for i, value in enumerate(probe.affects)]
    texts += [(f"body{pointer}", value) for pointer, value in _body_strings(probe.body, "")]
    if probe.raw_body is not None:
        texts.append(("raw_body", probe.raw_body))
    return texts


def _body_strings(value: Any, pointer: str) -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(pointer, value)]
    if isinstance(value, dict):
        found = []
        for key, item in value.items():
            found += _body_strings(item, f"{pointer}/{key}")
        return found
    if isinstance(value, list):
        found = []
        for i, item in enumerate(value):
            found += _body_strings(item, f"{pointer}/{i}")
        return found
    return []
