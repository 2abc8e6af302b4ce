"""Compiled rule tables kept on disk between processes, keyed by everything they are made from.

Reading and validating the YAML tables is a fixed cost of every ``capenv build``; the compiled
``RuleSet`` is the same whenever the tables and the code that compiles them are. The key is a
SHA-256 of the tables' directory and bytes (and their fixtures' when asked for), of every Python source of the
interpreter (the predicate plugins, their params models, the loader) and of the Python and
pydantic versions: any edit to a table or a plugin makes a new key, so a stale entry is never
read, only left behind. An entry that cannot be read is ignored (and replaced), never an error.

Where: ``$CAPENV_CACHE_DIR``, else ``$XDG_CACHE_HOME/capenv``, else ``~/.cache/capenv``;
``CAPENV_CACHE_DIR=`` (empty) turns the cache off. Entries are pickles: the directory must be
the user's own (it is created private).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pydantic

INTERPRETER = Path(__file__).resolve().parents[1]
FORMAT = b"capenv-rules-cache-1"


def cache_dir() -> Path | None:
    chosen = os.environ.get("CAPENV_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "capenv"


def cache_key(root: Path, with_fixtures: bool, sources: Path = INTERPRETER) -> str:
    """What the compiled tables of ``root`` depend on, hashed (see the module's docstring)."""
    digest = hashlib.sha256(b"\0".join([FORMAT, sys.version.encode(), pydantic.VERSION.encode(),
                                         str(root.resolve()).encode(), b""]))
    pattern = "**/*.yaml" if with_fixtures else "*.yaml"
    for label, base, files in (("rules", root, root.glob(pattern)), ("code", sources, sources.rglob("*.py"))):
        for path in sorted(files):
            digest.update(f"{label}/{path.relative_to(base)}".encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cached(root: Path, with_fixtures: bool, compile_tables: Callable[[], Any]) -> Any:
    """The compiled tables of ``root`` from the cache, or ``compile_tables()`` (then kept)."""
    folder = cache_dir()
    if folder is None:
        return compile_tables()
    try:
        entry = folder / f"rules-{cache_key(root, with_fixtures)}.pickle"
    except OSError:  # a table or source unreadable: the loader says so
        return compile_tables()
    try:
        with entry.open("rb") as stream:
            return pickle.load(stream)
    except Exception:  # absent, truncated, or written by other code: compile afresh
        pass
    compiled = compile_tables()
    _keep(folder, entry, compiled)
    return compiled


def _keep(folder: Path, entry: Path, compiled: Any) -> None:
    """Write ``entry`` whole or not at all (a concurrent build may write the same one)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".rules-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(compiled, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, entry)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return  # a cache that cannot be written only costs the next build its load
