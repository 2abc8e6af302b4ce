"""Headers carrying credentials a tool's recorded calls all sent (``WritePlan.credential_headers``,
``ReplayTable.credential_headers``; the ``write-credentials`` table): an HTTP call leaving one out
is refused. Authorization is not modelled, so no value is checked, but the application refuses a
call without its credentials (401/403), where the model would answer it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

STATUS = 401


def missing_credential(names: Iterable[str], header: Callable[[str], str | None]) -> str | None:
    """The first of ``names`` the call, looked up with ``header``, leaves out or sends empty."""
    return next((name for name in names if not (header(name) or "").strip()), None)


def credential_refusal(name: str) -> str:
    """Why a call leaving ``name`` out is refused."""
    return (f"this call sends no {name}: every successful call of this tool the capture recorded sent it, and it "
            f"carries credentials, without which the application refuses the call (401/403); authorization is not "
            f"modelled (no value is checked): send {name} as the capture's calls did")
