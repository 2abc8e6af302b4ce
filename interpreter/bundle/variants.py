"""The variant of a call: the values it sends of the request headers its tool's recordings show
selecting the answer (``view-variant-headers``: an Accept, an API version), as one key both the
build and serving compute alike.

A tool whose only such header is Accept keys by the normalised Accept alone (``*/*`` for none),
as bundles always did; with other headers the key is one ``name: value`` line per header, in the
order the tool names them, a header not sent being the empty value (Accept: ``*/*``). A value
holding a line break is no value a recording sent (HTTP forbids them), so keys never collide.
"""

from __future__ import annotations

from typing import Callable

from .paths import normalised_accept

ACCEPT = "accept"
ACCEPT_ONLY = (ACCEPT,)


def normalised_value(name: str, value: str | None) -> str:
    """A header's value as variants compare it: Accept lower case with no white space (media types
    are case-insensitive), none being ``*/*``; any other header as sent less the white space
    around it, since an application may compare it exactly (``V2`` is no ``v2`` to Node-RED)."""
    if name == ACCEPT:
        return normalised_accept(value)
    return (value or "").strip()


def variant_key(headers: tuple[str, ...], value_of: Callable[[str], str | None]) -> str:
    """The key of the values ``value_of`` gives for ``headers`` (lower-case names)."""
    if headers == ACCEPT_ONLY:
        return normalised_accept(value_of(ACCEPT))
    return "\n".join(f"{name}: {normalised_value(name, value_of(name))}" for name in headers)


def key_values(headers: tuple[str, ...], key: str) -> dict[str, str]:
    """The normalised value of each header a key holds (``variant_key`` read back)."""
    if headers == ACCEPT_ONLY:
        return {ACCEPT: key}
    return dict(line.split(": ", 1) for line in key.split("\n"))


def call_key(headers: tuple[str, ...], default: str, value_of: Callable[[str], str | None],
             unsent_is_absent: frozenset[str] = frozenset()) -> str:
    """A call's key: each header as the call sends it, a header it sends no value of (or Accept
    ``*/*``, which any answer satisfies) taking the tool's usual value from ``default``, so a call
    sending none, as every MCP call does, is the usual variant. ``unsent_is_absent``: headers a call
    sending none of is keyed as sending none (an HTTP caller without credentials, whom the capture
    shows answered otherwise, is no principal)."""
    usual = key_values(headers, default)

    def sent(name: str) -> str | None:
        value = normalised_value(name, value_of(name))
        if value in ("", "*/*") and name in unsent_is_absent:
            return None
        return value if value not in ("", "*/*") else _raw(name, usual[name])

    return variant_key(headers, sent)


def _raw(name: str, normalised: str) -> str | None:
    """A normalised value given back to ``variant_key`` (which normalises again: idempotent)."""
    return normalised if normalised or name == ACCEPT else None
