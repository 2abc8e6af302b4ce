"""A read (and a write) answered over HTTP names the origin the call reached where its recording named the one
the capture reached the application at (a ``next`` page link, a root's ``href``, a replayed
recording's links, an entity's own ``url``, a message quoting the address asked for: "Resource not
found: http://host:port/site/nope", in a JSON string or a text answer such as an HTML error page): the application names the origin it is reached at, so an answer
naming the recording's would send the caller to the recording's host. Only that origin, followed by
nothing, a path, a query or a fragment, is rewritten, at the start of a string or after a character
no URL's scheme holds (a space, a quote, a bracket); a string naming another origin (a base URL the
application was configured with, a port that merely begins alike) is kept, and a call with no origin
(over MCP) is answered the recorded ones. The WebSocket spelling of the origin (``ws://`` for
``http://``, ``wss://`` for ``https://``: a discovery document's stream endpoint at the same host and
port) names the reached origin in its WebSocket spelling too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from capenv.serving.read_call import ReadCall, Served


def at_reached_origin(served: Served, call: ReadCall, recorded: str | None) -> Served:
    """``served`` with the strings naming ``recorded`` (the capture's primary origin) naming the
    origin ``call`` reached instead; ``served`` itself when it names none, or the call reached
    no origin (MCP) or the recorded one."""
    return at_origin(served, call.link_at[0] if call.link_at else None, recorded)


def at_origin(served: Served, reached: str | None, recorded: str | None) -> Served:
    """``served`` with the strings naming ``recorded`` naming ``reached`` instead (a write's answer,
    whose call carries no ``link_at``: the request's own origin)."""
    if not recorded or not reached:
        return served
    recorded, reached = recorded.rstrip("/"), reached.rstrip("/")
    if reached == recorded:
        return served
    answer = served.answer
    pairs = [(recorded, reached)]
    if websocket_spelling(recorded) and websocket_spelling(reached):
        pairs.append((websocket_spelling(recorded), websocket_spelling(reached)))
    if answer.is_json:
        body = answer.body
        for old, new in pairs:
            body = with_origin(body, old, new)
        if body is answer.body:
            return served
        answer = replace(answer, body=body)
    else:  # a text answer too: an error page quoting the URL asked for ("the requested URL 'http://host:port/x'")
        text = answer.text
        for old, new in pairs:
            text = with_origin(text, old, new)
        if text is answer.text:
            return served
        answer = replace(answer, text=text)
    return Served(answer, {**served.provenance, "origin": reached})


def websocket_spelling(origin: str) -> str | None:
    """``origin`` with the WebSocket scheme of its HTTP one (``ws`` for ``http``, ``wss`` for ``https``);
    None for another scheme."""
    for http, socket in (("http://", "ws://"), ("https://", "wss://")):
        if origin.startswith(http):
            return socket + origin[len(http):]
    return None


@lru_cache(maxsize=8)
def _naming(recorded: str) -> re.Pattern[str]:
    """``recorded`` where a string names it: not inside a longer scheme or host before it (a letter,
    digit or ``+.-`` would continue ``http``) nor followed by more of a host or port."""
    return re.compile(r"(?<![A-Za-z0-9+.\-])" + re.escape(recorded) + r"(?![^/?#\s\"'<>)\]},;])")


def with_origin(value: Any, recorded: str, reached: str) -> Any:
    """``value`` with every string naming ``recorded`` naming ``reached`` instead; the same object
    when no string names it."""
    if isinstance(value, str):
        if recorded not in value:
            return value
        rewritten = _naming(recorded).sub(lambda _: reached, value)
        return rewritten if rewritten != value else value
    if isinstance(value, list):
        items = [with_origin(item, recorded, reached) for item in value]
        return items if any(new is not old for new, old in zip(items, value)) else value
    if isinstance(value, dict):
        members = {name: with_origin(item, recorded, reached) for name, item in value.items()}
        return members if any(members[name] is not item for name, item in value.items()) else value
    return value
