#!/usr/bin/env python3
"""Scenario driver for Flowise 3.0.13's REST API (`/api/v1`) on SQLite (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46361 --mode capture [-v]

Every call carries the throwaway API key seed.py put in the database as `Authorization: Bearer`
(one call goes without it, one with a wrong key, to record the 401s). The seed is seed.py's: the
owner, two variables (region, max_tokens), a custom tool (weather_lookup), a chatflow (Support
bot) and an agent flow (Research agent), under fixed UUIDs. Everything the scenario makes gets a
server UUID. Flowise answers a missing tool, credential or document store (and a missing
chatflow's delete) 500 with the service's message, and a repeated delete of a variable, tool or
credential 200 `{raw: [], affected: 0}`: recorded as they are. Every call is sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "capenv-flowise-throwaway-api-key-0001"
A = "/api/v1"
V, T, CF, CR, DS = f"{A}/variables", f"{A}/tools", f"{A}/chatflows", f"{A}/credentials", f"{A}/document-store/store"
MISSING = "00000000-0000-4000-8000-00000000dead"
SUPPORT, AGENT = "5eed0000-0000-4000-8000-000000000021", "5eed0000-0000-4000-8000-000000000022"
TOOL = "5eed0000-0000-4000-8000-000000000011"
REGION = "5eed0000-0000-4000-8000-000000000001"
EMPTY_FLOW = json.dumps({"nodes": [], "edges": []})


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=API_KEY)


def tool_body(name, description, prop="query"):
    return {"name": name, "description": description, "color": "linear-gradient(rgb(10,20,30), rgb(40,50,60))",
            "schema": json.dumps([{"id": 0, "property": prop, "type": "string", "description": prop,
                                   "required": True}]),
            "func": f"return 'echo ' + ${prop};"}


def capture(d: Driver) -> None:
    # 1. The seed, as it is.
    d.get(f"{A}/ping")
    d.get(V)
    d.get(T)
    d.get(f"{T}/{TOOL}")
    d.get(CF)
    d.get(f"{CF}/{SUPPORT}")
    d.get(f"{CF}/{AGENT}")
    d.get(CF, type="CHATFLOW")
    d.get(CF, type="AGENTFLOW")
    d.get(CF, type="MULTIAGENT")
    d.get(CR)
    d.get(DS)
    d.call("GET", CF, token=None, expect=401)
    d.call("GET", CF, token="not-the-key", expect=401)
    d.call("GET", f"{CF}/{MISSING}", expect=404)
    d.call("GET", f"{T}/{MISSING}", expect=500)  # Flowise answers a missing tool 500

    # 2. Variables: create, list after each, update, refusals, delete.
    var = {}
    for name, value, kind in [("api_base", "https://api.example.test", "static"), ("retries", "3", "static"),
                              ("session_user", "", "runtime")]:
        _, body = d.call("POST", V, {"name": name, "value": value, "type": kind}, expect=200)
        var[name] = body["id"]
        d.get(V)
    d.call("POST", V, {"value": "no name"}, expect=500)
    d.call("PUT", f"{V}/{var['retries']}", {"name": "retries", "value": "5", "type": "static"}, expect=200)
    d.get(V)
    d.call("PUT", f"{V}/{var['api_base']}", {"value": "https://api2.example.test"}, expect=200)
    d.get(V)
    d.call("PUT", f"{V}/{REGION}", {"name": "region_primary"}, expect=200)
    d.get(V)
    d.call("PUT", f"{V}/{MISSING}", {"name": "ghost", "value": "x"}, expect=404)
    page = d.get(V, page=1, limit=2)
    d.get(V, page=2, limit=2)
    d.check("variables total", page.get("total") if isinstance(page, dict) else None, 5)
    d.call("DELETE", f"{V}/{var['session_user']}", expect=200)
    d.get(V)
    d.call("DELETE", f"{V}/{var['session_user']}", expect=200)  # {"raw": [], "affected": 0}

    # 3. Tools: create, read, update, refusals, delete.
    tools = {}
    for name, description in [("calculator", "Evaluate arithmetic"), ("translator", "Translate text"),
                              ("searcher", "Search the web")]:
        _, body = d.call("POST", T, tool_body(name, description), expect=200)
        tools[name] = body["id"]
        d.get(f"{T}/{body['id']}")
        d.get(T)
    d.call("POST", T, {"description": "no name"}, expect=500)
    d.call("PUT", f"{T}/{tools['calculator']}", {"description": "Evaluate arithmetic expressions"}, expect=200)
    d.get(f"{T}/{tools['calculator']}")
    d.call("PUT", f"{T}/{tools['translator']}", tool_body("translator_v2", "Translate text between languages",
                                                           "text"), expect=200)
    d.get(f"{T}/{tools['translator']}")
    d.get(T)
    d.call("PUT", f"{T}/{TOOL}", {"color": "linear-gradient(rgb(1,2,3), rgb(4,5,6))"}, expect=200)
    d.get(f"{T}/{TOOL}")
    d.call("PUT", f"{T}/{MISSING}", {"description": "ghost"}, expect=500)
    d.get(T, page=1, limit=2)
    d.get(T, page=2, limit=2)
    d.call("DELETE", f"{T}/{tools['searcher']}", expect=200)
    d.call("GET", f"{T}/{tools['searcher']}", expect=500)
    d.get(T)
    d.call("DELETE", f"{T}/{tools['searcher']}", expect=200)

    # 4. Chatflows: create (each type), read, filters, paging, updates, refusals, delete.
    flows = {}
    for name, kind, extra in [("FAQ bot", "CHATFLOW", {"category": "support;faq"}),
                              ("Sales assistant", "CHATFLOW", {"isPublic": True}),
                              ("Planner", "AGENTFLOW", {}),
                              ("Team of agents", "MULTIAGENT", {})]:
        body = {"name": name, "type": kind, "deployed": False, "isPublic": False, "flowData": EMPTY_FLOW, **extra}
        _, made = d.call("POST", CF, body, expect=200)
        flows[name] = made["id"]
        d.get(f"{CF}/{made['id']}")
        d.get(CF)
    d.call("POST", CF, {"name": "No flow data", "type": "CHATFLOW"}, expect=500)
    d.get(CF, type="CHATFLOW")
    d.get(CF, type="AGENTFLOW")
    d.get(CF, type="MULTIAGENT")
    d.get(CF, page=1, limit=3)
    d.get(CF, page=2, limit=3)
    d.get(CF, type="CHATFLOW", page=1, limit=2)
    d.call("PUT", f"{CF}/{flows['FAQ bot']}", {"name": "FAQ bot (v2)"}, expect=200)
    d.get(f"{CF}/{flows['FAQ bot']}")
    d.call("PUT", f"{CF}/{flows['FAQ bot']}", {"deployed": True, "category": "support"}, expect=200)
    d.get(f"{CF}/{flows['FAQ bot']}")
    d.call("PUT", f"{CF}/{flows['Sales assistant']}",
           {"chatbotConfig": json.dumps({"welcomeMessage": "Hi, how can I help?"})}, expect=200)
    d.get(f"{CF}/{flows['Sales assistant']}")
    d.call("PUT", f"{CF}/{SUPPORT}", {"flowData": json.dumps({"nodes": [], "edges": [], "viewport": {"x": 0,
                                                                                                   "y": 0, "zoom": 1}})},
           expect=200)
    d.get(f"{CF}/{SUPPORT}")
    d.get(CF)
    d.call("PUT", f"{CF}/{MISSING}", {"name": "ghost"}, expect=404)
    d.get(f"{A}/chatmessage/{SUPPORT}")
    d.get(f"{A}/chatmessage/{flows['FAQ bot']}")
    d.get(f"{A}/public-chatflows/{flows['Sales assistant']}")
    d.call("GET", f"{A}/public-chatflows/{flows['Planner']}", token=None, expect=401)
    d.call("DELETE", f"{CF}/{flows['Team of agents']}", expect=200)
    d.call("GET", f"{CF}/{flows['Team of agents']}", expect=404)
    d.get(CF)
    d.get(CF, type="MULTIAGENT")
    d.call("DELETE", f"{CF}/{flows['Team of agents']}", expect=500)

    # 5. Credentials: create, read (the item decrypts its data), update, refusals, delete.
    creds = {}
    for name, component, data in [("OpenAI main", "openAIApi", {"openAIApiKey": "sk-capenv-throwaway-1"}),
                                  ("Anthropic", "anthropicApi", {"anthropicApiKey": "capenv-throwaway-2"})]:
        _, made = d.call("POST", CR, {"name": name, "credentialName": component, "plainDataObj": data},
                         expect=200)
        creds[name] = made["id"]
        d.get(f"{CR}/{made['id']}")
        d.get(CR)
    d.get(CR, credentialName="openAIApi")
    d.get(CR, credentialName="githubApi")
    d.call("PUT", f"{CR}/{creds['OpenAI main']}", {"name": "OpenAI primary", "credentialName": "openAIApi",
                                                  "plainDataObj": {"openAIApiKey": "sk-capenv-throwaway-3"}},
           expect=200)
    d.get(f"{CR}/{creds['OpenAI main']}")
    d.get(CR)
    d.call("GET", f"{CR}/{MISSING}", expect=500)
    d.call("PUT", f"{CR}/{MISSING}", {"name": "ghost", "credentialName": "openAIApi", "plainDataObj": {}},
           expect=500)
    d.call("DELETE", f"{CR}/{creds['Anthropic']}", expect=200)
    d.call("GET", f"{CR}/{creds['Anthropic']}", expect=500)
    d.get(CR)
    d.call("DELETE", f"{CR}/{creds['Anthropic']}", expect=200)

    # 6. Document stores: create, read, update, refusals, delete.
    stores = {}
    for name, description in [("Handbook", "The employee handbook"), ("Release notes", "Product release notes")]:
        _, made = d.call("POST", DS, {"name": name, "description": description}, expect=200)
        stores[name] = made["id"]
        d.get(f"{DS}/{made['id']}")
        d.get(DS)
    d.call("PUT", f"{DS}/{stores['Handbook']}", {"name": "Handbook 2027", "description": "Updated handbook"},
           expect=200)
    d.get(f"{DS}/{stores['Handbook']}")
    d.get(DS)
    d.get(DS, page=1, limit=1)
    d.call("GET", f"{DS}/{MISSING}", expect=500)
    d.call("PUT", f"{DS}/{MISSING}", {"name": "ghost"}, expect=500)
    d.call("DELETE", f"{DS}/{stores['Release notes']}", expect=200)
    d.call("GET", f"{DS}/{stores['Release notes']}", expect=500)
    d.get(DS)
    d.call("DELETE", f"{DS}/{stores['Release notes']}", expect=500)

    # 7. The end state.
    d.get(V)
    d.get(T)
    d.get(CF)
    d.get(CR)
    d.get(DS)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46361")
