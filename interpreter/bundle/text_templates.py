"""The fixed layout a member's text values keep to (``#17becf``, ``#8c564b``: a ``#`` and six
hexadecimal characters), for members the application validates by layout
(``ValidatedValue.template``).

pretalx refuses a track ``color`` of ``red`` ("Enter a valid value.") while every colour a
successful call sent was ``#`` and six hexadecimal digits: no set to accept from (each colour the
client's own), but a layout to keep to. A text's layout is its skeleton (the characters outside
the runs of letters and digits, in place, and each run's length) with, for each run, the first
alphabet (``write-validated-values``, narrowest first) holding every character the values drew
on there. It is written as a regular expression, which serving matches and the tool's input
schema publishes as ``pattern``.
"""

from __future__ import annotations

import re
from typing import Any

_RUN = re.compile(r"[0-9A-Za-z]+")
# the syntax characters a pattern escapes to stand for themselves; no other (ECMAScript's unicode
# mode, which JSON Schema validators use, refuses an escaped "#" or "-")
_SPECIAL = set("\\^$.|?*+()[]{}")


def _skeleton(text: str) -> list[str | int]:
    """The text as literal characters outside runs of letters and digits, and each run's length."""
    parts: list[str | int] = []
    at = 0
    for run in _RUN.finditer(text):
        parts.extend(text[at:run.start()])
        parts.append(run.end() - run.start())
        at = run.end()
    parts.extend(text[at:])
    return parts


def _runs(text: str) -> list[str]:
    return _RUN.findall(text)


def _literal(char: str) -> str:
    return "\\" + char if char in _SPECIAL else char


def text_template(values: list[Any], alphabets: list[str]) -> str | None:
    """The pattern every value keeps to (``^#[0-9a-f]{6}$``), or None when the values are not all
    text of one skeleton holding a run, or a run draws on characters no alphabet holds (each a
    regular-expression character class body, ``0-9a-f``, narrowest first)."""
    texts = [v for v in values if isinstance(v, str)]
    if not texts or len(texts) != len(values):
        return None
    skeleton = _skeleton(texts[0])
    if not any(isinstance(p, int) for p in skeleton) or any(_skeleton(t) != skeleton for t in texts[1:]):
        return None
    run_chars = [set("".join(column)) for column in zip(*(_runs(t) for t in texts))]
    pattern, run = "^", 0
    for part in skeleton:
        if isinstance(part, str):
            pattern += _literal(part)
            continue
        alphabet = next((a for a in alphabets if all(re.fullmatch(f"[{a}]", c) for c in run_chars[run])), None)
        if alphabet is None:
            return None
        pattern += f"[{alphabet}]{{{part}}}" if part > 1 else f"[{alphabet}]"
        run += 1
    return pattern + "$"


def text_template_runs(pattern: str) -> list[str]:
    """The alphabets of a pattern's runs (``["0-9a-f"]`` for ``^#[0-9a-f]{6}$``)."""
    return re.findall(r"\[([^\]]*)\]", pattern)


def keeps_template(value: Any, pattern: str) -> bool:
    """Whether the value is text of the layout ``pattern`` says."""
    return isinstance(value, str) and re.fullmatch(pattern, value) is not None
