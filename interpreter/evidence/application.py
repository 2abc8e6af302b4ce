"""A capture that shows no JSON API is bad input, not an empty environment.

A HAR with no entries, or whose primary origin (found, or named with ``--origin``) never
answered JSON, leaves nothing to model: a build of it would report "0 tools" and exit 0, which
reads as success. ``require_an_application`` refuses it with one line saying what was found
and what would be accepted.
"""

from __future__ import annotations

from .errors import CaptureError
from .records import Evidence

_SHOWN_ORIGINS = 4


def require_an_application(evidence: Evidence, *, of_the_primary_origin: bool = True) -> None:
    """Raise ``CaptureError`` unless the capture has entries and some origin answered JSON (with
    ``of_the_primary_origin``, the primary one: a build of a named origin that never answered
    JSON would have nothing to model; ``inspect`` may still look at it)."""
    if not evidence.records:
        raise CaptureError(evidence.source, None, "has no entries: there is nothing to model"
                                                  " (record calls to a JSON API, then build)")
    origins = sorted(evidence.origins, key=lambda o: (-evidence.origins[o], o))
    shown = ", ".join(origins[:_SHOWN_ORIGINS]) + (f" and {len(origins) - _SHOWN_ORIGINS} more"
                                                    if len(origins) > _SHOWN_ORIGINS else "")
    if evidence.primary_origin is None or not of_the_primary_origin and not any(
            r.response.is_json for r in evidence.records):
        raise CaptureError(evidence.source, None, f"no origin answered JSON in its {len(evidence.records)}"
                                                  f" entries ({shown}): capenv models JSON APIs; record calls"
                                                  " to one")
    if of_the_primary_origin and not any(r.response.is_json for r in evidence.primary_records):
        raise CaptureError(evidence.source, None, f"origin {evidence.primary_origin} answered no JSON in its"
                                                  f" {len(evidence.primary_records)} entries: there is nothing to"
                                                  f" model (origins: {shown})")
