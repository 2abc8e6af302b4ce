"""How large a benchmark run is: full (the figures docs/benchmarks.md reports) or quick, CI's
smoke run, in which every section runs end to end on small sizes and its figures mean nothing.

The choice is an environment variable so the section modules' sizes (module constants, read at
import) and the worker processes they start agree: ``python -m benchmarks --quick`` sets it
before any section is imported."""

from __future__ import annotations

import os
from typing import TypeVar

QUICK_ENV = "CAPENV_BENCHMARKS_QUICK"
T = TypeVar("T")


def quick() -> bool:
    return os.environ.get(QUICK_ENV) == "1"


def pick(full: T, small: T) -> T:
    """``full`` for a measuring run, ``small`` for the quick smoke run."""
    return small if quick() else full
