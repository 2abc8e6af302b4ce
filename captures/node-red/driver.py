#!/usr/bin/env python3
"""Scenario driver for Node-RED 4.1.15's Admin HTTP API (talks to the mitmproxy reverse proxy in front
of it).

Usage:
  python driver.py --base http://127.0.0.1:43051 --mode capture [-v]

No credentials: the server runs without adminAuth. Routes:
`GET /flows` (the whole flow configuration, one flat array of tabs, config nodes and nodes; with
`Node-RED-API-Version: v2` the document `{"flows": [...], "rev": "<sha256>"}`),
`POST /flows` (replaces the whole configuration: v1 sends the bare array and gets 204, v2 sends
`{"flows", "rev"}` and gets `{"rev"}`, 409 `version_mismatch` when `rev` is not the current one;
`Node-RED-Deployment-Type: full|nodes|flows|reload`),
`POST /flow` (adds one flow: a tab with `label`, `info`, `disabled`, `env` and its `nodes`/`configs`,
answered `{"id"}` with an id the server generates whatever the body says; 400 without `nodes`),
`GET /flow/{id}` (the tab with its nodes; `global` for the config nodes outside any tab),
`PUT /flow/{id}` (replaces the tab and every node in it, answered `{"id"}`), `DELETE /flow/{id}` (204,
takes the tab's nodes with it), 404 `{"code":"not_found"}` for a missing flow id,
`GET /nodes` (the node types: JSON with `Accept: application/json`), `GET /settings`,
`GET /diagnostics`, `GET /context/global`, `GET /context/flow/{id}`.
The seed (seed/flows.json, copied before the server starts, not recorded): three tabs, a global-config
node and seven nodes. Node ids the driver sends are fixed 16-hex strings; flow ids come from the server.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

V2 = {"Node-RED-API-Version": "v2"}
JSON_ACCEPT = {"Accept": "application/json"}
SENSORS, ALERTS, ARCHIVE = "a1b2c3d4e5f60001", "a1b2c3d4e5f60002", "a1b2c3d4e5f60003"


class NodeRedDriver(Driver):
    """The kit's driver without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return NodeRedDriver(base, min_sleep, max_sleep, verbose)


def nid(n):
    """A node id the client chooses (Node-RED's editor makes 16 hex digits)."""
    return f"d{n:015x}"


def inject(n, name, payload, wires, x=120, y=60, topic=""):
    return {"id": nid(n), "type": "inject", "name": name,
            "props": [{"p": "payload"}, {"p": "topic", "vt": "str"}], "repeat": "", "crontab": "",
            "once": False, "onceDelay": 0.1, "topic": topic, "payload": payload, "payloadType": "str",
            "x": x, "y": y, "wires": [wires]}


def debug(n, name, x=480, y=60, active=True):
    return {"id": nid(n), "type": "debug", "name": name, "active": active, "tosidebar": True,
            "console": False, "tostatus": False, "complete": "payload", "targetType": "msg",
            "statusVal": "", "statusType": "auto", "x": x, "y": y, "wires": []}


def change(n, name, prop, value, wires, x=300, y=60):
    return {"id": nid(n), "type": "change", "name": name,
            "rules": [{"t": "set", "p": prop, "pt": "msg", "to": value, "tot": "str"}], "action": "",
            "property": "", "from": "", "to": "", "reg": False, "x": x, "y": y, "wires": [wires]}


def comment(n, name, info="", x=140, y=30):
    return {"id": nid(n), "type": "comment", "name": name, "info": info, "x": x, "y": y, "wires": []}


