#!/usr/bin/env python3
"""Scenario driver for n8n 1.123.81's public API (`/api/v1`) on SQLite (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43191 --mode capture [-v]

Every call carries the throwaway API key start.sh put in the database, as the `X-N8N-API-KEY`
header n8n reads (one call goes without it, to record the 401). The seed is start.sh's: the owner
account and its API key, nothing else (no workflow, tag, credential or execution). Workflows, tags
and credentials get server ids (16 letters and digits); executions count up from 1; users are
UUIDs. Lists answer `{data: [...], nextCursor}` and page with `?limit=` and `?cursor=`. One call
is no API call: the POST to the active workflow's webhook (`/webhook/capenv-hook`), which makes the
capture's one execution. Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "n8n_api_capenv-n8n-throwaway-api-key-0001"
A = "/api/v1"
W = f"{A}/workflows"
T = f"{A}/tags"
C = f"{A}/credentials"
E = f"{A}/executions"
U = f"{A}/users"


class N8nDriver(Driver):
    """The kit's driver with n8n's API key header instead of Authorization."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        headers = dict(headers or {})
        if token is SEND_TOKEN:
            headers["X-N8N-API-KEY"] = API_KEY
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return N8nDriver(base, min_sleep, max_sleep, verbose)


def manual_workflow(name, node_id, extra_settings=None):
    """A workflow with a manual trigger and a no-op node (no trigger n8n can activate)."""
    settings = {"executionOrder": "v1", **(extra_settings or {})}
    return {"name": name,
            "nodes": [{"id": f"{node_id}-0001", "name": "Start", "type": "n8n-nodes-base.manualTrigger",
                       "typeVersion": 1, "position": [0, 0], "parameters": {}},
                      {"id": f"{node_id}-0002", "name": "Done", "type": "n8n-nodes-base.noOp",
                       "typeVersion": 1, "position": [220, 0], "parameters": {}}],
            "connections": {"Start": {"main": [[{"node": "Done", "type": "main", "index": 0}]]}},
            "settings": settings}


HOOK = {"name": "Inbound hook",
        "nodes": [{"id": "7d3c1a52-5e0b-4c1e-9f0a-00000000a001", "name": "Webhook",
                   "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
                   "parameters": {"path": "capenv-hook", "httpMethod": "POST"},
                   "webhookId": "7d3c1a52-5e0b-4c1e-9f0a-00000000a0ff"}],
        "connections": {}, "settings": {"executionOrder": "v1"}}


