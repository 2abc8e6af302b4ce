"""``absence_sources.masked_answer``: a missing-entity answer with its call's path arguments masked
as ``{}`` where each stands as a token of its own. It must mask exactly what a regular expression
with lookarounds masks (leftmost first, no overlap, a neighbouring ASCII letter or digit keeps an
occurrence), without compiling a pattern per argument (every call's own id: hundreds per build,
each missing the regular expression cache)."""

from __future__ import annotations

import random
import re

import pytest

from capenv.interpreter.plans.absence_sources import masked_answer


def by_pattern(text: str, arguments: list[str]) -> str:
    for argument in sorted(set(arguments), key=len, reverse=True):
        text = re.sub(r"(?<![A-Za-z0-9])" + re.escape(argument) + r"(?![A-Za-z0-9])", "{}", text)
    return text


def test_masks_each_argument_standing_as_a_token():
    answer = '{"detail": "item 42 not found (42a, a42, 4242, /42/, é42é)"}'
    assert masked_answer(answer, "/items/42", "/items/{item_id}") == \
        '{"detail": "item {} not found (42a, a42, 4242, /{}/, é{}é)"}'


def test_masks_what_a_pattern_with_lookarounds_masks():
    chance = random.Random(15)
    alphabet = "aab1-_. é{}"
    for _ in range(3000):
        arguments = ["".join(chance.choice(alphabet) for _ in range(chance.randint(1, 3)))
                     for _ in range(chance.randint(1, 2))]
        text = "".join(chance.choice(alphabet) for _ in range(chance.randint(0, 14)))
        path = "/" + "/".join(["things", *arguments])
        template = "/" + "/".join(["things", *(f"{{p{i}}}" for i in range(len(arguments)))])
        assert masked_answer(text, path, template) == by_pattern(text, arguments), (text, arguments)


def test_compiles_no_regular_expression(monkeypatch: pytest.MonkeyPatch):
    def refused(*args, **kwargs):
        raise AssertionError("a regular expression compiled per answer")

    monkeypatch.setattr(re, "_compile", refused)
    assert masked_answer("no such id: 7f3a", "/ids/7f3a", "/ids/{id}") == "no such id: {}"
