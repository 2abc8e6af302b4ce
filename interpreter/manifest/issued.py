"""Where a capture shows a token came from: an answer that carried it to the client before a call
named it in a path (a login's token, a signed link on a page), or a request header that sent it (a
credential). A token the application issued is a value, not a word of the route
(``manifest-lone-segments``)."""

from __future__ import annotations

import re
from typing import Iterable

from capenv.interpreter.evidence.records import Record


def _whole(value: str) -> re.Pattern[str]:
    """The value as a whole token of a text: not a part of a longer token (a letter, digit, ``_ - +``
    or a dot right before it; one of those but the dot, or padding, right after). A slash or ``=``
    before it separates (a link's path, a cookie's name)."""
    return re.compile(r"(?<![A-Za-z0-9_.+-])" + re.escape(value) + r"(?![A-Za-z0-9_+=-])")


def issued_by(value: str, records: Iterable[Record], before: int) -> int | None:
    """The ordinal of the first answer before ordinal ``before`` whose body or headers carried the
    value whole, or None."""
    pattern = _whole(value)
    for record in records:
        if record.ordinal >= before or not record.answered:
            continue
        if any(pattern.search(v) for _, v in record.response_headers) or (
                record.response.text is not None and pattern.search(record.response.text)):
            return record.ordinal
    return None


def sent_in_headers(value: str, records: Iterable[Record]) -> list[str]:
    """The request headers (lower case, sorted) some call sent the value in, whole."""
    pattern = _whole(value)
    return sorted({name.lower() for record in records for name, v in record.request_headers if pattern.search(v)})
