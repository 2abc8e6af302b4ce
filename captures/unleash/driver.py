#!/usr/bin/env python3
"""Scenario driver for Unleash 7.5.1's Admin API on PostgreSQL (talks to the mitmproxy reverse
proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42921 --mode capture [-v]

Every call carries the throwaway admin API token start.sh made (INIT_ADMIN_API_TOKENS) as the bare
`Authorization: <token>` header Unleash reads (no scheme; one call goes without it, to record the
401). The seed is Unleash's own (start.sh): the project `default`, the environments `development`
and `production`, the built-in strategies, the tag type `simple`, five context fields. The open
source edition has one project (creating another answers 404), so every flag lives in `default`.
Flags are named by the client (`POST .../features` with `name`) and addressed by that name at
/api/admin/projects/default/features/{name}; strategies get server UUIDs under
.../environments/{env}/strategies; segments get integer ids; tag types, tags (type + value) and
context fields are named by the client. Every call is sequential, with a random 50-150 ms sleep
before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "*:*.capenv-unleash-admin-token-not-a-secret"
A = "/api/admin"
P = f"{A}/projects/default"
F = f"{P}/features"


class UnleashDriver(Driver):
    """The kit's driver with Unleash's bare token (no scheme) in Authorization."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        headers = dict(headers or {})
        if token is SEND_TOKEN:
            headers["Authorization"] = TOKEN
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return UnleashDriver(base, min_sleep, max_sleep, verbose)


def strategies(flag, env):
    return f"{F}/{flag}/environments/{env}/strategies"


