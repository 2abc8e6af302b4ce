"""Texts whose order depends on the application's collation.

A sort by a text field orders ``apple`` after ``World`` by code points (SQLite's default, Python's
``sorted``) and before it by a case-insensitive collation (MySQL's defaults, PostgreSQL under a
language locale, which also pass over spaces, punctuation and accents at first). Where the texts a
sort would order come out alike under both, the order is the application's whatever its collation;
where they do not, only a recording that sorted such texts shows which one it uses.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def _folded(text: str) -> str:
    """Letters and digits only, in one case, without accents: what a language collation compares first."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))


def collation_dependent(texts: Iterable[str]) -> tuple[str, str] | None:
    """Two of ``texts`` that code-point order and a case-, accent- and punctuation-insensitive
    order put the other way round (or that the second cannot tell apart), else None."""
    ordered = sorted(set(texts))
    folded = [_folded(t) for t in ordered]
    by_fold = sorted(range(len(ordered)), key=lambda i: folded[i])
    for earlier, later in zip(by_fold, by_fold[1:]):
        if folded[earlier] == folded[later] or earlier > later:
            return ordered[min(earlier, later)], ordered[max(earlier, later)]
    return None
