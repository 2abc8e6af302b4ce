"""An update's or delete's recorded answer that names its call's path arguments.

A write whose answer carries no entity is served with its exemplar's answer as recorded. When
that answer's text holds a path argument of the exemplar as a token (FlexGet's
``{"message": "successfully deleted entry 6"}``), every served call would name the exemplar's
entity instead of its own: the verdict table refuses such a plan (``answer-names-call``).
"""

from __future__ import annotations

import copy
import re

from capenv.interpreter.bundle.jsonvalue import strings_in
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import locate
from urllib.parse import urlsplit

_EFFECTS = ("update", "delete", "action")


def answer_names_arguments(plan: WritePlan) -> tuple[str, ...]:
    """The exemplar's path arguments (names, in path order) its answer names as a token in a string."""
    response = plan.response
    if (plan.effect not in _EFFECTS or response is None or response.carries_entity
            or response.split is not None or not plan.exemplar_args):
        return ()
    body = response.body
    if response.report is not None:  # the entity's fields a report names are rendered per call
        body = copy.deepcopy(body)
        located = locate(body, response.report.locator)
        for name in response.report.fields if isinstance(located, dict) else ():
            located.pop(name, None)
    texts = list(strings_in(body)) if response.is_json else [response.text or ""]
    return tuple(name for name, value in plan.exemplar_args.items()
                 if value and any(_holds_token(text, value) for text in texts))


def _holds_token(text: str, value: str) -> bool:
    """``value`` occurs in ``text`` with no letter or digit right before or after it."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(value)}(?![0-9A-Za-z])", text) is not None


def answer_addresses(plan: WritePlan) -> tuple[str, ...]:
    """The addresses a write's recorded answer, which carries no entity, names (an origin-relative
    path of two or more segments or an absolute http(s) URL, in its body's strings or its
    ``Location``): served as recorded, every call would name what the exemplar's call made there."""
    response = plan.response
    if response is None or response.carries_entity or response.split is not None:
        return ()
    texts = list(strings_in(response.body)) if response.is_json else []
    texts += [value for name, value in response.headers if name.lower() == "location"]
    return tuple(dict.fromkeys(text for text in texts if _is_address(text)))


def _is_address(text: str) -> bool:
    if text.startswith("/"):
        return not any(c.isspace() for c in text) and len([p for p in text.split("?")[0].split("/") if p]) >= 2
    parts = urlsplit(text)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not any(c.isspace() for c in text)
