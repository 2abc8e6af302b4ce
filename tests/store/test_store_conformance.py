"""Every provider against every conformance case (providers x cases)."""

from __future__ import annotations

import pytest
from store_conformance import CASES, Case

from capenv.serving.store import Store


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_conformance(store: Store, case: Case) -> None:
    case(store)
