"""``capenv export``: a self-contained environment directory (DESIGN.md §7 "Export").

The directory is a bundle (``bundle.json``, ``manifest.json``, ``view.json`` with the initial
state and the write plans, ``replay.json``, ``report.json``) — everything ``capenv serve DIR``
needs with no capture at hand — plus a ``README.md`` written for that environment
(``readme.py``): what it is, its tools as the catalog lists them (served write tools
counted), the writes it does not serve and why, and how to serve, grade and reset it.

The tool lists come from the catalog a runtime builds from the bundle, not from the manifest,
so the README says exactly what ``tools/list`` will say. After writing, the export opens the
directory again and checks it serves: the same tool count, and one read tool answering
without changing the state (a write tool would change what it hands over).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from capenv.interpreter.bundle.io import Bundle, is_bundle, read_bundle, write_bundle
from capenv.serving.catalog.tools import CatalogEntry
from capenv.serving.runtime import EnvironmentRuntime

from .dockerfile import dockerfile_text
from .readme import readme_text, unserved_writes

README = "README.md"
DOCKERFILE = "Dockerfile"


class ExportRefused(ValueError):
    """The target cannot take an export; one line naming it and why."""


@dataclass(frozen=True)
class ExportSummary:
    directory: Path
    tools: int
    reads: int
    reads_from_state: int
    writes_served: int
    writes_not_served: int
    checked_with: str | None
    """The read tool the check called on the written directory."""
    files: tuple[str, ...] = ()
    """The files written, relative to ``directory``."""


def export_environment(bundle: Bundle, directory: str | Path) -> ExportSummary:
    """Write ``bundle`` and its README into ``directory``, then check the directory serves."""
    target = Path(directory)
    check_target(target)
    runtime = EnvironmentRuntime(bundle)
    try:
        entries = list(runtime.catalog.entries.values())
        text = readme_text(bundle, entries, target)
    finally:
        runtime.close()
    write_bundle(target, bundle)
    _write_atomically(target / README, text.encode("utf-8"))
    _write_atomically(target / DOCKERFILE, dockerfile_text(_capenv_version(), bundle.info.source).encode("utf-8"))
    checked = check_exported(target, len(entries))
    reads = [e for e in entries if e.handler == "read"]
    served = [e for e in entries if e.handler == "write"]
    files = tuple(sorted(p.name for p in target.iterdir() if p.is_file()))
    return ExportSummary(target, len(entries), len(reads), sum(1 for e in reads if e.from_state), len(served),
                         len(unserved_writes(bundle, {e.name for e in served})), checked, files)


def _capenv_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("capenv")
    except PackageNotFoundError:  # running from a tree that is not installed
        return "latest"


def check_target(target: Path) -> None:
    """Refuse anything but a new or empty directory, or a bundle (which is replaced)."""
    if target.exists() and not target.is_dir():
        raise ExportRefused(f"{target}: exists and is not a directory; export writes a directory")
    if target.is_dir() and not is_bundle(target) and any(target.iterdir()):
        raise ExportRefused(f"{target}: a non-empty directory that is not a bundle; export into a new or empty "
                            "directory (or over an earlier export)")


def check_exported(directory: Path, expected_tools: int) -> str | None:
    """Serve the written directory once: its tool count, and one read tool that answers."""
    runtime = EnvironmentRuntime(read_bundle(directory))
    try:
        listed = len(runtime.tools())
        if listed != expected_tools:
            raise RuntimeError(f"{directory}: the exported bundle lists {listed} tools, not {expected_tools}")
        before = runtime.data_get()
        for entry, arguments in _read_checks(runtime):
            if not runtime.call_tool(entry.name, arguments).is_error:
                if runtime.data_get() != before:
                    raise RuntimeError(f"{directory}: the read tool {entry.name} changed the state")
                return entry.name
        return None
    finally:
        runtime.close()


def _read_checks(runtime: EnvironmentRuntime) -> list[tuple[CatalogEntry, dict[str, Any]]]:
    """Read tools with arguments of a recorded call, those answering from the state first."""
    found = []
    for entry in runtime.catalog.entries.values():
        calls = runtime.bundle.replay.tools.get(entry.name, ())
        if entry.handler != "read" or not calls:
            continue
        call = calls[0]
        path_args = entry.tool.match(call.path) or {}
        arguments: dict[str, Any] = {name: path_args[param] for param, name in entry.inputs.properties
                                     if param in path_args}
        if call.query:
            arguments["query"] = dict(call.query)
        if entry.inputs.body is not None and call.request_is_json:
            arguments["body"] = call.request_body
        found.append((entry, arguments))
    return sorted(found, key=lambda pair: not pair[0].from_state)


def _write_atomically(path: Path, data: bytes) -> None:
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
