"""The routes the manifest infers from a built HAR: what the manifest tests look at."""

from __future__ import annotations

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.rules_engine import RuleSet

from .har_builder import HarBuilder


def manifest_of(har: HarBuilder, ruleset: RuleSet) -> Manifest:
    return build_manifest(parse_har_bytes(har.bytes(), source="t.har"), ruleset)


def route_templates(har: HarBuilder, ruleset: RuleSet) -> set[tuple[str, str]]:
    """Each tool's (method, path template)."""
    return {(t.method, t.template) for t in manifest_of(har, ruleset).tools}
