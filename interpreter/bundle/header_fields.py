"""Which recorded response headers an HTTP/1.1 server can send: the HTTP surface drops the others
and ``capenv report`` names them (both sides must judge a header alike)."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 §5.6.2
_FIELD_VALUE = re.compile(r"[\t\x20-\x7e\x80-\xff]*")  # visible text, blanks and obs-text (RFC 9110 §5.5)


def unsendable_header(name: str, value: str) -> str | None:
    """Why an HTTP/1.1 server cannot send this header, or None when it can."""
    if not _TOKEN.fullmatch(name):
        return f"the name {name!r} is not an HTTP/1.1 field name (a token)"
    if not _FIELD_VALUE.fullmatch(value):
        return f"the value of {name} holds a control character or a character past Latin-1"
    return None
