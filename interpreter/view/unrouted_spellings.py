"""Recordings a read tool's template does not route: a path spelled with (or without) a trailing
slash where the application answered only the other spelling successfully (TiddlyWiki answers
``/tiddlers/Getting%20Started`` and 404s ``/tiddlers/Getting%20Started/``; ``Tool.match`` fits
a path only spelled as the tool's successful recordings were, ``manifest/infer._spelling``).

Such a recording is no read of the tool's entity: its absence says nothing about the entity the
other spelling names, so the view and the gates leave it out (``without_unrouted``), as they
leave out another Accept's recordings. Replay still holds it for a call spelled the same way.
"""

from __future__ import annotations

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest


def without_unrouted(manifest: Manifest, records: dict[int, Record]) -> Manifest:
    """The manifest whose read tools keep only the recordings their template routes."""
    tools, changed = [], False
    for tool in manifest.tools:
        if not tool.changes_state:
            kept = tuple(o for o in tool.record_ordinals if tool.match(records[o].path) is not None)
            if kept and kept != tool.record_ordinals:
                tool, changed = tool.model_copy(update={"record_ordinals": kept}), True
        tools.append(tool)
    return manifest.model_copy(update={"tools": tuple(tools)}) if changed else manifest
