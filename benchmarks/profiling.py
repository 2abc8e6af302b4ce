"""Hot spots from cProfile, named ``file:function`` with their share of the profiled time.

Two views, because each answers a different question: *own time* (where the CPU actually
goes, builtins included, each library function followed up to the project function that
spends most in it) and *cumulative time of the project's functions* (which of our functions
to change). Entry points whose cumulative share is near 100% say nothing and are left out of
the second list.
"""

from __future__ import annotations

import cProfile
import pstats
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROJECT_DIRS = ("interpreter/", "serving/", "rules/")
ENTRY_POINT_SHARE = 0.95
SKIPPED_FILES = ("interpreter/pipeline.py",)
"""The build's steps: timed on their own (without a profiler's overhead) in the section's step table."""


@dataclass(frozen=True)
class HotSpot:
    where: str
    """``file:function`` (repository-relative file, or ``site-packages/…``, or a builtin's name)."""
    share: float
    calls: int
    via: str | None = None
    """For a library or builtin function: the project function that spends most of its time in it."""


@dataclass(frozen=True)
class Profile:
    total_seconds: float
    own: list[HotSpot]
    cumulative: list[HotSpot]


def profile_call(work: Callable[[], object], top: int = 10) -> Profile:
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        work()
    finally:
        profiler.disable()
    return summarise(pstats.Stats(profiler), top)


def summarise(stats: pstats.Stats, top: int = 10) -> Profile:
    entries = stats.stats  # (file, line, function) -> (primitive calls, calls, own, cumulative, callers)
    total = sum(own for _, _, own, _, _ in entries.values()) or 1e-12
    own = sorted(entries.items(), key=lambda item: item[1][2], reverse=True)[:top]
    ours = [(key, value) for key, value in entries.items()
            if _is_project(key[0]) and value[3] / total < ENTRY_POINT_SHARE and not key[0].endswith(SKIPPED_FILES)]
    ours.sort(key=lambda item: item[1][3], reverse=True)
    return Profile(
        total_seconds=total,
        own=[HotSpot(_name(key), value[2] / total, value[1], _project_caller(entries, key)) for key, value in own],
        cumulative=[HotSpot(_name(key), value[3] / total, value[1]) for key, value in ours[:top]],
    )


def _project_caller(entries: dict, key: tuple, max_depth: int = 6) -> str | None:
    """For a builtin or library function: follow the heaviest caller upwards to a project function."""
    if _is_project(key[0]):
        return None
    seen = {key}
    for _ in range(max_depth):
        callers = entries.get(key, (0, 0, 0, 0, {}))[4]  # caller -> (calls, primitive calls, own, cumulative)
        candidates = [(timing[3], caller) for caller, timing in callers.items() if caller not in seen]
        if not candidates:
            return None
        key = max(candidates)[1]
        if _is_project(key[0]):
            return _name(key)
        seen.add(key)
    return None


def profiled_seconds(stats: pstats.Stats) -> float:
    """The profiled time: every function's own time summed."""
    return sum(own for _, _, own, _, _ in stats.stats.values())  # type: ignore[attr-defined]


def inclusive_seconds(stats: pstats.Stats, *wanted: tuple[str, str]) -> float:
    """The time spent in and below the functions named ``(file suffix, function name)``: where
    a part of the work is entered by one function, its share of the profile."""
    return sum(value[3] for (file, _, function), value in stats.stats.items()  # type: ignore[attr-defined]
               if any(file.endswith(suffix) and function == name for suffix, name in wanted))


def _is_project(filename: str) -> bool:
    path = _resolved(filename)
    if not path.is_absolute() or not path.is_relative_to(REPO):
        return False
    return path.relative_to(REPO).as_posix().startswith(PROJECT_DIRS)


def _resolved(filename: str) -> Path:
    # Symbolic links resolved: a checkout imported through a link farm still names its own files.
    path = Path(filename)
    return path.resolve() if path.is_absolute() else path


def _name(key: tuple[str, int, str]) -> str:
    filename, line, function = key
    if filename == "~":  # a builtin: cProfile names it like "<method 'x' of 'y' objects>"
        return function
    path = _resolved(filename)
    if path.is_absolute() and path.is_relative_to(REPO) and ".venv" not in path.parts:
        shown = path.relative_to(REPO).as_posix()
    elif "site-packages" in path.parts:
        shown = "site-packages/" + "/".join(path.parts[path.parts.index("site-packages") + 1:])
    else:
        shown = f"stdlib/{path.name}"
    if function.startswith("<"):  # <genexpr>, <listcomp>, <lambda>: several per file, so the line says which
        function = f"{function}@{line}"
    return f"{shown}:{function}"


def markdown(profile: Profile, title: str) -> list[str]:
    lines = [f"{title} (cProfile, {profile.total_seconds:.2f} s profiled):", "",
             "| own time | share | calls | | cumulative (project) | share | calls |",
             "| --- | ---: | ---: | --- | --- | ---: | ---: |"]
    for i in range(max(len(profile.own), len(profile.cumulative))):
        left = profile.own[i] if i < len(profile.own) else None
        right = profile.cumulative[i] if i < len(profile.cumulative) else None
        lines.append("| " + " | ".join([*_cells(left), "", *_cells(right)]) + " |")
    return lines


def _cells(spot: HotSpot | None) -> list[str]:
    if spot is None:
        return ["", "", ""]
    where = f"`{spot.where}`" + (f" ← `{spot.via}`" if spot.via else "")
    return [where, f"{spot.share:.0%}", f"{spot.calls:,}"]


def as_dict(profile: Profile) -> dict:
    return {"total_seconds": profile.total_seconds,
            "own": [spot.__dict__ for spot in profile.own],
            "cumulative": [spot.__dict__ for spot in profile.cumulative]}


def from_dict(data: dict) -> Profile:
    return Profile(data["total_seconds"], [HotSpot(**s) for s in data["own"]],
                   [HotSpot(**s) for s in data["cumulative"]])
