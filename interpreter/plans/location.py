"""A create answered ``201 Created`` with no body naming what it made, and a ``Location`` header
that does (RFC 9110 §15.3.2: the primary resource the request created): the header's last path
segment is the created entity's id (Mailman's ``POST /3.1/members`` answers an empty body and
``Location: …/3.1/members/4caf7f6d…``). The plan links the create by that id as by an id the
body returned, and keeps the header's shape around the id so serving can name the entity it made.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from capenv.interpreter.bundle.models import LocationRule
from capenv.interpreter.evidence.records import Record


def location_id(call: Record) -> tuple[str, LocationRule] | None:
    """The id a 201's ``Location`` names as its last path segment (percent-decoded), and the
    header around it; None without such a header."""
    location = call.header("location")
    if call.status != 201 or not location:
        return None
    path = urlsplit(location).path
    trailing = "/" if path.endswith("/") and len(path) > 1 else ""
    segment = path.rstrip("/").rsplit("/", 1)[-1]
    if not segment:
        return None
    at = location.rfind(segment + trailing + _rest(location, path))
    if at < 0:
        return None
    return unquote(segment), LocationRule(prefix=location[:at], suffix=location[at + len(segment):])


def _rest(location: str, path: str) -> str:
    """What follows the path in the header (a query or fragment), kept as recorded."""
    return location[location.rfind(path) + len(path):] if path and location.rfind(path) >= 0 else ""
