"""The machine a benchmark ran on, as docs/benchmarks.md states it (figures mean nothing without it)."""

from __future__ import annotations

import os
import platform
import sqlite3
import subprocess
import sys
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def usable_cpus() -> int:
    """What `nproc` prints: the CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def node_version() -> str:
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=10).stdout.strip() or "-"
    except (OSError, subprocess.SubprocessError):
        return "not installed"


def code_revision(repo: Path) -> str:
    """The commit measured, and whether the measured packages differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=30).stdout.strip()

    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        changed = git("status", "--porcelain", "--", "interpreter", "serving", "rules")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if not commit:
        return "unknown"
    return f"{commit}" + (" with uncommitted changes in interpreter/, serving/ or rules/" if changed else "")


def load_average() -> float:
    """The 1-minute load average: other work on the machine inflates every figure, so each section states it."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def describe() -> list[tuple[str, str]]:
    return [
        ("capenv commit", code_revision(Path(__file__).resolve().parents[1])),
        ("CPUs (`nproc`)", str(usable_cpus())),
        ("CPU model (/proc/cpuinfo)", cpu_model()),
        ("memory", memory_total()),
        ("OS", f"{platform.system()} {platform.release()}"),
        ("Python", f"{platform.python_implementation()} {sys.version.split()[0]}"),
        ("SQLite", sqlite3.sqlite_version),
        ("Node.js", node_version()),
    ]
