"""Values no tool's metadata shows the agent: what a recorded call sent under a credential member.

A login records its body, password included; a body example (``read_inputs``), the texts a write's
member was recorded with (``write_inputs``) or the OpenAPI document's example would hand the agent
under test that credential. A member is a credential when its name's last word, or its whole name
without separators, is one of ``rules/catalog-withheld.yaml``'s words (``password``, ``apiToken``,
``client_secret``); its text is shown as ``<name>``, naming what to send without the value sent.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from capenv.interpreter.bundle.rule_data import setting_value

_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


@cache
def _credential_words() -> frozenset[str]:
    return frozenset(setting_value("catalog-withheld", "credential_member_words"))


def credential_member(name: str) -> bool:
    """Whether a body member's name says it holds a credential (``password``, ``access_token``, ``apiKey``)."""
    words = [word.lower() for word in _WORDS.findall(name)]
    return bool(words) and (words[-1] in _credential_words() or "".join(words) in _credential_words())


def withheld(body: Any) -> Any:
    """``body`` (a copy where it changes) with the text of each credential member, at any depth, as ``<name>``."""
    if isinstance(body, dict):
        return {name: f"<{name}>" if isinstance(value, str) and credential_member(name) else withheld(value)
                for name, value in body.items()}
    if isinstance(body, list):
        return [withheld(item) for item in body]
    return body
