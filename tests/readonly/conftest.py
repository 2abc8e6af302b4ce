"""Fixtures for the read-only POST tests: judge a synthetic HAR in one call."""

from __future__ import annotations

import pytest

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.readonly import classify_read_only_posts
from capenv.interpreter.rules_engine import load_rules


@pytest.fixture(scope="session")
def ruleset():
    return load_rules()


@pytest.fixture
def judge(ruleset):
    """``judge(har)`` -> the ``ReadOnlyResult`` of a ``HarBuilder`` capture."""

    def run(har):
        evidence = parse_har_bytes(har.bytes(), source="t.har")
        return classify_read_only_posts(evidence, build_manifest(evidence, ruleset), ruleset)

    return run
