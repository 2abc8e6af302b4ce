#!/usr/bin/env python3
"""Scenario driver for pretix 2026.8.0's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42961 --mode capture [-v]

Every call sends the seeded team API token (token.txt) as `Authorization: Token ...`, no cookie.
The seed (seed_db.py and seed.py, run by start.sh, not recorded) and its fixed ids are in seed.py's
docstring. Lists answer DRF pages {count, next, previous, results} (`page`, `page_size`), creates
201 with the entity, updates (PATCH, PUT) 200 with it, deletes 204 with no body, validation errors
400 {field: [messages]}, missing ids 404 {"detail": "Not found."}. Events are addressed by the slug
the client chose. Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
O = "/api/v1/organizers/capenv"
E = O + "/events/conf27"
M = O + "/events/meetup27"


def en(text):
    return {"en": text}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Token")


def capture(d):
    call, check, get = d.call, d.check, d.get

    def post(path, body, expect=201):
        return call("POST", path, body, expect=expect)[1]

    def patch(path, body, expect=200):
        return call("PATCH", path, body, expect=expect)[1]

    # ---- a. the organizer and its events
    get("/api/v1/organizers/")
    get(O + "/")
    get("/api/v1/organizers/nowhere/", expect=403)  # pretix: no permission, not 404
    get(O + "/events/")
    get(E + "/")
    get(M + "/")
    get(O + "/events/nothing27/", expect=403)     # likewise for a missing event
    get(O + "/events/", is_future="true")
    get(O + "/events/", ordering="date_from")
    # every collection of the seeded events, read before the first write
    for ev in (E, M):
        for coll in ("taxrules", "categories", "items", "quotas", "questions", "vouchers"):
            get(ev + f"/{coll}/")
    get(E + "/items/3/variations/")
    get(E + "/questions/2/options/")
    for path in ("/taxrules/1/", "/categories/2/", "/items/2/", "/items/3/variations/1/", "/quotas/2/",
                 "/quotas/2/availability/", "/questions/1/", "/questions/2/options/2/", "/vouchers/2/"):
        get(E + path)
    get(M + "/items/4/")

    # ---- b. a new event at a slug the client chooses
    post(O + "/events/", {"name": en("Capenv Workshop"), "slug": "workshop27", "currency": "EUR",
                          "date_from": "2027-09-01T08:00:00Z", "date_to": "2027-09-01T16:00:00Z",
                          "timezone": "Europe/Berlin", "location": en("Leipzig")})
    get(O + "/events/workshop27/")
    get(O + "/events/")
    post(O + "/events/", {"name": en("Duplicate"), "slug": "workshop27", "currency": "EUR",
                          "date_from": "2027-09-01T08:00:00Z"}, expect=400)
    post(O + "/events/", {"name": en("No date"), "slug": "nodate27", "currency": "EUR"}, expect=400)
    patch(O + "/events/workshop27/", {"location": en("Dresden"), "is_public": False})
    get(O + "/events/workshop27/")
    patch(O + "/events/workshop27/", {"date_to": "2027-09-02T16:00:00Z"})
    get(O + "/events/workshop27/")
    patch(O + "/events/nothing27/", {"location": en("Nowhere")}, expect=403)
    W = O + "/events/workshop27"

    # ---- c. tax rules
    get(E + "/taxrules/")
    get(E + "/taxrules/1/")
    tr = post(E + "/taxrules/", {"name": en("Reduced VAT"), "rate": "7.00"})
    get(E + f"/taxrules/{tr['id']}/")
    patch(E + f"/taxrules/{tr['id']}/", {"rate": "5.00"})
    get(E + f"/taxrules/{tr['id']}/")
    get(E + "/taxrules/")
    post(E + "/taxrules/", {"name": en("Broken"), "rate": "many"}, expect=400)

    # ---- d. categories
    get(E + "/categories/")
    get(E + "/categories/1/")
    get(E + "/categories/99/", expect=404)
    cat = post(E + "/categories/", {"name": en("Workshops"), "position": 2,
                                    "description": en("Half-day sessions")})
    get(E + f"/categories/{cat['id']}/")
    patch(E + f"/categories/{cat['id']}/", {"name": en("Hands-on workshops")})
    get(E + f"/categories/{cat['id']}/")
    get(E + "/categories/")
    post(E + "/categories/", {"position": 3}, expect=400)
    extra = post(E + "/categories/", {"name": en("Leftovers"), "position": 9})
    get(E + "/categories/")
    call("DELETE", E + f"/categories/{extra['id']}/", expect=204)
    get(E + f"/categories/{extra['id']}/", expect=404)
    get(E + "/categories/")
    call("DELETE", E + f"/categories/{extra['id']}/", expect=404)

    # ---- e. items: filters, paging, ordering, create, update, delete
    get(E + "/items/")
    get(E + "/items/1/")
    get(E + "/items/3/")
    get(E + "/items/77/", expect=404)
    get(E + "/items/", category="2")
    get(E + "/items/", admission="true")
    get(E + "/items/", active="true")
    get(E + "/items/", page_size="2")
    get(E + "/items/", page_size="2", page="2")
    get(E + "/items/", ordering="-position")
    item = post(E + "/items/", {"name": en("Workshop seat"), "default_price": "45.00", "category": cat["id"],
                                "tax_rule": tr["id"], "admission": True, "position": 3,
                                "max_per_order": 2})
    wid = item["id"]
    get(E + f"/items/{wid}/")
    get(E + "/items/", category=str(cat["id"]))
    patch(E + f"/items/{wid}/", {"default_price": "49.00", "description": en("Bring a laptop")})
    get(E + f"/items/{wid}/")
    patch(E + f"/items/{wid}/", {"active": False})
    get(E + f"/items/{wid}/")
    get(E + "/items/", active="false")
    patch(E + "/items/2/", {"default_price": "55.00"})
    get(E + "/items/2/")
    patch(E + "/items/2/", {"default_price": "not a price"}, expect=400)
    post(E + "/items/", {"default_price": "10.00"}, expect=400)
    post(E + "/items/", {"name": en("Orphan"), "default_price": "10.00", "category": 999}, expect=400)
    gone = post(E + "/items/", {"name": en("Parking"), "default_price": "8.00", "admission": False})
    get(E + f"/items/{gone['id']}/")
    call("DELETE", E + f"/items/{gone['id']}/", expect=204)
    get(E + f"/items/{gone['id']}/", expect=404)
    call("DELETE", E + f"/items/{gone['id']}/", expect=404)
    get(E + "/items/")

    # ---- f. variations (nested under an item)
    get(E + "/items/3/variations/")
    get(E + "/items/3/variations/2/")
    get(E + "/items/3/variations/42/", expect=404)
    xl = post(E + "/items/3/variations/", {"value": en("XL"), "position": 3, "default_price": "27.00"})
    get(E + f"/items/3/variations/{xl['id']}/")
    patch(E + f"/items/3/variations/{xl['id']}/", {"default_price": "28.00"})
    get(E + f"/items/3/variations/{xl['id']}/")
    get(E + "/items/3/variations/")
    get(E + "/items/3/")
    post(E + "/items/3/variations/", {"position": 4}, expect=400)
    call("DELETE", E + f"/items/3/variations/{xl['id']}/", expect=204)
    get(E + f"/items/3/variations/{xl['id']}/", expect=404)
    get(E + "/items/3/variations/")

    # ---- g. quotas
    get(E + "/quotas/")
    get(E + "/quotas/1/")
    get(E + "/quotas/2/")
    get(E + "/quotas/55/", expect=404)
    get(E + "/quotas/", items__in=str(3))
    get(E + "/quotas/1/availability/")
    q = post(E + "/quotas/", {"name": "Workshop seats", "size": 20, "items": [wid]})
    get(E + f"/quotas/{q['id']}/")
    patch(E + f"/quotas/{q['id']}/", {"size": 25})
    get(E + f"/quotas/{q['id']}/")
    patch(E + f"/quotas/{q['id']}/", {"size": -3}, expect=400)
    call("PUT", E + f"/quotas/{q['id']}/", {"name": "Workshop room", "size": 30, "items": [wid],
                                           "variations": [], "subevent": None}, expect=200)
    get(E + f"/quotas/{q['id']}/")
    get(E + "/quotas/")
    post(E + "/quotas/", {"name": "No size", "items": [1], "size": "lots"}, expect=400)
    tmp = post(E + "/quotas/", {"name": "Temporary", "size": 5, "items": [1]})
    call("DELETE", E + f"/quotas/{tmp['id']}/", expect=204)
    get(E + f"/quotas/{tmp['id']}/", expect=404)
    get(E + "/quotas/")

    # ---- h. questions and their options
    get(E + "/questions/")
    get(E + "/questions/1/")
    get(E + "/questions/2/")
    get(E + "/questions/2/options/")
    get(E + "/questions/2/options/1/")
    get(E + "/questions/9/", expect=404)
    qn = post(E + "/questions/", {"question": en("T-shirt size for the crew"), "identifier": "CREWSIZE",
                                  "type": "S", "required": True, "items": [1, wid], "position": 2})
    get(E + f"/questions/{qn['id']}/")
    patch(E + f"/questions/{qn['id']}/", {"required": False, "help_text": en("Optional")})
    get(E + f"/questions/{qn['id']}/")
    post(E + "/questions/", {"question": en("Duplicate"), "identifier": "COMPANY", "type": "S",
                             "items": [1]}, expect=400)
    post(E + "/questions/", {"question": en("Bad type"), "identifier": "BADTYPE", "type": "Z",
                             "items": [1]}, expect=400)
    opt = post(E + "/questions/2/options/", {"answer": en("Gluten-free"), "identifier": "GF"})
    get(E + f"/questions/2/options/{opt['id']}/")
    patch(E + f"/questions/2/options/{opt['id']}/", {"answer": en("Gluten free")})
    get(E + f"/questions/2/options/{opt['id']}/")
    get(E + "/questions/2/options/")
    call("DELETE", E + f"/questions/2/options/{opt['id']}/", expect=204)
    get(E + f"/questions/2/options/{opt['id']}/", expect=404)
    call("DELETE", E + f"/questions/{qn['id']}/", expect=204)
    get(E + f"/questions/{qn['id']}/", expect=404)
    get(E + "/questions/")

    # ---- i. vouchers
    get(E + "/vouchers/")
    get(E + "/vouchers/1/")
    get(E + "/vouchers/", code="SPEAKER")
    get(E + "/vouchers/", tag="early")
    get(E + "/vouchers/404/", expect=404)
    v = post(E + "/vouchers/", {"code": "WORKSHOP50", "max_usages": 3, "price_mode": "percent",
                                "value": "50.00", "item": wid, "tag": "workshop"})
    get(E + f"/vouchers/{v['id']}/")
    patch(E + f"/vouchers/{v['id']}/", {"max_usages": 4, "comment": "raised"})
    get(E + f"/vouchers/{v['id']}/")
    patch(E + "/vouchers/1/", {"valid_until": "2027-05-01T00:00:00Z"})
    get(E + "/vouchers/1/")
    post(E + "/vouchers/", {"code": "EARLYBIRD", "max_usages": 1, "price_mode": "none", "value": "0.00"},
         expect=400)
    post(E + "/vouchers/", {"code": "BADMODE", "price_mode": "cheap", "value": "1.00"}, expect=400)
    call("POST", E + "/vouchers/batch_create/", [
        {"code": "GROUP-A", "max_usages": 1, "price_mode": "subtract", "value": "5.00", "item": 1, "tag": "group"},
        {"code": "GROUP-B", "max_usages": 1, "price_mode": "subtract", "value": "5.00", "item": 1, "tag": "group"},
    ], expect=201)
    get(E + "/vouchers/", tag="group")
    tmpv = post(E + "/vouchers/", {"code": "ONEOFF", "max_usages": 1, "price_mode": "none", "value": "0.00"})
    call("DELETE", E + f"/vouchers/{tmpv['id']}/", expect=204)
    get(E + f"/vouchers/{tmpv['id']}/", expect=404)
    get(E + "/vouchers/")

    # ---- j. the other event and the new one
    get(M + "/items/")
    get(M + "/quotas/")
    get(M + "/items/1/", expect=404)      # item 1 belongs to conf27
    get(W + "/items/")
    wi = post(W + "/items/", {"name": en("Workshop day pass"), "default_price": "150.00", "admission": True})
    get(W + f"/items/{wi['id']}/")
    get(W + "/items/")
    get(E + f"/items/{wi['id']}/", expect=404)
    wq = post(W + "/quotas/", {"name": "Day passes", "size": 12, "items": [wi["id"]]})
    get(W + f"/quotas/{wq['id']}/")
    patch(M + "/items/4/", {"name": en("Meetup entry (free)")})
    get(M + "/items/4/")

    # ---- k. deletes that take what is inside with them
    call("DELETE", W + "/", expect=204)
    get(W + "/", expect=403)
    get(W + "/items/", expect=403)
    get(O + "/events/")
    call("DELETE", E + f"/quotas/{q['id']}/", expect=204)
    get(E + "/quotas/")
    call("DELETE", E + f"/items/{wid}/", expect=204)
    get(E + f"/items/{wid}/", expect=404)
    get(E + "/vouchers/")
    get(E + "/questions/1/")
    call("DELETE", E + f"/taxrules/{tr['id']}/", expect=204)
    get(E + f"/taxrules/{tr['id']}/", expect=404)
    get(E + "/taxrules/")
    call("DELETE", E + f"/categories/{cat['id']}/", expect=204)
    get(E + "/categories/")

    # ---- l. final state
    get(E + "/items/")
    get(E + "/quotas/")
    get(E + "/questions/")
    get(E + "/vouchers/")
    get(O + "/events/")
    check("token set", bool(TOKEN), True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42961")
