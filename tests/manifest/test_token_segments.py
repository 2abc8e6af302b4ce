"""Token-shaped path segments: a dotted token (a JWT ``xxx.yyy.zzz``, a signed key
``MTc.axbtfw.0aREQng--Sv9…``) is identifier-shaped (``segment.dotted-token``), so its values make one
tool, not one tool each; and a lone token the capture shows the application issued (an earlier
answer carried it) or a request sent as a credential (``Authorization``, a cookie) is a parameter
(``lone-segment.issued-token``, ``lone-segment.sent-credential``): a recorded credential never names
a tool the agent sees. A file name or a host name with dots stays a word."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder
from support.manifest_routes import manifest_of, route_templates

from capenv.interpreter.rules_engine import load_rules

KEY_A = "MTc.axbtfw.0aREQng--Sv9LIdkbjzWOlVX4E4"
KEY_B = "MQ.axbtfw.fk1oDjLOwP2_wFOaytmACHhr3mw"
JWT = ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImlhdCI6MTcwMDAwMDAwMH0."
       "Qm9ndXNTaWduYXR1cmVPZlRoaXJ0eVR3b0J5dGVzMDA")
TOKEN = "MWQzOTFhNzNkODFiMWUxN2I5NGI2YmU3NmQyOWQ3ZDA6ZTcwNWJhNjdjYmIw"


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def recorded_names(har: HarBuilder, ruleset, secret: str) -> list[str]:
    manifest = manifest_of(har, ruleset)
    words = {part for part in secret.replace("-", "_").replace(".", "_").split("_") if len(part) >= 8}
    return [t.name for t in manifest.tools if secret in t.template or any(w in t.name for w in words)]


def test_dotted_tokens_are_one_parameter(ruleset):
    har = (HarBuilder().call("GET", "/admin", response={"links": []})
           .call("POST", f"/id/17/delete/{KEY_A}", response={"ok": True})
           .call("POST", f"/id/1/delete/{KEY_B}", response={"ok": True}))
    found = route_templates(har, ruleset)
    assert ("POST", "/id/{id}/delete/{delete_id}") in found or any(
        m == "POST" and t.startswith("/id/{id}/delete/{") for m, t in found), found
    assert not recorded_names(har, ruleset, KEY_A) and not recorded_names(har, ruleset, KEY_B)


def test_a_lone_signed_key_an_earlier_page_carried_is_a_parameter(ruleset):
    page = f'<a href="/id/13/edit/{KEY_A}">edit</a>'
    har = (HarBuilder().call("GET", "/admin/", response=page, response_type="text/html")
           .call("POST", f"/id/13/edit/{KEY_A}", body={"text": "x"}, response={"id": 13, "text": "x"}))
    found = route_templates(har, ruleset)
    assert not recorded_names(har, ruleset, KEY_A), found
    assert any(m == "POST" and t.startswith("/id/") and "/edit/{" in t for m, t in found), found


def test_a_lone_token_a_login_answered_is_a_parameter(ruleset):
    har = (HarBuilder().call("PUT", "/-/user/alice", body={"name": "alice", "password": "pw"}, status=201,
                             response={"ok": True, "token": TOKEN})
           .call("GET", "/-/whoami", headers=[("Authorization", f"Bearer {TOKEN}")], response={"username": "alice"})
           .call("DELETE", f"/-/user/token/{TOKEN}", headers=[("Authorization", f"Bearer {TOKEN}")],
                 response={"ok": "Logged out"}))
    found = route_templates(har, ruleset)
    assert not recorded_names(har, ruleset, TOKEN), found
    assert any(m == "DELETE" and t.startswith("/-/user/token/{") for m, t in found), found


def test_a_lone_token_sent_as_a_cookie_is_a_parameter(ruleset):
    har = (HarBuilder().call("GET", "/me", headers=[("Cookie", f"session={JWT}")], response={"user": "alice"})
           .call("DELETE", f"/sessions/{JWT}", headers=[("Cookie", f"session={JWT}")], status=204))
    found = route_templates(har, ruleset)
    assert not recorded_names(har, ruleset, JWT), found
    assert any(m == "DELETE" and t.startswith("/sessions/{") for m, t in found), found


def test_a_lone_token_nothing_issued_stays_literal(ruleset):
    # a route word shaped as a token that no answer carried and no credential sent: a word of the route
    har = (HarBuilder().call("GET", "/api/v2beta1x/items", response=[])
           .call("POST", "/hooks/build2024x", body={"a": 1}, response={"ok": True}))
    assert ("POST", "/hooks/build2024x") in route_templates(har, ruleset)


@pytest.mark.parametrize("word", ["left-pad-lite-1.0.0.tgz", "www.example.com", "bundle.8f3a2b1c.js", "v1.2.3"])
def test_dotted_words_stay_literal(ruleset, word):
    har = (HarBuilder().call("GET", f"/files/{word}", response={"ok": True})
           .call("GET", "/files/other.txt", response={"ok": True}))
    assert ("GET", f"/files/{word}") in route_templates(har, ruleset)


def test_a_replayed_read_of_an_unseen_token_is_refused():
    """The token a parameter now, a read naming a token no recording names is refused (another
    token's recording would answer for another credential); the recorded one still replays."""
    from support.capture_runs import build_from

    from capenv.serving.runtime import EnvironmentRuntime

    page = f'<a href="/moderate/{KEY_A}">moderate</a>'
    har = (HarBuilder().call("GET", "/comments", response=[{"id": 17, "text": "hi"}])
           .call("GET", "/admin/", response=page, response_type="text/html")
           .call("GET", f"/moderate/{KEY_A}", response={"id": 17, "text": "hi"}))
    bundle = build_from(har)
    tool = next(t for t in bundle.manifest.tools if t.template.startswith("/moderate/{"))
    runtime = EnvironmentRuntime(bundle)
    (param,) = tool.params
    recorded = runtime.call_tool(tool.name, {param: KEY_A})
    assert not recorded.is_error
    unseen = runtime.call_tool(tool.name, {param: KEY_B})
    assert unseen.is_error and unseen.structured["error"] == "refused", unseen
