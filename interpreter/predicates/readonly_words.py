"""Words of a name, for the read-only POST ways: ``findOneAndReplace`` -> find, one, and, replace.

A name splits at the separator characters the rule gives (``_ - .``), then at letter-case
changes (camelCase, an upper-case run before a capitalised word), then between letters and
digits. Words are compared in lower case. No word list lives here: the rules pass theirs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote

# Upper-case run before a capitalised word (HTTPStatus -> HTTP, Status), a capitalised or
# lower-case word, a trailing upper-case run, or digits.
_CASE_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@lru_cache(maxsize=4096)
def split_words(name: str, separators: str) -> tuple[str, ...]:
    """The lower-case words of ``name``; ``separators`` are the characters that always split."""
    pieces = re.split("[" + re.escape(separators) + "]", name) if separators else [name]
    return tuple(word.lower() for piece in pieces for word in _CASE_WORD.findall(piece))


def lowered(words: list[str]) -> frozenset[str]:
    return frozenset(word.lower() for word in words)


def last_literal_segment(template: str) -> str | None:
    """The last literal segment of a path template, percent-decoded (parameters and the empty
    segment of a trailing slash are passed over): ``/api/flows/filter`` -> ``filter``."""
    for part in reversed(template.split("/")):
        if part and not (part.startswith("{") and part.endswith("}")):
            return unquote(part)
    return None