def capture(d: Driver) -> None:
    # 1. The seed, as it is (items too, so that their views are proven before any write).
    d.get(f"{A}/projects")
    d.get(F)
    d.get(f"{A}/feature-types")
    d.get(f"{A}/environments")
    d.get(f"{A}/tag-types")
    d.get(f"{A}/tags")
    d.get(f"{A}/context")
    d.get(f"{A}/segments")
    d.get(f"{A}/context/userId")
    d.get(f"{A}/tag-types/simple")
    d.get(f"{A}/strategies")
    d.get(f"{A}/strategies/flexibleRollout")
    d.call("GET", F, token=None, expect=401)

    # 2. Flags: client-chosen names, a read of the item and the list after each create.
    flags = [("checkout-v2", "release", "The new checkout flow"),
             ("dark-mode", "experiment", "Dark colour scheme"),
             ("search-ranking", "operational", "Ranking model switch"),
             ("maintenance-mode", "kill-switch", None)]
    for name, kind, description in flags:
        body = {"name": name, "type": kind}
        if description is not None:
            body["description"] = description
        d.call("POST", F, body, expect=201)
        d.get(f"{F}/{name}")
        d.get(F)
    d.call("POST", F, {"name": "checkout-v2", "type": "release"}, expect=409)
    d.call("POST", F, {"name": "bad name!"}, expect=400)
    d.call("POST", F, {"type": "release"}, expect=400)
    d.call("POST", F, {"name": "pricing-page", "type": "nonsense"}, expect=400)
    d.call("GET", f"{F}/no-such-flag", expect=404)
    d.call("POST", f"{A}/features/validate", {"name": "pricing-page"}, expect=200)
    d.call("POST", f"{A}/features/validate", {"name": "dark-mode"}, expect=409)
    d.call("POST", F, {"name": "pricing-page", "type": "permission", "description": "Pricing",
                       "impressionData": True}, expect=201)
    d.get(f"{F}/pricing-page")
    d.get(F)

    # 3. Updates: JSON Patch arrays, then PUT.
    d.call("PATCH", f"{F}/dark-mode", [{"op": "replace", "path": "/description", "value": "Dark theme"}],
           expect=200)
    d.get(f"{F}/dark-mode")
    d.call("PATCH", f"{F}/search-ranking", [{"op": "replace", "path": "/stale", "value": True}], expect=200)
    d.get(f"{F}/search-ranking")
    d.call("PATCH", f"{F}/maintenance-mode",
           [{"op": "add", "path": "/description", "value": "Switch the site off"},
            {"op": "replace", "path": "/impressionData", "value": True}], expect=200)
    d.get(f"{F}/maintenance-mode")
    d.get(F)
    d.call("PATCH", f"{F}/dark-mode", {"description": "not a patch"}, expect=400)
    d.call("PATCH", f"{F}/no-such-flag", [{"op": "replace", "path": "/description", "value": "x"}],
           expect=404)
    d.get(f"{F}/dark-mode")
    d.call("PUT", f"{F}/checkout-v2", {"description": "Checkout, second edition", "type": "experiment",
                                        "stale": False, "impressionData": True}, expect=200)
    d.get(f"{F}/checkout-v2")
    d.call("PUT", f"{F}/pricing-page", {"description": "Pricing page", "type": "release"}, expect=200)
    d.get(f"{F}/pricing-page")
    d.get(F)
    d.call("PUT", f"{F}/checkout-v2", {"type": "nonsense"}, expect=400)
    d.call("PUT", f"{F}/no-such-flag", {"type": "release"}, expect=404)
    d.get(f"{F}/checkout-v2")

    # 4. Strategies per environment: server UUIDs.
    _, s1 = d.call("POST", strategies("checkout-v2", "development"),
                   {"name": "flexibleRollout", "constraints": [],
                    "parameters": {"rollout": "50", "stickiness": "default", "groupId": "checkout-v2"}},
                   expect=200)
    d.get(strategies("checkout-v2", "development"))
    d.get(f"{strategies('checkout-v2', 'development')}/{s1['id']}")
    d.get(f"{F}/checkout-v2/environments/development")
    d.get(f"{F}/checkout-v2")
    _, s2 = d.call("POST", strategies("checkout-v2", "production"),
                   {"name": "default", "title": "everyone"}, expect=200)
    d.get(strategies("checkout-v2", "production"))
    d.get(f"{F}/checkout-v2/environments/production")
    _, s3 = d.call("POST", strategies("dark-mode", "development"),
                   {"name": "applicationHostname", "parameters": {"hostNames": "web-1,web-2"},
                    "constraints": [{"contextName": "appName", "operator": "IN", "values": ["web"]}]},
                   expect=200)
    d.get(f"{strategies('dark-mode', 'development')}/{s3['id']}")
    d.get(strategies("dark-mode", "development"))
    d.get(F)
    d.call("PUT", f"{strategies('checkout-v2', 'development')}/{s1['id']}",
           {"name": "flexibleRollout", "constraints": [],
            "parameters": {"rollout": "75", "stickiness": "default", "groupId": "checkout-v2"}}, expect=200)
    d.get(f"{strategies('checkout-v2', 'development')}/{s1['id']}")
    d.get(strategies("checkout-v2", "development"))
    d.call("PATCH", f"{strategies('checkout-v2', 'development')}/{s1['id']}",
           [{"op": "replace", "path": "/parameters/rollout", "value": "20"}], expect=200)
    d.get(f"{strategies('checkout-v2', 'development')}/{s1['id']}")
    d.call("PATCH", f"{strategies('dark-mode', 'development')}/{s3['id']}",
           [{"op": "replace", "path": "/title", "value": "beta users"}], expect=200)
    d.get(f"{strategies('dark-mode', 'development')}/{s3['id']}")
    d.get(f"{F}/dark-mode")
    d.call("POST", strategies("checkout-v2", "development"), {"name": "no-such-strategy"}, expect=400)
    d.call("POST", strategies("checkout-v2", "development"), {"parameters": {}}, expect=400)
    d.call("POST", strategies("no-such-flag", "development"), {"name": "default"}, expect=404)
    d.call("GET", f"{strategies('checkout-v2', 'development')}/00000000-0000-0000-0000-000000000000",
           expect=404)
    d.call("GET", f"{F}/checkout-v2/environments/staging", expect=404)
    d.call("DELETE", f"{strategies('checkout-v2', 'production')}/{s2['id']}", expect=200)
    d.call("GET", f"{strategies('checkout-v2', 'production')}/{s2['id']}", expect=404)
    d.get(strategies("checkout-v2", "production"))
    d.get(f"{F}/checkout-v2")
    d.call("DELETE", f"{strategies('checkout-v2', 'production')}/{s2['id']}", expect=404)
    _, s4 = d.call("POST", strategies("search-ranking", "production"),
                   {"name": "remoteAddress", "parameters": {"IPs": "10.0.0.1"}}, expect=200)
    d.get(f"{strategies('search-ranking', 'production')}/{s4['id']}")

    # 5. Environments on and off.
    d.call("POST", f"{F}/checkout-v2/environments/development/on", expect=200)
    d.get(f"{F}/checkout-v2")
    d.get(f"{F}/checkout-v2/environments/development")
    d.get(F)
    d.call("POST", f"{F}/search-ranking/environments/production/on", expect=200)
    d.get(f"{F}/search-ranking")
    d.call("POST", f"{F}/dark-mode/environments/development/on", expect=200)
    d.get(f"{F}/dark-mode/environments/development")
    d.call("POST", f"{F}/checkout-v2/environments/development/off", expect=200)
    d.get(f"{F}/checkout-v2")
    d.get(F)
    d.call("POST", f"{F}/checkout-v2/environments/staging/on", expect=404)
    d.call("POST", f"{F}/no-such-flag/environments/development/on", expect=404)

    # 6. Tag types and tags.
    d.call("POST", f"{A}/tag-types", {"name": "team", "description": "Owning team"}, expect=201)
    d.get(f"{A}/tag-types/team")
    d.get(f"{A}/tag-types")
    d.call("POST", f"{A}/tag-types", {"name": "team"}, expect=409)
    d.call("PUT", f"{A}/tag-types/team", {"name": "team", "description": "The team that owns it"}, expect=200)
    d.get(f"{A}/tag-types/team")
    d.call("GET", f"{A}/tag-types/no-such-type", expect=404)
    d.call("POST", f"{A}/tag-types", {"name": "region-tag", "description": "Where it runs"}, expect=201)
    d.get(f"{A}/tag-types")
    d.call("POST", f"{A}/features/checkout-v2/tags", {"type": "team", "value": "payments"}, expect=201)
    d.get(f"{A}/features/checkout-v2/tags")
    d.call("POST", f"{A}/features/checkout-v2/tags", {"type": "simple", "value": "beta"}, expect=201)
    d.get(f"{A}/features/checkout-v2/tags")
    d.call("POST", f"{A}/features/dark-mode/tags", {"type": "team", "value": "design"}, expect=201)
    d.get(f"{A}/features/dark-mode/tags")
    d.get(f"{A}/tags")
    d.get(f"{A}/tags/team")
    d.get(f"{A}/tags/team/payments")
    d.call("POST", f"{A}/tags", {"type": "simple", "value": "legacy"}, expect=201)
    d.get(f"{A}/tags/simple/legacy")
    d.get(f"{A}/tags")
    d.call("POST", f"{A}/features/checkout-v2/tags", {"type": "no-such-type", "value": "xyz"}, expect=400)
    d.call("DELETE", f"{A}/features/checkout-v2/tags/simple/beta", expect=200)
    d.get(f"{A}/features/checkout-v2/tags")
    d.call("DELETE", f"{A}/tags/simple/legacy", expect=200)
    d.call("GET", f"{A}/tags/simple/legacy", expect=404)
    d.get(f"{A}/tags")
    d.call("DELETE", f"{A}/tag-types/region-tag", expect=200)
    d.call("GET", f"{A}/tag-types/region-tag", expect=404)
    d.get(f"{A}/tag-types")

    # 7. Context fields: client-chosen names.
    d.call("POST", f"{A}/context", {"name": "region", "description": "Where the user is",
                                    "legalValues": [{"value": "eu"}, {"value": "us"}], "stickiness": False},
           expect=201)
    d.get(f"{A}/context/region")
    d.get(f"{A}/context")
    d.call("POST", f"{A}/context", {"name": "region"}, expect=409)
    d.call("POST", f"{A}/context", {"description": "no name"}, expect=400)
    d.call("PUT", f"{A}/context/region", {"name": "region", "description": "The user's region",
                                          "legalValues": [{"value": "eu"}, {"value": "us"}, {"value": "apac"}],
                                          "stickiness": True}, expect=200)
    d.get(f"{A}/context/region")
    d.call("POST", f"{A}/context", {"name": "tenant", "description": "Customer tenant"}, expect=201)
    d.get(f"{A}/context/tenant")
    d.get(f"{A}/context")
    d.call("DELETE", f"{A}/context/tenant", expect=200)
    d.call("GET", f"{A}/context/tenant", expect=404)
    d.get(f"{A}/context")
    d.call("GET", f"{A}/context/no-such-field", expect=404)

    # 8. Segments: integer ids.
    _, seg1 = d.call("POST", f"{A}/segments", {
        "name": "beta-users", "description": "Users in the beta",
        "constraints": [{"contextName": "userId", "operator": "IN", "values": ["7", "9"]}]}, expect=201)
    d.get(f"{A}/segments/{seg1['id']}")
    d.get(f"{A}/segments")
    _, seg2 = d.call("POST", f"{A}/segments", {
        "name": "eu-customers", "constraints": [{"contextName": "region", "operator": "IN", "values": ["eu"]}]},
        expect=201)
    d.get(f"{A}/segments/{seg2['id']}")
    d.get(f"{A}/segments")
    d.call("POST", f"{A}/segments", {"description": "no name"}, expect=400)
    d.call("PUT", f"{A}/segments/{seg1['id']}", {
        "name": "beta-users", "description": "Beta testers",
        "constraints": [{"contextName": "userId", "operator": "IN", "values": ["7", "9", "11"]}]}, expect=204)
    d.get(f"{A}/segments/{seg1['id']}")
    d.get(f"{A}/segments")
    d.call("DELETE", f"{A}/segments/{seg2['id']}", expect=204)
    d.call("GET", f"{A}/segments/{seg2['id']}", expect=404)
    d.get(f"{A}/segments")
    d.call("GET", f"{A}/segments/999", expect=404)

    # 9. Custom strategy types.
    d.call("POST", f"{A}/strategies", {"name": "byRegion", "description": "Users of some regions",
                                       "parameters": [{"name": "regions", "type": "list", "description": "",
                                                       "required": False}]}, expect=201)
    d.get(f"{A}/strategies/byRegion")
    d.call("PUT", f"{A}/strategies/byRegion", {"name": "byRegion", "description": "Users of listed regions",
                                               "parameters": []}, expect=200)
    d.get(f"{A}/strategies/byRegion")
    d.call("POST", f"{A}/strategies/byRegion/deprecate", expect=200)
    d.get(f"{A}/strategies/byRegion")
    d.call("POST", f"{A}/strategies/byRegion/reactivate", expect=200)
    d.get(f"{A}/strategies/byRegion")
    d.call("POST", f"{A}/strategies", {"name": "byRegion", "parameters": []}, expect=409)
    d.call("DELETE", f"{A}/strategies/byRegion", expect=200)
    d.call("GET", f"{A}/strategies/byRegion", expect=404)

    # 10. Archive: DELETE moves a flag to the archive; revive; delete from the archive.
    d.call("DELETE", f"{F}/maintenance-mode", expect=202)
    d.call("GET", f"{F}/maintenance-mode", expect=404)
    d.get(F)
    d.get(f"{A}/search/features", archived="IS:true")
    d.call("POST", f"{A}/archive/revive/maintenance-mode", expect=200)
    d.get(f"{F}/maintenance-mode")
    d.get(F)
    d.call("DELETE", f"{F}/pricing-page", expect=202)
    d.call("GET", f"{F}/pricing-page", expect=404)
    d.get(f"{A}/search/features", archived="IS:true")
    d.call("POST", F, {"name": "pricing-page", "type": "release"}, expect=409)
    d.call("DELETE", f"{A}/archive/pricing-page", expect=200)
    d.get(f"{A}/search/features", archived="IS:true")
    d.call("POST", F, {"name": "pricing-page", "type": "release", "description": "Pricing, again"}, expect=201)
    d.get(f"{F}/pricing-page")
    d.get(F)
    d.call("DELETE", f"{F}/no-such-flag", expect=404)

    # 11. Lists with query, paging and sort.
    d.get(f"{A}/search/features", project="IS:default", sortBy="name", sortOrder="asc")
    d.get(f"{A}/search/features", project="IS:default", limit="2", offset="0", sortBy="name", sortOrder="asc")
    d.get(f"{A}/search/features", project="IS:default", limit="2", offset="2", sortBy="name", sortOrder="asc")
    d.get(f"{A}/search/features", query="mode")
    d.get(f"{A}/search/features", type="IS:release")
    d.get(f"{A}/projects")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42921")