def capture(d):
    call, check, get = d.call, d.check, d.get

    def flows(v2=False, expect=200):
        return call("GET", "/flows", headers=V2 if v2 else None, expect=expect)[1]

    def both():
        """The whole document after a write, in both API versions."""
        flows()
        return flows(v2=True)

    def flow(fid, expect=200):
        return call("GET", f"/flow/{fid}", expect=expect)[1]

    def add(body, expect=200):
        status, answer = call("POST", "/flow", body=body, expect=expect)
        return answer.get("id") if status == 200 and isinstance(answer, dict) else None

    def put(fid, body, expect=200):
        return call("PUT", f"/flow/{fid}", body=body, expect=expect)[1]

    def delete(fid, expect=204):
        return call("DELETE", f"/flow/{fid}", expect=expect)

    # 1. what the server is
    get("/settings")
    call("GET", "/nodes", headers=JSON_ACCEPT, expect=200)
    get("/diagnostics")
    first = both()
    check("seeded rev is a string", isinstance(first.get("rev"), str), True)
    for fid in (SENSORS, ALERTS, ARCHIVE, "global"):
        flow(fid)
    get("/context/global")
    get(f"/context/flow/{SENSORS}")

    # 2. missing and odd flow ids
    flow("0000000000000000", expect=404)
    flow("no-such-flow", expect=404)
    flow("b1000000000000a1", expect=404)  # a node's id, not a flow's
    put("0000000000000000", {"label": "ghost", "nodes": []}, expect=404)
    delete("0000000000000000", expect=404)
    delete("no-such-flow", expect=404)

    # 3. add flows: the server picks the id, whatever the body says
    pumps = add({"label": "Pumps", "info": "Irrigation pumps", "disabled": False, "env": [],
                 "nodes": [inject(1, "start pump", "on", [nid(2)], topic="pump/1"),
                           change(2, "tag pump", "pump", "1", [nid(3)]),
                           debug(3, "pump log")]})
    flow(pumps)
    both()
    lights = add({"id": "my-own-id", "label": "Lights",
                  "nodes": [inject(4, "dusk", "off", [nid(5)]), debug(5, "lights log", active=False)]})
    check("the server ignores a sent id", lights != "my-own-id", True)
    flow(lights)
    flow("my-own-id", expect=404)
    both()
    empty = add({"label": "Scratch", "nodes": []})
    flow(empty)
    both()
    doors = add({"label": "Doors", "disabled": True, "info": "Door sensors, not wired yet",
                 "env": [{"name": "ZONE", "value": "north", "type": "str"}],
                 "nodes": [comment(6, "todo", "wire the reed switches")]})
    flow(doors)
    both()
    nolabel = add({"nodes": [comment(7, "unnamed tab note")]})
    flow(nolabel)
    both()
    scoped = add({"label": "Scoped config", "nodes": [debug(8, "scoped log")],
                  "configs": [{"id": nid(9), "type": "global-config", "env": [], "modules": {}}]})
    flow(scoped)
    both()

    # 4. malformed adds
    add({"label": "No nodes"}, expect=400)
    add([{"label": "an array"}], expect=400)
    call("POST", "/flow", raw="{not json", expect=400)
    add({"label": "Clash", "nodes": [debug(3, "reused id")]}, expect=400)  # a node id already held
    add({"label": "Tab inside", "nodes": [{"id": nid(10), "type": "tab", "label": "inner"}]}, expect=400)
    add({"label": "Seeded clash", "nodes": [comment(11, "x") | {"id": "b1000000000000a1"}]}, expect=400)
    both()

    # 5. update flows: PUT replaces the tab and all of its nodes
    put(pumps, {"id": pumps, "label": "Pumps", "info": "Irrigation pumps, two now", "disabled": False,
                "env": [],
                "nodes": [inject(1, "start pump", "on", [nid(2)], topic="pump/1"),
                          change(2, "tag pump", "pump", "1", [nid(3)]),
                          debug(3, "pump log"),
                          inject(12, "start pump 2", "on", [nid(3)], y=120, topic="pump/2")]})
    flow(pumps)
    both()
    put(lights, {"label": "Lights (garden)", "nodes": [debug(5, "lights log", active=True)]})
    flow(lights)
    both()
    put(empty, {"label": "Scratch", "info": "now with a note", "nodes": [comment(13, "scratch note")]})
    flow(empty)
    both()
    put(doors, {"label": "Doors", "disabled": False, "env": [{"name": "ZONE", "value": "south", "type": "str"}],
                "nodes": [comment(6, "todo", "reed switches wired"), debug(14, "door log")]})
    flow(doors)
    both()
    # a PUT without nodes empties the tab; a PUT without a label drops it
    put(scoped, {"label": "Scoped config"})
    flow(scoped)
    put(nolabel, {"nodes": [comment(7, "still unnamed")]})
    flow(nolabel)
    both()
    # a seeded tab updated
    put(SENSORS, {"id": SENSORS, "label": "Sensors", "disabled": False, "info": "Greenhouse sensors, v2",
                  "env": [],
                  "nodes": [inject(15, "every minute", "22.0", [nid(16)], topic="greenhouse/temp"),
                            debug(16, "temperature")]})
    flow(SENSORS)
    both()
    # the global config nodes (those outside any tab)
    put("global", {"configs": [{"id": "c0ffee0000000001", "type": "global-config",
                                "env": [{"name": "SITE", "value": "greenhouse", "type": "str"}],
                                "modules": {}}]})
    flow("global")
    both()
    # malformed updates
    call("PUT", f"/flow/{pumps}", raw="{not json", expect=400)
    flow(pumps)

    # 6. deletes: the tab goes with its nodes
    delete(lights)
    flow(lights, expect=404)
    both()
    delete(lights, expect=404)
    delete(nolabel)
    flow(nolabel, expect=404)
    both()
    delete(ARCHIVE)
    flow(ARCHIVE, expect=404)
    both()
    call("DELETE", "/flow/global", expect=400)
    flow("global")

    # 7. the whole document replaced: v1 (bare array, 204) and v2 (rev checked, {rev})
    doc = flows()
    doc = [n for n in doc if n.get("z") != empty and n.get("id") != empty]
    call("POST", "/flows", body=doc, expect=204)
    flow(empty, expect=404)
    current = both()
    rev = current.get("rev")
    doc = current.get("flows", [])
    doc.append({"id": "e000000000000001", "type": "tab", "label": "Deployed", "disabled": False, "info": "",
                "env": []})
    doc.append(comment(17, "deployed whole") | {"z": "e000000000000001"})
    status, answer = call("POST", "/flows", body={"flows": doc, "rev": rev}, headers=V2, expect=200)
    new_rev = answer.get("rev") if isinstance(answer, dict) else None
    check("a v2 deploy answers a new rev", new_rev not in (None, rev), True)
    flow("e000000000000001")
    both()
    # a stale rev: 409, nothing changes
    stale = list(doc) + [{"id": "e000000000000002", "type": "tab", "label": "Stale", "disabled": False,
                          "info": "", "env": []}]
    call("POST", "/flows", body={"flows": stale, "rev": rev}, headers=V2, expect=409)
    flow("e000000000000002", expect=404)
    both()
    # no rev at all: no check
    doc2 = [n for n in doc if n.get("id") != nid(17)]
    call("POST", "/flows", body={"flows": doc2}, headers=V2, expect=200)
    flow("e000000000000001")
    both()
    # deployment types, and a v1 deploy through the one tab-level type
    doc3 = flows()
    for n in doc3:
        if n.get("id") == "e000000000000001":
            n["label"] = "Deployed (renamed)"
    call("POST", "/flows", body=doc3, headers={"Node-RED-Deployment-Type": "flows"}, expect=204)
    flow("e000000000000001")
    both()
    doc4 = flows()
    for n in doc4:
        if n.get("id") == nid(16):
            n["name"] = "temperature (C)"
    call("POST", "/flows", body=doc4, headers={"Node-RED-Deployment-Type": "nodes"}, expect=204)
    flow(SENSORS)
    both()
    call("POST", "/flows", headers={"Node-RED-Deployment-Type": "reload"} | V2, expect=200)
    both()
    # malformed whole-document writes and API versions
    call("POST", "/flows", raw="{not json", expect=400)
    call("GET", "/flows", headers={"Node-RED-API-Version": "v3"}, expect=400)
    call("POST", "/flows", body=[], headers={"Node-RED-API-Version": "v9"}, expect=400)
    both()

    # 8. more flows after the deploys, then the final state
    after = add({"label": "Late addition", "info": "added after a full deploy",
                 "nodes": [inject(18, "late", "x", [nid(19)]), debug(19, "late log")]})
    flow(after)
    both()
    put(after, {"label": "Late addition", "info": "renamed nodes",
                "nodes": [inject(18, "late tick", "y", [nid(19)]), debug(19, "late log")]})
    flow(after)
    both()
    delete(after)
    flow(after, expect=404)
    both()
    for fid in (SENSORS, ALERTS, pumps, doors, scoped, "e000000000000001", "global"):
        flow(fid)
    get("/context/global")
    get("/settings")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43051")
