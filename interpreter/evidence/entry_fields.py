"""The typed members of one HAR entry: the request and response objects, the method and URL
strings, the header pairs and the status. A member of the wrong type is an ``EntryProblem``
naming where it is and what it holds (``har`` reports it with the entry's index)."""

from __future__ import annotations

from typing import Any

from .errors import EntryProblem, show


def status_of(response: dict[str, Any]) -> int:
    """The status; 0 for unanswered (HAR writes 0 or -1, or leaves it out)."""
    status = response.get("status")
    if status is None:
        return 0
    if isinstance(status, float) and status.is_integer():
        status = int(status)
    if not isinstance(status, int) or isinstance(status, bool):
        raise EntryProblem(f"response.status {show(status)} is not an integer")
    if status > 999:  # RFC 9110 §15: a status code is three digits
        raise EntryProblem(f"response.status {show(status)} is not an HTTP status (three digits at most)")
    return max(status, 0)


def member_object(entry: dict[str, Any], name: str) -> dict[str, Any]:
    """The entry's ``request`` or ``response`` object."""
    value = entry.get(name)
    if value is None:
        raise EntryProblem(f"has no {name}")
    if not isinstance(value, dict):
        raise EntryProblem(f"{name} is {show(value)}, not an object")
    return value


def member_string(parent: dict[str, Any], name: str, where: str) -> str:
    """A required non-empty string member (``where`` names it in the problem)."""
    value = parent.get(name)
    if value is None:
        raise EntryProblem(f"has no {where}")
    if not isinstance(value, str) or not value:
        raise EntryProblem(f"{where} is {show(value)}, not a non-empty string")
    return value


def headers_of(parent: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """The (name, value) header pairs, in order; none when the list is missing."""
    headers = parent.get("headers")
    if headers is None:
        return ()
    if not isinstance(headers, list):
        raise EntryProblem(f"{where} is {show(headers)}, not a list")
    try:  # the common case, fast; any oddity falls through to the checking loop for its message
        pairs = [(header["name"], header.get("value", "")) for header in headers]
        for name, value in pairs:
            if type(name) is not str or type(value) is not str:
                break
        else:
            return tuple(pairs)
    except (TypeError, KeyError, AttributeError):
        pass
    pairs = []
    for position, header in enumerate(headers):
        name = header.get("name") if isinstance(header, dict) else None
        value = header.get("value", "") if isinstance(header, dict) else None
        if not isinstance(name, str) or not isinstance(value, str):
            raise EntryProblem(f"{where}[{position}] is {show(header)}, not a {{name, value}} pair of strings")
        pairs.append((name, value))
    return tuple(pairs)
