"""Calls that only read: which POST tools are no writes (seeds/write-effects.txt, "Calls that only read").

``classify_read_only_posts(evidence, manifest, ruleset)`` judges every POST tool by the
``readonly-ways`` table (the four ways, first match) and the ``readonly-vetoes`` table, to a
fixed point, and returns a ``ReadOnlyResult`` with one ``ReadOnlyVerdict`` per tool.
"""

from .classify import classify_read_only_posts
from .models import ReadOnlyResult, ReadOnlyRound, ReadOnlyVerdict

__all__ = ["ReadOnlyResult", "ReadOnlyRound", "ReadOnlyVerdict", "classify_read_only_posts"]
