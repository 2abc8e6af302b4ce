#!/usr/bin/env python3
"""Scenario driver for NocoDB 0.301.3's data API v2 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42631 --mode capture [-v]

Every call carries the API token start.sh fixed, in NocoDB's own header `xc-token` (one call goes
without it, to record the 401). The seed (seed.py, run by start.sh, not recorded): tables Books
(B1-B5) and Members (M1-M3) with fixed table ids; rows live under the generic table segment
/api/v2/tables/{tableId}/records[/{Id}], Ids are integers 1..n. Lists answer
{"list": [...], "pageInfo": {"totalRows", "page", "pageSize", "isFirstPage", "isLastPage"}}.
Writes go to the collection path with the row(s) in the body: POST an object or an array of
objects; PATCH and DELETE an object or an array of objects, each naming its row by `Id`.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "nocodb-capture-token-not-a-secret-000001"
BOOKS = "/api/v2/tables/mw3b3pzrazmyg88/records"
MEMBERS = "/api/v2/tables/m4p67nyzsoc3req/records"
NO_TABLE = "/api/v2/tables/mzzzzzzzzzzzzzz/records"   # a table id that never existed
NEVER = 999                                            # a row Id no table ever had


class XcTokenDriver(Driver):
    """The kit's driver with NocoDB's token header instead of Authorization."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        headers = dict(headers or {})
        if token is SEND_TOKEN:
            headers["xc-token"] = TOKEN
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return XcTokenDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    get = d.get

    def new_id(answer):
        return answer.get("Id") if isinstance(answer, dict) else None

    def new_ids(answer):
        return [row.get("Id") for row in answer] if isinstance(answer, list) else []

    # ---- a. reads before any write: both lists, every row, the count, absences
    get("/api/v1/health")
    get(BOOKS)
    get(MEMBERS)
    for row in range(1, 6):
        get(f"{BOOKS}/{row}")
    for row in range(1, 4):
        get(f"{MEMBERS}/{row}")
    get(f"{BOOKS}/count")
    get(f"{BOOKS}/{NEVER}", 404)
    get(f"{MEMBERS}/{NEVER}", 404)
    get(f"{MEMBERS}/5", 404)                       # a Books Id read as a member
    get(NO_TABLE, 404)
    call("GET", BOOKS, expect=401, token=None)     # no token

    # ---- b. creates (answer {"Id": n}), each followed by its item read and the list
    b6 = new_id(call("POST", BOOKS, {"Title": "Kindred", "Author": "Octavia E. Butler", "Year": 1979,
                                     "Genre": "fiction", "Available": True}, expect=200)[1])
    get(f"{BOOKS}/{b6}")
    get(BOOKS)
    b7 = new_id(call("POST", BOOKS, {"Title": "Silent Spring"}, expect=200)[1])   # the rest stays empty
    get(f"{BOOKS}/{b7}")
    get(BOOKS)
    # a client-chosen Id: NocoDB ignores it and numbers the row itself
    b8 = new_id(call("POST", BOOKS, {"Id": 100, "Title": "The Double Helix", "Author": "James D. Watson",
                                     "Year": 1968, "Genre": "science", "Available": False}, expect=200)[1])
    check("chosen Id ignored", b8, 8)
    get(f"{BOOKS}/{b8}")
    get(f"{BOOKS}/100", 404)
    get(BOOKS)
    m4 = new_id(call("POST", MEMBERS, {"Name": "Edsger Wybe", "Email": "edsger@example.org",
                                       "Joined": "2026-11-02", "Active": True}, expect=200)[1])
    get(f"{MEMBERS}/{m4}")
    get(MEMBERS)
    # bulk create: an array of rows answers an array of {"Id": n}
    b9, b10 = new_ids(call("POST", BOOKS, [
        {"Title": "Cosmos", "Author": "Carl Sagan", "Year": 1980, "Genre": "science", "Available": True},
        {"Title": "The Histories", "Author": "Herodotus", "Year": -430, "Genre": "history",
         "Available": True}], expect=200)[1]) or (None, None)
    get(f"{BOOKS}/{b9}")
    get(f"{BOOKS}/{b10}")
    get(BOOKS)
    m5, m6 = new_ids(call("POST", MEMBERS, [
        {"Name": "Barbara Liskov", "Email": "barbara@example.org", "Joined": "2026-11-10", "Active": True},
        {"Name": "Donald Ervin", "Email": "donald@example.org", "Joined": "2026-11-12", "Active": False}],
        expect=200)[1]) or (None, None)
    get(f"{MEMBERS}/{m5}")
    get(f"{MEMBERS}/{m6}")
    get(MEMBERS)

    # ---- c. updates: PATCH the collection with {"Id", ...} or an array of them (a merge;
    #         UpdatedAt moves to the call's time), each followed by item reads
    call("PATCH", BOOKS, {"Id": 3, "Available": True}, expect=200)
    get(f"{BOOKS}/3")
    call("PATCH", BOOKS, {"Id": b7, "Author": "Rachel Carson", "Year": 1962, "Genre": "science"}, expect=200)
    get(f"{BOOKS}/{b7}")
    get(BOOKS)
    call("PATCH", BOOKS, {"Id": 1, "Year": 1969}, expect=200)                # the value it holds
    get(f"{BOOKS}/1")
    call("PATCH", BOOKS, [{"Id": 2, "Available": False}, {"Id": 4, "Author": "Stanisław Lem"}],
         expect=200)
    get(f"{BOOKS}/2")
    get(f"{BOOKS}/4")
    get(BOOKS)
    call("PATCH", BOOKS, {"Id": b6, "Title": "Kindred (anniversary edition)", "Year": 2003}, expect=200)
    get(f"{BOOKS}/{b6}")
    call("PATCH", MEMBERS, {"Id": 2, "Email": "alan@example.net"}, expect=200)
    get(f"{MEMBERS}/2")
    call("PATCH", MEMBERS, [{"Id": 1, "Active": False}, {"Id": m5, "Joined": "2026-11-30"}], expect=200)
    get(f"{MEMBERS}/1")
    get(f"{MEMBERS}/{m5}")
    get(MEMBERS)

    # ---- d. deletes (answer the Id(s)), each followed by 404 item reads and the list
    call("DELETE", BOOKS, {"Id": b7}, expect=200)
    get(f"{BOOKS}/{b7}", 404)
    get(BOOKS)
    # B5 and the newest row B10 at once
    call("DELETE", BOOKS, [{"Id": 5}, {"Id": b10}], expect=200)
    get(f"{BOOKS}/5", 404)
    get(f"{BOOKS}/{b10}", 404)
    get(BOOKS)
    # the next row takes the highest Id held plus one: the deleted B10's Id comes back
    b11 = new_id(call("POST", BOOKS, {"Title": "Gödel, Escher, Bach", "Author": "Douglas Hofstadter",
                                      "Year": 1979, "Genre": "science", "Available": True}, expect=200)[1])
    check("the deleted highest Id is reused", b11, b10)
    get(f"{BOOKS}/{b11}")
    get(BOOKS)
    call("DELETE", MEMBERS, {"Id": 3}, expect=200)
    get(f"{MEMBERS}/3", 404)
    get(MEMBERS)
    call("DELETE", MEMBERS, [{"Id": m6}], expect=200)
    get(f"{MEMBERS}/{m6}", 404)
    get(MEMBERS)

    # ---- e. filters (where=), sorts, paging (limit/offset), fields, counts
    get(BOOKS, where="(Genre,eq,fiction)")
    get(BOOKS, where="(Genre,eq,science)")
    get(BOOKS, where="(Year,gt,1965)")
    get(BOOKS, where="(Year,lt,1970)~and(Genre,eq,science)")
    get(BOOKS, where="(Genre,eq,fiction)~or(Genre,eq,history)")
    get(BOOKS, where="(Available,checked)")
    get(BOOKS, where="(Title,like,%the%)")
    get(BOOKS, where="(Author,eq,Carl Sagan)")
    get(BOOKS, sort="Title")
    get(BOOKS, sort="-Year")
    get(BOOKS, sort="Genre,-Year")
    get(BOOKS, where="(Genre,eq,science)", sort="-Year")
    get(BOOKS, limit="2")
    get(BOOKS, limit="2", offset="2")
    get(BOOKS, limit="2", offset="4")
    get(BOOKS, limit="3", offset="3", sort="Title")
    get(BOOKS, fields="Title,Year")
    get(BOOKS, fields="Title,Genre", where="(Year,gt,1975)")
    get(f"{BOOKS}/count", where="(Genre,eq,science)")
    get(f"{BOOKS}/count")
    get(MEMBERS, where="(Active,checked)")
    get(MEMBERS, where="(Name,like,%ar%)")
    get(MEMBERS, sort="-Joined")
    get(MEMBERS, limit="2", offset="1")
    get(MEMBERS, fields="Name,Email")
    get(f"{MEMBERS}/count")

    # ---- f. failures
    call("PATCH", BOOKS, {"Id": NEVER, "Year": 2000}, expect=404)
    call("DELETE", BOOKS, {"Id": b7}, expect=404)                            # already deleted
    call("PATCH", MEMBERS, {"Id": 3, "Active": True}, expect=404)            # deleted above
    call("PATCH", BOOKS, {"Title": "which row?"}, expect=404)                # no Id
    call("POST", BOOKS, {"Title": "Leaves of Grass", "Genre": "poetry"}, expect=400)   # not an option
    call("POST", BOOKS, [{"Title": "Walden", "Genre": "history"}, {"Title": "Odes", "Genre": "poetry"}],
         expect=400)                                                         # neither row is made
    call("POST", BOOKS, raw='{"Title": "broken json"', expect=400)
    call("PATCH", BOOKS, [{"Id": 1, "Year": 1970}, {"Id": NEVER, "Year": 1}], expect=404)  # none changes
    call("DELETE", BOOKS, [{"Id": 2}, {"Id": NEVER}], expect=404)            # none is deleted
    call("POST", NO_TABLE, {"Title": "nowhere"}, expect=404)
    get(BOOKS, 422, where="(Year,gt")                                        # a filter that does not parse
    get(BOOKS, 404, sort="Pages")                                            # no such field
    get(BOOKS, 422, limit="2", offset="50")                                  # past the end
    call("POST", BOOKS, {"Title": "Anonymous"}, expect=401, token=None)

    # ---- g. final state
    get(BOOKS)
    get(MEMBERS)
    for row in (1, 2, 3, 4, b6, b8, b9, b11):
        get(f"{BOOKS}/{row}")
    for row in (1, 2, m4, m5):
        get(f"{MEMBERS}/{row}")
    get(f"{BOOKS}/5", 404)
    get(f"{MEMBERS}/3", 404)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42631")
