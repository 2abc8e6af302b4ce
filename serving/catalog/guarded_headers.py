"""Request headers a tool's recorded calls all sent with one value that the application checks
(``ReplayTable.guarded_headers``; the ``request-guard-values`` table): a call of the capture
sending another value alone was refused (an Origin it does not trust), so an HTTP call sending
another value, or none, is refused rather than applied or answered as the recorded value's."""

from __future__ import annotations

STATUS = 400


def unguarded_refusal(name: str, sent: str, value: str) -> str:
    """Why a call sending ``sent`` (or none) in ``name`` is refused."""
    given = f"sends {name}: {sent}" if sent else f"sends no {name}"
    return (f"this call {given}, but every successful recorded call of this tool sent {name}: {value}, and the "
            f"application refused a call sending another value of it (it checks the value, as an Origin it "
            f"trusts against cross-site requests); this environment does not check it otherwise: send "
            f"{name}: {value}")
