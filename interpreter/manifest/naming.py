"""Names of a manifest's parameters and tools: ``/posts/{post_id}``, ``get_posts_by_post_id``.

Parameters are named by the ``manifest-param-naming`` table after the segment before them; tool
names are the method and the literal words past the prefix every template shares.
"""

from __future__ import annotations

import hashlib
import re

from capenv.interpreter.predicates.names import ParamNamingContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .models import Segment

NAMING_TABLE = "manifest-param-naming"
MAX_TOOL_NAME = 64


def name_params(segments: tuple[Segment, ...], ruleset: RuleSet, traces: list[TraceEvent]) -> tuple[Segment, ...]:
    result: list[Segment] = []
    used: set[str] = set()
    for index, segment in enumerate(segments):
        if not segment.is_param or segment.param:
            result.append(segment)
            if segment.param:
                used.add(segment.param)
            continue
        previous = result[index - 1].literal or result[index - 1].param if index else None
        decision = evaluate(ruleset, NAMING_TABLE, ParamNamingContext(previous=previous),
                            subject=f"parameter after {previous!r}")
        name = _apply_naming(previous or "", decision.yields)
        base, counter = name, 2
        while name in used:
            name, counter = f"{base}_{counter}", counter + 1
        used.add(name)
        result.append(Segment(param=name))
        traces.extend(decision.events)
    return tuple(result)


def _apply_naming(previous: str, yields: dict) -> str:
    if yields.get("fixed"):
        return str(yields["fixed"])
    strip = int(yields.get("strip", 0))
    stem = previous[:-strip] if strip else previous
    name = _identifier(stem + str(yields.get("append", "")) + str(yields.get("suffix", "")))
    return name or "id"


def _identifier(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")


def common_literal_prefix(templates: list[tuple[tuple[Segment, ...], bool]]) -> int:
    """Leading literal segments every template shares (``api``, ``v1``): left out of names. Each
    template keeps a segment past them, but the API's root spelled with a trailing slash (``/v1/``,
    then named ``root``)."""
    if len(templates) < 2:
        return 0
    count = 0
    while all((len(t) > count + 1 or len(t) == count + 1 and slashed) and not t[count].is_param
              and t[count].literal == templates[0][0][count].literal
              for t, slashed in templates):
        count += 1
    return count


def tool_name(method: str, segments: tuple[Segment, ...]) -> str:
    """``get_posts``, ``get_posts_by_post_id``: literal words, and the last segment's parameter."""
    words = [method.lower()]
    for index, segment in enumerate(segments):
        if segment.is_param:
            if index == len(segments) - 1:
                words.append(f"by_{segment.param}")
            continue
        word = _identifier(segment.literal or "")
        if word:
            words.append(word)
    if len(words) == 1:
        words.append("root")
    name = "_".join(words)
    if len(name) > MAX_TOOL_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:6]
        name = name[: MAX_TOOL_NAME - 7].rstrip("_") + "_" + digest
    return name


def unique_name(name: str, taken: set[str]) -> str:
    candidate, counter = name, 2
    while candidate in taken:
        suffix = f"_{counter}"
        candidate = name[: MAX_TOOL_NAME - len(suffix)] + suffix
        counter += 1
    taken.add(candidate)
    return candidate
