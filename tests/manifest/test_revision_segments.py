"""A document revision in a path (``/{package}/-rev/{rev}``, CouchDB's ``_rev``): each write sends the
revision it read, so every value is new; they are one parameter (``segment.revision``), not one
literal tool per recorded revision. A date or a numbered word stays a word."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder
from support.manifest_routes import route_templates

from capenv.interpreter.rules_engine import load_rules


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def test_revisions_are_one_parameter(ruleset):
    har = (HarBuilder().call("GET", "/tiny", response={"_id": "tiny", "_rev": "3-4925530eb78a65a8"})
           .call("PUT", "/tiny/-rev/3-4925530eb78a65a8", body={"_id": "tiny"}, status=201, response={"ok": True})
           .call("PUT", "/tiny/-rev/4-81cdb3ea844be7b5", body={"_id": "tiny"}, status=201, response={"ok": True}))
    found = route_templates(har, ruleset)
    assert not any("4925530e" in t or "81cdb3ea" in t for _, t in found), found
    assert any(m == "PUT" and t.startswith("/tiny/-rev/{") for m, t in found), found


def test_dates_stay_words(ruleset):
    har = (HarBuilder().call("GET", "/reports/2024-01-15", response={"ok": True})
           .call("GET", "/reports/2024-02-15", response={"ok": True}))
    assert ("GET", "/reports/2024-01-15") in route_templates(har, ruleset)