def capture(d: Driver) -> None:
    # 1. The seed, as it is.
    d.get(W)
    d.get(T)
    users = d.get(U)
    owner = users["data"][0]["id"]
    d.get(f"{U}/{owner}")
    d.get(f"{U}/owner@capenv.test")
    d.get(E)
    d.get(f"{C}/schema/httpBasicAuth")
    d.get(f"{C}/schema/httpHeaderAuth")
    d.call("GET", f"{C}/schema/noSuchCredentialType", expect=404)
    d.call("GET", W, token=None, expect=401)
    d.call("GET", f"{A}/variables", expect=403)
    d.call("GET", f"{A}/projects", expect=403)

    # 2. Tags: server ids, a read of the item and the list after each write.
    tags = {}
    for name in ["ops", "marketing", "billing", "nightly"]:
        _, tag = d.call("POST", T, {"name": name}, expect=201)
        tags[name] = tag["id"]
        d.get(f"{T}/{tag['id']}")
        d.get(T)
    d.call("POST", T, {"name": "ops"}, expect=409)
    d.call("POST", T, {}, expect=400)
    d.call("POST", T, {"name": 42}, expect=400)
    d.call("GET", f"{T}/NoSuchTag0000000", expect=404)
    d.call("PUT", f"{T}/{tags['billing']}", {"name": "finance"}, expect=200)
    d.get(f"{T}/{tags['billing']}")
    d.get(T)
    d.call("PUT", f"{T}/{tags['billing']}", {"name": "ops"}, expect=409)
    d.call("PUT", f"{T}/{tags['billing']}", {}, expect=400)
    d.call("PUT", f"{T}/NoSuchTag0000000", {"name": "ghost"}, expect=404)
    d.get(f"{T}/{tags['billing']}")
    page = d.get(T, limit=2)
    d.get(T, limit=2, cursor=page["nextCursor"])
    d.call("GET", T, params={"limit": "many"}, expect=400)
    d.call("DELETE", f"{T}/{tags['nightly']}", expect=200)
    d.call("GET", f"{T}/{tags['nightly']}", expect=404)
    d.get(T)
    d.call("DELETE", f"{T}/{tags['nightly']}", expect=404)

    # 3. Workflows: server ids; creates, reads, filters, paging, updates, tags.
    wf = {}
    for name, node_id, extra in [("Daily report", "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f1", None),
                                 ("Sync contacts", "2f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f2",
                                  {"saveManualExecutions": True}),
                                 ("Cleanup", "3f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f3", {"timezone": "Europe/Berlin"})]:
        _, body = d.call("POST", W, manual_workflow(name, node_id, extra), expect=200)
        wf[name] = body["id"]
        d.get(f"{W}/{body['id']}")
        d.get(W)
    _, hook = d.call("POST", W, HOOK, expect=200)
    wf["hook"] = hook["id"]
    d.get(f"{W}/{hook['id']}")
    d.get(W)
    d.call("POST", W, {"name": "No nodes", "connections": {}, "settings": {}}, expect=400)
    d.call("POST", W, {"nodes": [], "connections": {}, "settings": {}}, expect=400)
    d.call("POST", W, {"name": 7, "nodes": [], "connections": {}, "settings": {}}, expect=400)
    d.call("POST", W, {"name": "Bad nodes", "nodes": "none", "connections": {}, "settings": {}}, expect=400)
    d.call("GET", f"{W}/NoSuchWorkflow00", expect=404)
    # a second workflow may take a name already used
    _, dup = d.call("POST", W, manual_workflow("Cleanup", "4f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f4"), expect=200)
    wf["dup"] = dup["id"]
    d.get(f"{W}/{dup['id']}")
    d.get(W)
    # filters and paging
    d.get(W, name="Cleanup")
    d.get(W, name="Nothing like it")
    d.get(W, active="false")
    d.get(W, active="true")
    d.get(W, excludePinnedData="true")
    page = d.get(W, limit=2)
    page = d.get(W, limit=2, cursor=page["nextCursor"])
    d.get(W, limit=2, cursor=page["nextCursor"])
    d.call("GET", W, params={"limit": 500}, expect=400)
    d.call("GET", W, params={"active": "maybe"}, expect=400)
    # updates (PUT replaces name, nodes, connections and settings)
    report = manual_workflow("Daily report (v2)", "1f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f1", {"saveManualExecutions": False})
    d.call("PUT", f"{W}/{wf['Daily report']}", report, expect=200)
    d.get(f"{W}/{wf['Daily report']}")
    d.get(W)
    d.call("PUT", f"{W}/{wf['Sync contacts']}", manual_workflow("Sync contacts", "2f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f2",
                                                                {"executionTimeout": 300}), expect=200)
    d.get(f"{W}/{wf['Sync contacts']}")
    d.call("PUT", f"{W}/{wf['Sync contacts']}", {"name": "Only a name"}, expect=400)
    d.call("PUT", f"{W}/NoSuchWorkflow00", manual_workflow("Ghost", "5f0e2d3c-4b5a-4978-8695-a4b3c2d1e0f5"), expect=404)
    d.get(f"{W}/{wf['Sync contacts']}")
    # tags of a workflow
    d.get(f"{W}/{wf['Daily report']}/tags")
    d.call("PUT", f"{W}/{wf['Daily report']}/tags", [{"id": tags["ops"]}, {"id": tags["marketing"]}], expect=200)
    d.get(f"{W}/{wf['Daily report']}/tags")
    d.get(f"{W}/{wf['Daily report']}")
    d.call("PUT", f"{W}/{wf['Cleanup']}/tags", [{"id": tags["ops"]}], expect=200)
    d.get(f"{W}/{wf['Cleanup']}/tags")
    d.get(W, tags="ops")
    d.get(W, tags="marketing")
    d.get(W, tags="ops,marketing")
    d.get(W, tags="finance")
    d.call("PUT", f"{W}/{wf['Cleanup']}/tags", [{"id": "NoSuchTag0000000"}], expect=404)
    d.call("PUT", f"{W}/NoSuchWorkflow00/tags", [{"id": tags["ops"]}], expect=404)
    d.call("GET", f"{W}/NoSuchWorkflow00/tags", expect=404)
    d.call("PUT", f"{W}/{wf['Daily report']}/tags", [{"id": tags["marketing"]}], expect=200)
    d.get(f"{W}/{wf['Daily report']}/tags")
    d.get(W, tags="ops")
    d.get(T)

    # 4. Activation: a workflow with no trigger cannot be activated; the webhook one can.
    d.call("POST", f"{W}/{wf['Cleanup']}/activate", expect=400)
    d.get(f"{W}/{wf['Cleanup']}")
    d.call("POST", f"{W}/{wf['hook']}/activate", expect=200)
    d.get(f"{W}/{wf['hook']}")
    d.get(W, active="true")
    d.get(W, active="false")
    d.call("POST", f"{W}/NoSuchWorkflow00/activate", expect=404)

    # 5. The webhook makes an execution; executions are read, filtered and deleted.
    d.call("POST", "/webhook/capenv-hook", {"order": 1001, "total": 12.5}, token=None, expect=200)
    executions = d.get(E)
    while not executions["data"]:
        executions = d.get(E)
    ex = executions["data"][0]["id"]
    d.get(f"{E}/{ex}")
    d.get(f"{E}/{ex}", includeData="true")
    d.get(E, workflowId=wf["hook"])
    d.get(E, workflowId=wf["Cleanup"])
    d.get(E, status="success")
    d.get(E, status="error")
    d.call("GET", E, params={"status": "sideways"}, expect=400)
    d.call("GET", f"{E}/424242", expect=404)
    d.call("POST", f"{W}/{wf['hook']}/deactivate", expect=200)
    d.get(f"{W}/{wf['hook']}")
    d.get(W, active="true")
    d.call("POST", f"{W}/NoSuchWorkflow00/deactivate", expect=404)
    d.call("DELETE", f"{E}/{ex}", expect=200)
    d.call("GET", f"{E}/{ex}", expect=404)
    d.get(E)
    d.call("DELETE", f"{E}/{ex}", expect=404)

    # 6. Deleting workflows.
    d.call("DELETE", f"{W}/{wf['dup']}", expect=200)
    d.call("GET", f"{W}/{wf['dup']}", expect=404)
    d.get(W)
    d.call("DELETE", f"{W}/{wf['dup']}", expect=404)
    d.call("DELETE", f"{T}/{tags['ops']}", expect=200)
    d.get(f"{W}/{wf['Cleanup']}/tags")
    d.get(W, tags="ops")
    d.get(T)

    # 7. Credentials: create (data checked against the type's schema) and delete.
    creds = {}
    for name, kind, data in [("Billing API", "httpHeaderAuth", {"name": "X-Api-Key", "value": "throwaway-1"}),
                             ("Intranet", "httpBasicAuth", {"user": "robot", "password": "throwaway-2"})]:
        _, cred = d.call("POST", C, {"name": name, "type": kind, "data": data}, expect=200)
        creds[name] = cred["id"]
    d.call("POST", C, {"name": "No type", "data": {}}, expect=400)
    d.call("POST", C, {"name": "Odd type", "type": "noSuchCredentialType", "data": {}}, expect=400)
    d.call("POST", C, {"name": "Wrong data", "type": "httpBasicAuth", "data": {"user": 5}}, expect=400)
    d.call("POST", C, {"name": "Extra data", "type": "httpBasicAuth", "data": {"user": "a", "colour": "red"}},
           expect=400)
    d.call("DELETE", f"{C}/{creds['Intranet']}", expect=200)
    d.call("DELETE", f"{C}/{creds['Intranet']}", expect=404)
    d.call("DELETE", f"{C}/NoSuchCredential", expect=404)

    # 8. Users: invite (no mail server: the answer carries the invite URL), read, delete.
    _, invited = d.call("POST", U, [{"email": "member@capenv.test", "role": "global:member"}], expect=201)
    member = invited[0]["user"]["id"]
    d.get(f"{U}/{member}")
    d.get(f"{U}/member@capenv.test")
    d.get(U)
    d.get(U, includeRole="true")
    d.get(U, limit=1)
    d.call("POST", U, [{"email": "not-an-email"}], expect=400)
    d.call("GET", f"{U}/nobody@capenv.test", expect=404)
    d.call("GET", f"{U}/00000000-0000-4000-8000-000000000000", expect=404)
    d.call("DELETE", f"{U}/{member}", expect=204)
    d.call("GET", f"{U}/{member}", expect=404)
    d.get(U)

    # 9. What the community edition's license refuses.
    d.call("POST", f"{A}/variables", {"key": "REGION", "value": "eu"}, expect=403)
    d.call("POST", f"{A}/projects", {"name": "Team"}, expect=403)

    # 10. The last state.
    d.get(W)
    d.get(T)
    for name in ["Daily report", "Sync contacts", "Cleanup", "hook"]:
        d.get(f"{W}/{wf[name]}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43191")
