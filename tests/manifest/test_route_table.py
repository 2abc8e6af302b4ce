"""``RouteTable`` (the server's routing) answers as ``Manifest.route`` and ``Manifest.tool_for``.

The table only narrows which tools are tried; every path a real capture recorded, and spellings
around them (a trailing slash, a segment more or less, a format suffix, an unknown method), must
route to the same tool with the same arguments and path.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.manifest.routes import RouteTable
from capenv.interpreter.rules_engine import load_rules

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


@lru_cache(maxsize=None)
def manifest(app: str) -> tuple[Manifest, tuple[str, ...]]:
    evidence = load_evidence(CAPTURES / app / "capture.har")
    paths = tuple(sorted({record.path for record in evidence.records}))
    return build_manifest(evidence, load_rules()), paths


def spellings(path: str, suffix: str | None) -> list[str]:
    stripped = path.rstrip("/") or "/"
    found = [path, stripped, stripped + "/", stripped + "/extra", stripped.rsplit("/", 1)[0] or "/"]
    if suffix:
        found.append(stripped + suffix)
    return found


@pytest.mark.parametrize("app", ["json-server", "datasette", "jupyter-server", "label-studio", "prefect"])
def test_the_table_routes_as_the_manifest(app: str) -> None:
    found, paths = manifest(app)
    table = RouteTable(found)
    methods = sorted({tool.method for tool in found.tools} | {"OPTIONS"})
    assert paths
    for recorded in paths:
        for path in spellings(recorded, found.format_suffix):
            for method in methods:
                assert table.route(method, path) == found.route(method, path), (method, path)
                assert table.tool_for(method, path) == found.tool_for(method, path), (method, path)
