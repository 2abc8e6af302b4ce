#!/usr/bin/env python3
"""Scenario driver for I Hate Money 7.2.1's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46331 --mode capture [-v]

The seed (seed.py, run by start.sh, not recorded): projects household (EUR; members 1-4, bills 1-5),
weekend-trip (no currency; members 5-7, bills 6-8) and office (USD; members 8-9). Every call of a
project sends HTTP Basic auth with that project's id and private code (or, where the scenario says
so, a Bearer token the project's /token answered). Most writes send JSON bodies; the ones marked
FORM send application/x-www-form-urlencoded bodies, which the API reads just the same (a list such
as payed_for as repeated fields). Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/projects"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
CODES = {"household": "house-code", "weekend-trip": "trip-code", "office": "office-code"}


def basic(project, code=None):
    return base64.b64encode(f"{project}:{code or CODES[project]}".encode()).decode()


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, scheme="Basic")


def capture(d):
    call, check = d.call, d.check

    def as_(project, code=None):
        d.token, d.scheme = basic(project, code), "Basic"

    def get(path, expect=200):
        return call("GET", API + path, expect=expect)[1]

    def send(method, path, body, expect, form=False):
        if form:
            return call(method, API + path, raw=urllib.parse.urlencode(body, doseq=True), headers=FORM,
                        expect=expect)[1]
        return call(method, API + path, body=body, expect=expect)[1]

    def post(path, body, expect=201, form=False):
        return send("POST", path, body, expect, form)

    def put(path, body, expect=200, form=False):
        return send("PUT", path, body, expect, form)

    def delete(path, expect=200):
        return call("DELETE", API + path, expect=expect)[1]

    def read_project(project, members=(), bills=()):
        get(f"/{project}")
        get(f"/{project}/members")
        get(f"/{project}/bills")
        get(f"/{project}/statistics")
        for member in members:
            get(f"/{project}/members/{member}")
        for bill in bills:
            get(f"/{project}/bills/{bill}")

    # ---- a. reads before any write: every project, collection and item; absences; refusals
    call("GET", "/api/currencies", token=None, expect=200)
    as_("household")
    read_project("household", members=(1, 2, 3, 4), bills=(1, 2, 3, 4, 5))
    as_("weekend-trip")
    read_project("weekend-trip", members=(5, 6, 7), bills=(6, 7, 8))
    as_("office")
    read_project("office", members=(8, 9))
    as_("household")
    get("/household/members/99", expect=404)
    get("/household/members/5", expect=404)      # weekend-trip's member, not household's
    get("/household/bills/99", expect=404)
    get("/household/bills/6", expect=404)        # weekend-trip's bill
    get("/weekend-trip", expect=401)             # household's credentials on another project
    get("/weekend-trip/bills/6", expect=401)
    call("GET", API + "/household", token=None, expect=401)
    as_("household", "not-the-code")
    get("/household", expect=401)
    get("/household/members", expect=401)
    as_("no-such-project", "whatever")
    get("/no-such-project", expect=401)

    # a token instead of the private code
    as_("household")
    token = get("/household/token").get("token")
    d.token, d.scheme = token, "Bearer"
    get("/household")
    get("/household/bills/3")
    get("/office", expect=401)                   # household's token on another project
    as_("office")
    office_token = get("/office/token").get("token")
    d.token, d.scheme = office_token, "Bearer"
    get("/office/members")

    # ---- b. creates
    # projects: JSON and FORM; the id is slugified; duplicate and invalid bodies refused
    answer = call("POST", API, body={"name": "Book club", "id": "book-club", "password": "book-code",
                                     "contact_email": "zoe@example.com", "default_currency": "XXX"},
                  token=None, expect=201)[1]
    check("book-club create", answer, "book-club")
    as_("book-club", "book-code")
    read_project("book-club")
    answer = call("POST", API, raw=urllib.parse.urlencode(
        {"name": "Garden plot", "id": "Garden Plot", "password": "garden-code",
         "contact_email": "gus@example.com", "default_currency": "EUR"}), headers=FORM, token=None,
        expect=201)[1]
    check("garden create", answer, "garden-plot")
    as_("garden-plot", "garden-code")
    get("/garden-plot")
    get("/garden-plot/members")
    for body in ({"name": "Again", "id": "household", "password": "x", "contact_email": "a@example.com",
                  "default_currency": "XXX"},
                 {"name": "No mail", "id": "no-mail", "password": "x", "default_currency": "XXX"},
                 {"name": "Bad mail", "id": "bad-mail", "password": "x", "contact_email": "not-an-address",
                  "default_currency": "XXX"},
                 {"name": "No code", "id": "no-code", "contact_email": "a@example.com", "default_currency": "XXX"},
                 {"name": "Bad currency", "id": "bad-currency", "password": "x",
                  "contact_email": "a@example.com", "default_currency": "ZZZ"}):
        call("POST", API, body=body, token=None, expect=400)
    as_("no-mail", "x")
    get("/no-mail", expect=401)                  # the refused create made nothing

    # members: JSON and FORM; duplicate name, zero weight, empty name refused
    as_("household")
    eve = post("/household/members", {"name": "eve", "weight": 1})
    get(f"/household/members/{eve}")
    mallory = post("/household/members", {"name": "mallory", "weight": "1.5"}, form=True)
    get(f"/household/members/{mallory}")
    get("/household/members")
    get("/household")
    post("/household/members", {"name": "alice"}, expect=400)
    post("/household/members", {"name": "oscar", "weight": 0}, expect=400)
    post("/household/members", {"name": ""}, expect=400)
    post("/household/members", {"weight": 2}, expect=400)
    get("/household/members")
    as_("book-club", "book-code")
    zoe = post("/book-club/members", {"name": "zoe"})
    yann = post("/book-club/members", {"name": "yann", "weight": 2})
    xena = post("/book-club/members", {"name": "xena"}, form=True)
    get("/book-club/members")
    get("/book-club")

    # bills: JSON and FORM (payed_for repeated), an arithmetic amount, failures
    as_("household")
    plants = post("/household/bills", {"what": "plants", "payer": eve, "amount": "45.5", "date": "2026-11-20",
                                       "payed_for": [1, eve], "bill_type": "Expense",
                                       "original_currency": "EUR"})
    get(f"/household/bills/{plants}")
    get("/household/bills")
    get("/household/statistics")
    get("/household")
    pizza = post("/household/bills", {"what": "pizza", "payer": 1, "amount": "12+8", "date": "2026-11-21",
                                      "payed_for": [1, 2], "bill_type": "Expense", "original_currency": "EUR"},
                 form=True)
    get(f"/household/bills/{pizza}")
    get("/household/bills")
    get("/household/statistics")
    for body in ({"what": "x", "payer": 5, "amount": "10", "date": "2026-11-22", "payed_for": [1],
                  "original_currency": "EUR"},                       # weekend-trip's member pays
                 {"what": "x", "payer": 1, "date": "2026-11-22", "payed_for": [1], "original_currency": "EUR"},
                 {"what": "x", "payer": 1, "amount": "ten", "date": "2026-11-22", "payed_for": [1],
                  "original_currency": "EUR"},
                 {"what": "x", "payer": 1, "amount": "10", "date": "2026-11-22", "payed_for": [1],
                  "original_currency": "USD"},                       # not the project's currency
                 {"what": "x", "payer": 1, "amount": "10", "date": "2026-11-22", "payed_for": [],
                  "original_currency": "EUR"},
                 {"what": "", "payer": 1, "amount": "10", "date": "2026-11-22", "payed_for": [1],
                  "original_currency": "EUR"}):
        post("/household/bills", body, expect=400)
    get("/household/bills")
    as_("book-club", "book-code")
    novel = post("/book-club/bills", {"what": "novels", "payer": zoe, "amount": "54", "date": "2026-11-12",
                                      "payed_for": [zoe, yann, xena], "original_currency": "XXX"})
    tea = post("/book-club/bills", {"what": "tea", "payer": yann, "amount": "9.60", "date": "2026-11-13",
                                    "payed_for": [zoe, yann], "bill_type": "Reimbursement",
                                    "original_currency": "XXX"})
    get("/book-club/bills")
    get(f"/book-club/bills/{novel}")
    get("/book-club/statistics")
    as_("weekend-trip")
    snacks = post("/weekend-trip/bills", {"what": "snacks", "payer": 7, "amount": "18,40", "date": "2026-10-18",
                                          "payed_for": [5, 7], "original_currency": "XXX",
                                          "external_link": "https://example.com/receipt/18"})
    get(f"/weekend-trip/bills/{snacks}")
    get("/weekend-trip")

    # ---- c. updates (PUT replaces what the form holds; PATCH is not an API method)
    as_("household")
    put(f"/household/members/{eve}", {"name": "eve", "weight": 2, "activated": True})
    get(f"/household/members/{eve}")
    get("/household/statistics")
    put(f"/household/members/{mallory}", {"name": "mallory", "weight": "1"}, form=True)  # no `activated`
    get(f"/household/members/{mallory}")
    get("/household/members")
    put(f"/household/members/{mallory}", {"name": "mal", "weight": "1", "activated": "true"}, form=True)
    get(f"/household/members/{mallory}")
    put("/household/members/4", {"name": "dave", "weight": 0}, expect=400)
    put("/household/members/4", {"weight": 1}, expect=400)
    get("/household/members/4")
    call("PATCH", API + "/household/members/4", body={"weight": 3}, expect=405)
    put(f"/household/bills/{plants}", {"what": "plants and pots", "payer": eve, "amount": "61", "date": "2026-11-20",
                                       "payed_for": [1, 2, eve], "bill_type": "Expense", "original_currency": "EUR"})
    get(f"/household/bills/{plants}")
    get("/household/statistics")
    put(f"/household/bills/{pizza}", {"what": "pizza", "payer": 2, "amount": "22", "date": "2026-11-21",
                                      "payed_for": [1, 2, 4], "bill_type": "Expense", "original_currency": "EUR",
                                      "external_link": "https://example.com/pizza"}, form=True)
    get(f"/household/bills/{pizza}")
    get("/household/bills")
    put("/household/bills/3", {"what": "internet", "payer": 3, "amount": "39.99", "date": "2026-11-05",
                               "payed_for": [], "original_currency": "EUR"}, expect=400)
    put("/household/bills/3", {"what": "internet", "payer": 3, "date": "2026-11-05", "payed_for": [1, 2],
                               "original_currency": "EUR"}, expect=400)
    get("/household/bills/3")
    call("PATCH", API + "/household/bills/3", body={"amount": "40"}, expect=405)
    put("/household", {"name": "Our household", "contact_email": "alice@example.com",
                       "current_password": "house-code", "default_currency": "EUR", "project_history": True})
    get("/household")
    put("/household", {"name": "Household", "contact_email": "bob@example.com", "current_password": "wrong",
                       "default_currency": "EUR"}, expect=400)
    put("/household", {"name": "Household", "contact_email": "bob@example.com", "current_password": "house-code",
                       "default_currency": "USD"}, expect=400)     # a project with bills keeps its currency
    put("/household", {"name": "", "contact_email": "bob@example.com", "current_password": "house-code",
                       "default_currency": "EUR"}, expect=400)
    get("/household")
    call("PATCH", API + "/household", body={"name": "Patched"}, expect=405)
    as_("office")
    put("/office", {"name": "Office lunches", "contact_email": "heidi@example.com", "current_password": "office-code",
                    "default_currency": "EUR"}, form=True)    # no bills: the currency may change
    get("/office")
    put("/office/members/9", {"name": "ivan", "weight": "0.5", "activated": "true"}, form=True)
    get("/office/members/9")
    get("/office/statistics")
    as_("book-club", "book-code")
    put("/book-club", {"name": "Book club", "contact_email": "zoe@example.com", "current_password": "book-code",
                       "password": "new-book-code", "default_currency": "XXX"})
    get("/book-club", expect=401)               # the old code no longer opens it
    as_("book-club", "new-book-code")
    get("/book-club")
    put(f"/book-club/bills/{tea}", {"what": "tea and cake", "payer": yann, "amount": "14.60", "date": "2026-11-13",
                                    "payed_for": [zoe, yann, xena], "bill_type": "Expense",
                                    "original_currency": "XXX"})
    get(f"/book-club/bills/{tea}")
    get("/book-club/statistics")

    # ---- d. deletes: a bill; a member without bills (removed) and with bills (deactivated); projects
    as_("household")
    delete(f"/household/bills/{pizza}")
    get(f"/household/bills/{pizza}", expect=404)
    delete(f"/household/bills/{pizza}", expect=404)
    get("/household/bills")
    get("/household/statistics")
    delete(f"/household/members/{mallory}")
    get(f"/household/members/{mallory}", expect=404)
    delete(f"/household/members/{mallory}", expect=404)
    delete("/household/members/5", expect=404)   # weekend-trip's member
    get("/household/members")
    as_("weekend-trip")
    put("/weekend-trip/members/6", {"name": "franky", "weight": 1, "activated": True})
    delete("/weekend-trip/members/6")          # frank paid the cabin: deactivated, not removed
    get("/weekend-trip/members/6")
    get("/weekend-trip/members")
    get("/weekend-trip/statistics")
    get("/weekend-trip")
    delete(f"/weekend-trip/bills/{snacks}")
    get("/weekend-trip/bills")
    delete("/weekend-trip/bills/1", expect=404)  # household's bill
    as_("household")
    get("/household/bills/1")
    as_("garden-plot", "garden-code")
    delete("/garden-plot")
    get("/garden-plot", expect=401)
    as_("book-club", "new-book-code")
    delete("/book-club")
    get("/book-club", expect=401)
    get("/book-club/members", expect=401)
    get(f"/book-club/bills/{novel}", expect=401)
    call("POST", API, body={"name": "Book club again", "id": "book-club", "password": "book-code",
                            "contact_email": "zoe@example.com", "default_currency": "XXX"}, token=None, expect=201)
    as_("book-club", "book-code")
    read_project("book-club")

    # ---- e. final reads of what is left
    as_("household")
    read_project("household", members=(1, 2, 3, 4, eve), bills=(1, 2, 3, 4, 5, plants))
    as_("weekend-trip")
    read_project("weekend-trip", members=(5, 6, 7), bills=(6, 7, 8))
    as_("office")
    read_project("office", members=(8, 9))


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46331")
