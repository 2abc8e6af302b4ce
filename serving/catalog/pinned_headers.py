"""Request headers a tool's recorded calls all sent with one value that select a version of the
API (``ReplayTable.pinned_headers``; the ``request-version-headers`` table): an HTTP call sending
another value, or none, is refused, since the application answers another version in other shapes
(or refuses it) and the capture shows only the one."""

from __future__ import annotations

STATUS = 400


def unpinned_refusal(name: str, sent: str, value: str) -> str:
    """Why a call sending ``sent`` (or none) in ``name`` is refused."""
    given = f"sends {name}: {sent}" if sent else f"sends no {name}"
    return (f"this call {given}, but every recorded call of this tool sent {name}: {value}, which selects a "
            f"version of the API: the application answers another (or none, its oldest) in shapes the capture "
            f"does not show, or refuses it; send {name}: {value}")
