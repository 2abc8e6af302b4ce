#!/usr/bin/env python3
"""Scenario driver for Apache Superset 6.1.0 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42641 --mode capture [-v]

Auth: `Authorization: Bearer <token.txt>`, the admin's (user 1) throwaway JWT, signed by the
throwaway secret key of superset_config.py, which lets it never expire. No session cookie is kept
(kit/scenario.py clears cookies), and superset_config.py turns CSRF off (WTF_CSRF_ENABLED = False),
so writes need no X-CSRFToken header.
The seed (seed.py, run by start.sh, not recorded): annotation layers L1-L3 (annotations A1, A2 on
L1, A3 on L2), CSS templates T1-T2, tags G1-G3, dashboards D1-D3 (D1 slug `sales`, D2 `ops-health`).
Flask-AppBuilder's REST API: lists answer {"count", "ids", "result", ...columns metadata} and take
a rison `q=` (filters, order_column/order_direction, page/page_size, columns); items answer
{"id", "result", ...}; creates 201 {"id", "result"}; PUT updates the members sent; DELETE answers
{"message": "OK"}; a bulk DELETE names its ids in `q=!(…)`.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
LAYERS = "/api/v1/annotation_layer/"
CSS = "/api/v1/css_template/"
TAGS = "/api/v1/tag/"
DASHBOARDS = "/api/v1/dashboard/"
NEVER = 4242                       # an id no entity ever had


def annotations(layer):
    return f"{LAYERS}{layer}/annotation/"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, q=None):
        return call("GET", path, params={"q": q} if q else None, expect=expect)[1]

    def create(path, body, expect=201):
        answer = call("POST", path, body, expect=expect)[1]
        return answer.get("id") if isinstance(answer, dict) else None

    def put(path, body, expect=200):
        return call("PUT", path, body, expect=expect)[1]

    def delete(path, expect=200, q=None):
        return call("DELETE", path, params={"q": q} if q else None, expect=expect)[1]

    # ---- a. reads before any write: every list and item, absences
    get("/health")
    get(LAYERS)
    for layer in (1, 2, 3):
        get(f"{LAYERS}{layer}")
        get(annotations(layer))
    for annotation, layer in ((1, 1), (2, 1), (3, 2)):
        get(f"{annotations(layer)}{annotation}")
    get(CSS)
    for template in (1, 2):
        get(f"{CSS}{template}")
    get(TAGS)
    for tag in (1, 2, 3):
        get(f"{TAGS}{tag}")
    get(DASHBOARDS)
    for dashboard in (1, 2, 3):
        get(f"{DASHBOARDS}{dashboard}")
    get(f"{DASHBOARDS}sales")                       # a dashboard by its slug
    get(f"{LAYERS}{NEVER}", 404)
    get(f"{annotations(1)}{NEVER}", 404)
    get(f"{CSS}{NEVER}", 404)
    get(f"{TAGS}{NEVER}", 404)
    get(f"{DASHBOARDS}{NEVER}", 404)
    get(f"{DASHBOARDS}no-such-slug", 404)
    get(f"{annotations(2)}1")                       # A1 read under L2: Superset ignores the layer
    get(f"{LAYERS}{NEVER}/annotation/", 200)        # annotations of a layer that never existed

    # ---- b. creates, each followed by an item read and a list read
    l4 = create(LAYERS, {"name": "Maintenance windows", "descr": "Planned downtime"})
    get(f"{LAYERS}{l4}")
    get(LAYERS)
    l5 = create(LAYERS, {"name": "Holidays"})                            # descr left out
    get(f"{LAYERS}{l5}")
    get(LAYERS)
    a4 = create(annotations(l4), {"short_descr": "Kernel upgrade", "long_descr": "All hosts rebooted",
                                  "start_dttm": "2026-04-04T22:00:00", "end_dttm": "2026-04-05T01:00:00"})
    get(f"{annotations(l4)}{a4}")
    get(annotations(l4))
    a5 = create(annotations(3), {"short_descr": "Spring sale", "start_dttm": "2026-04-20T00:00:00",
                                 "end_dttm": "2026-04-27T00:00:00"})
    get(f"{annotations(3)}{a5}")
    get(annotations(3))
    a6 = create(annotations(1), {"short_descr": "v1.2", "long_descr": "Scheduled reports",
                                 "start_dttm": "2026-05-11T09:00:00", "end_dttm": "2026-05-11T09:00:00",
                                 "json_metadata": "{\"team\": \"reports\"}"})
    get(f"{annotations(1)}{a6}")
    get(annotations(1))
    t3 = create(CSS, {"template_name": "Print", "css": "@media print { .header { display: none; } }"})
    get(f"{CSS}{t3}")
    get(CSS)
    t4 = create(CSS, {"template_name": "Empty"})
    get(f"{CSS}{t4}")
    get(CSS)
    call("POST", TAGS, {"name": "marketing", "description": "Campaign dashboards"}, expect=201)  # answers {}
    listed = get(TAGS)
    g4 = max(listed["ids"]) if isinstance(listed, dict) and listed.get("ids") else None
    get(f"{TAGS}{g4}")
    call("POST", TAGS, {"name": "archive"}, expect=201)
    listed = get(TAGS)
    g5 = max(listed["ids"]) if isinstance(listed, dict) and listed.get("ids") else None
    get(f"{TAGS}{g5}")
    d4 = create(DASHBOARDS, {"dashboard_title": "Churn", "slug": "churn", "published": False})
    get(f"{DASHBOARDS}{d4}")
    get(f"{DASHBOARDS}churn")
    get(DASHBOARDS)
    d5 = create(DASHBOARDS, {"dashboard_title": "Scratchpad"})
    get(f"{DASHBOARDS}{d5}")
    get(DASHBOARDS)

    # ---- c. updates by PUT (only the members sent change), each followed by its item read
    put(f"{LAYERS}2", {"descr": "Production outages and degradations"})
    get(f"{LAYERS}2")
    get(LAYERS)
    put(f"{LAYERS}{l4}", {"name": "Maintenance", "descr": "Planned downtime, all regions"})
    get(f"{LAYERS}{l4}")
    put(f"{annotations(1)}1", {"short_descr": "v1.0.0"})
    get(f"{annotations(1)}1")
    get(annotations(1))
    put(f"{annotations(l4)}{a4}", {"long_descr": "All hosts rebooted twice"})
    get(f"{annotations(l4)}{a4}")
    put(f"{annotations(2)}3", {"start_dttm": "2026-02-10T02:45:00", "end_dttm": "2026-02-10T06:00:00"})
    get(f"{annotations(2)}3")
    put(f"{CSS}1", {"css": ".dashboard { background: #000; color: #fff; }"})
    get(f"{CSS}1")
    put(f"{CSS}{t3}", {"template_name": "Printable", "css": "@media print { nav { display: none; } }"})
    get(f"{CSS}{t3}")
    get(CSS)
    put(f"{TAGS}2", {"name": "operations", "description": "On-call and uptime"})
    get(f"{TAGS}2")
    put(f"{TAGS}{g4}", {"name": "growth", "description": "Campaigns and funnels"})
    get(f"{TAGS}{g4}")
    get(TAGS)
    put(f"{DASHBOARDS}2", {"published": True})
    get(f"{DASHBOARDS}2")
    put(f"{DASHBOARDS}{d4}", {"dashboard_title": "Churn and retention", "slug": "retention"})
    get(f"{DASHBOARDS}{d4}")
    get(f"{DASHBOARDS}retention")
    get(f"{DASHBOARDS}churn", 404)                   # the old slug is gone
    put(f"{DASHBOARDS}1", {"css": ".header { color: navy; }"})
    get(f"{DASHBOARDS}1")
    get(DASHBOARDS)

    # ---- d. deletes, each followed by a 404 item read and the list
    delete(f"{annotations(1)}{a6}")
    get(f"{annotations(1)}{a6}", 404)
    get(annotations(1))
    delete(f"{CSS}2")
    get(f"{CSS}2", 404)
    get(CSS)
    delete(f"{TAGS}1")
    get(f"{TAGS}1", 404)
    get(TAGS)
    delete(f"{DASHBOARDS}3")
    get(f"{DASHBOARDS}3", 404)
    get(DASHBOARDS)
    delete(f"{LAYERS}{l5}")                          # a layer without annotations
    get(f"{LAYERS}{l5}", 404)
    get(LAYERS)
    delete(f"{LAYERS}{l4}", 422)                     # still holds A4: refused
    get(f"{LAYERS}{l4}")
    delete(f"{annotations(l4)}{a4}")
    get(f"{annotations(l4)}{a4}", 404)
    get(annotations(l4))
    delete(f"{LAYERS}{l4}")                          # now empty
    get(f"{LAYERS}{l4}", 404)
    get(LAYERS)
    # bulk deletes: ids (names for tags) in a rison list
    t5 = create(CSS, {"template_name": "Wide", "css": ".grid { max-width: none; }"})
    get(f"{CSS}{t5}")
    delete(CSS, q=f"!({t4},{t5})")
    get(f"{CSS}{t4}", 404)
    get(f"{CSS}{t5}", 404)
    get(CSS)
    d6 = create(DASHBOARDS, {"dashboard_title": "Old KPIs", "published": False})
    get(f"{DASHBOARDS}{d6}")
    delete(DASHBOARDS, q=f"!({d5},{d6})")
    get(f"{DASHBOARDS}{d5}", 404)
    get(f"{DASHBOARDS}{d6}", 404)
    get(DASHBOARDS)
    delete(TAGS, q="!(archive)")
    get(f"{TAGS}{g5}", 404)
    get(TAGS)
    l6 = create(LAYERS, {"name": "Experiments", "descr": "A/B tests"})
    l7 = create(LAYERS, {"name": "Audits", "descr": "Compliance reviews"})
    get(LAYERS)
    delete(LAYERS, q=f"!({l6},{l7})")
    get(f"{LAYERS}{l6}", 404)
    get(LAYERS)

    # ---- e. filters, sorts, paging, column selection (rison q=)
    get(LAYERS, q="(filters:!((col:name,opr:ct,value:ent)))")
    get(LAYERS, q="(filters:!((col:name,opr:sw,value:Rel)))")
    get(LAYERS, q="(filters:!((col:descr,opr:ct,value:outages)))")
    get(LAYERS, q="(order_column:name,order_direction:asc)")
    get(LAYERS, q="(order_column:name,order_direction:desc)")
    get(LAYERS, q="(page:0,page_size:2)")
    get(LAYERS, q="(page:1,page_size:2)")
    get(LAYERS, q="(page:5,page_size:2)")
    get(LAYERS, q="(columns:!(id,name))")
    get(annotations(1), q="(order_column:short_descr,order_direction:desc)")
    get(annotations(1), q="(filters:!((col:short_descr,opr:ct,value:'1.1')))")
    get(CSS, q="(filters:!((col:template_name,opr:ct,value:ark)))")
    get(CSS, q="(order_column:template_name,order_direction:asc)")
    get(CSS, q="(page:0,page_size:1)")
    get(TAGS, q="(order_column:name,order_direction:asc)")
    get(TAGS, q="(filters:!((col:name,opr:ct,value:o)))")
    get(TAGS, q="(columns:!(id,name,description))")
    get(DASHBOARDS, q="(filters:!((col:published,opr:eq,value:!t)))")
    get(DASHBOARDS, q="(filters:!((col:published,opr:eq,value:!f)))")
    get(DASHBOARDS, q="(filters:!((col:dashboard_title,opr:ct,value:Sales)))")
    get(DASHBOARDS, q="(order_column:dashboard_title,order_direction:asc)")
    get(DASHBOARDS, q="(order_column:dashboard_title,order_direction:desc,page:0,page_size:2)")
    get(DASHBOARDS, q="(columns:!(id,dashboard_title,slug,published))")

    # ---- f. failures
    put(f"{LAYERS}{NEVER}", {"descr": "x"}, 404)
    delete(f"{LAYERS}{NEVER}", 404)
    put(f"{CSS}2", {"css": "x"}, 404)                 # deleted above
    delete(f"{CSS}2", 404)
    put(f"{TAGS}{NEVER}", {"name": "x"}, 500)      # Superset answers 500 "Fatal error" here
    delete(f"{DASHBOARDS}3", 404)
    put(f"{annotations(1)}{NEVER}", {"short_descr": "x"}, 404)
    delete(f"{annotations(1)}{NEVER}", 404)
    create(LAYERS, {"descr": "nameless"}, 400)                            # name is required
    create(LAYERS, {"name": "Releases"}, 422)                             # names are unique
    create(LAYERS, {"name": "Extra", "colour": "red"}, 400)               # unknown field
    create(CSS, {"id": 50, "template_name": "Chosen id"}, 422)            # no client-chosen ids
    create(annotations(1), {"long_descr": "no short_descr, no dates"}, 400)
    create(annotations(1), {"short_descr": "Backwards", "start_dttm": "2026-06-02T00:00:00",
                            "end_dttm": "2026-06-01T00:00:00"}, 422)      # ends before it starts
    create(annotations(NEVER), {"short_descr": "Orphan", "start_dttm": "2026-06-01T00:00:00",
                                "end_dttm": "2026-06-01T00:00:00"}, 400)  # no such layer
    create(DASHBOARDS, {"dashboard_title": "Copycat", "slug": "sales"}, 422)  # slugs are unique
    put(f"{DASHBOARDS}1", {"published": "sometimes"}, 400)
    call("POST", LAYERS, raw="{not json", expect=400)
    get(LAYERS, 400, q="(filters:!((col:name")                           # rison that does not parse

    # ---- g. final state
    get(LAYERS)
    for layer in (1, 2, 3):
        get(f"{LAYERS}{layer}")
        get(annotations(layer))
    for annotation, layer in ((1, 1), (2, 1), (3, 2), (a5, 3)):
        get(f"{annotations(layer)}{annotation}")
    get(CSS)
    for template in (1, t3):
        get(f"{CSS}{template}")
    get(TAGS)
    for tag in (2, 3, g4):
        get(f"{TAGS}{tag}")
    get(DASHBOARDS)
    for dashboard in (1, 2, d4):
        get(f"{DASHBOARDS}{dashboard}")
    check("tag ids", (g4, g5), (4, 5))


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42641")
