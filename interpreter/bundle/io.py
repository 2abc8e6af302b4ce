"""Write and read bundle directories: the one hand-over between build and serving.

A bundle is a directory of JSON files written deterministically (same capture, same rules ->
same bytes): ``bundle.json`` (what it is), ``manifest.json``, ``view.json`` (types, views,
plans, traces, the initial state), ``replay.json`` (recorded calls per tool), ``report.json``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from capenv.interpreter.manifest.models import Manifest

from .collector import collector_paused
from .jsonvalue import JsonError, loads
from .model_json import dumps_models
from .models import BundleInfo, ReplayTable, ViewResult

FILES = ("bundle.json", "manifest.json", "view.json", "replay.json", "report.json")


class BundleError(ValueError):
    """A directory that is not a readable bundle; one line naming the file and the problem."""


class Bundle(BaseModel):
    info: BundleInfo
    manifest: Manifest
    view: ViewResult
    replay: ReplayTable
    report: dict[str, Any]


def check_bundle_target(directory: str | Path, force: bool = False) -> None:
    """Refuse an output that is a file, or a non-empty directory that is not a bundle (unless forced):
    writing a bundle among someone's files would mix them with ours."""
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise BundleError(f"{target}: exists and is not a directory; a bundle is a directory")
    if not force and target.is_dir() and not is_bundle(target) and any(target.iterdir()):
        raise BundleError(f"{target}: a non-empty directory that is not a bundle; write into a new or empty "
                          "directory, over an earlier bundle, or pass --force")


def write_bundle(directory: str | Path, bundle: Bundle) -> Path:
    """Write every file to a temporary name first, then rename: a reader never sees half a bundle."""
    target = Path(directory)
    try:
        with collector_paused():  # serialising the bundle makes many small objects, no cycles
            return _write_files(target, bundle)
    except OSError as exc:
        raise BundleError(f"{target}: cannot write the bundle ({exc.strerror or exc})") from None


def _write_files(target: Path, bundle: Bundle) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    contents = {"bundle.json": bundle.info, "manifest.json": bundle.manifest, "view.json": bundle.view,
                "replay.json": bundle.replay, "report.json": bundle.report}
    for name, value in contents.items():
        data = dumps_models(value, indent=True) + b"\n"  # the bytes of dumps(value.model_dump())
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=target)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes 0600; a bundle is meant to be shared
        os.replace(temporary, target / name)
    return target


def is_bundle(path: str | Path) -> bool:
    return Path(path).is_dir() and (Path(path) / "bundle.json").is_file()


def read_bundle(directory: str | Path) -> Bundle:
    root = Path(directory)
    if not is_bundle(root):
        lacks = " (it has no bundle.json)" if root.is_dir() else ""
        raise BundleError(f"{root}: not a bundle directory{lacks}; build one with `capenv build CAPTURE -o DIR`")
    parts: dict[str, Any] = {}
    for name in FILES:
        path = root / name
        try:
            parts[name] = loads(path.read_bytes())
        except FileNotFoundError:
            raise BundleError(f"{path}: missing; is {root} a capenv bundle?") from None
        except (OSError, JsonError) as exc:
            raise BundleError(f"{path}: {exc}") from None
    try:
        return Bundle(info=BundleInfo.model_validate(parts["bundle.json"]),
                      manifest=Manifest.model_validate(parts["manifest.json"]),
                      view=ViewResult.model_validate(parts["view.json"]),
                      replay=ReplayTable.model_validate(parts["replay.json"]),
                      report=parts["report.json"])
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BundleError(f"{root}: invalid bundle at {where}: {first['msg']} "
                          "(rebuild it with this version of capenv)") from None
