"""Small numeric and Markdown helpers shared by the benchmark sections."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (no interpolation: every figure is a measured sample)."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def median(samples: Sequence[float]) -> float:
    return percentile(samples, 0.5)


def growth_exponent(small: tuple[int, float], large: tuple[int, float]) -> float:
    """k in time ∝ records^k between two (records, seconds) points; 1 is linear."""
    (n1, t1), (n2, t2) = small, large
    return math.log(t2 / t1) / math.log(n2 / n1)


def table(header: Sequence[str], rows: Sequence[Sequence[object]], labels: int = 1) -> list[str]:
    """A Markdown table: the first ``labels`` columns left-aligned, the figures after them right-aligned."""
    align = [" --- " if i < labels else " ---: " for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines.extend("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)
    return lines


def thousands(value: float) -> str:
    return f"{value:,.0f}"


def microseconds(nanoseconds: float) -> str:
    us = nanoseconds / 1000
    return f"{us:,.0f}" if us >= 100 else f"{us:.1f}"


def verdict(met: bool) -> str:
    return "met" if met else "**missed**"
