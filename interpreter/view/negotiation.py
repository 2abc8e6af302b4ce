"""Content negotiation: a read tool whose recordings sent more than one Accept header may answer
another shape per Accept (JupyterHub's lists answer ``{"items", "_pagination"}`` to
``Accept: application/jupyterhub-pagination+json`` and a bare array otherwise).

The tool's usual Accept is the one most of its recordings sent (ties: the earliest); a call
sending none, as every MCP call does, or ``*/*`` is taken to send it. The view, the read gate
and the write gate read only the recordings of the usual Accept (``without_variants``), so one
view reads one shape; replay answers the others only for a call sending their Accept
(``serving/reads/replay.py``), and serving answers from the state only a call of the usual one.
"""

from __future__ import annotations

from collections import Counter

from capenv.interpreter.bundle.paths import normalised_accept
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest


def accept_of(record: Record) -> str:
    """The request's Accept header, normalised (lower case, no spaces); none is ``*/*``."""
    return normalised_accept(record.header("accept", response=False))


def usual_accepts(manifest: Manifest, records: dict[int, Record]) -> dict[str, str]:
    """Per tool whose recordings sent more than one Accept: the one most of them sent."""
    found = {}
    for tool in manifest.tools:
        accepts = [accept_of(records[o]) for o in tool.record_ordinals]
        if len(set(accepts)) > 1:
            found[tool.name] = Counter(accepts).most_common(1)[0][0]
    return found


def without_variants(manifest: Manifest, records: dict[int, Record]) -> Manifest:
    """The manifest whose read tools keep only the recordings of their usual Accept."""
    usual = usual_accepts(manifest, records)
    if not usual:
        return manifest
    tools = []
    for tool in manifest.tools:
        if tool.name in usual and not tool.changes_state:
            kept = tuple(o for o in tool.record_ordinals if accept_of(records[o]) == usual[tool.name])
            tool = tool.model_copy(update={"record_ordinals": kept})
        tools.append(tool)
    return manifest.model_copy(update={"tools": tuple(tools)})
