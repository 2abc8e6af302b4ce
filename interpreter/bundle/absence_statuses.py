"""The recorded statuses that answer for an entity the application does not hold, one list both
sides read: the view and the read gate (an absence), the plans (a write's recorded absence and the
sibling that answers for it), serving (what a write of a missing entity answers with)."""

from __future__ import annotations

ABSENCE_STATUSES = (400, 404, 410)
"""A 400 answers for a missing id too (an id the application cannot parse), though more often for a
body it refused: where that matters (``latest_absent_calls``) one of the budget ``missing_statuses``
(404, 410; ``rules/budgets.yaml``, carried by the bundle) comes first."""
