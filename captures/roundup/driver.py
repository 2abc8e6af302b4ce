#!/usr/bin/env python3
"""Scenario driver for the Roundup issue tracker 2.6.0's REST API (talks to the mitmproxy reverse
proxy in front of roundup-server).

Usage:
  python driver.py --base http://127.0.0.1:42771 --mode capture [-v]

Every call is the admin's (HTTP Basic, the throwaway pair start.sh makes) and carries the headers
Roundup's CSRF checks ask a REST client for: X-Requested-With and an Origin naming the tracker's
web (http://localhost:8917). The seed (seed.sh, run by start.sh, not recorded): users alice (3),
bob (4), carol (5) beside admin (1) and anonymous (2); keywords ui, backend, docs (1-3); messages
1-3; issues 1-4; the classic template's priorities (1-5) and statuses (1-8).
PUT, PATCH and DELETE need the item's current @etag, sent in If-Match (or as an `@etag` body
member): the driver reads the item (or the property) first and sends the ETag that read answered.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADMIN = ("admin", "capenv-roundup-throwaway")
API = "/demo/rest"
CSRF = {"X-Requested-With": "rest", "Origin": "http://localhost:8917"}


class RoundupDriver(Driver):
    def call(self, method, path, body=None, raw=None, params=None, expect=None, headers=None, **kw):
        merged = dict(CSRF)
        merged.update(headers or {})
        for name, value in list(merged.items()):
            if value is None:  # a call leaving a CSRF header out
                del merged[name]
        return super().call(method, path, body, raw=raw, params=params, expect=expect, headers=merged, **kw)


def make_driver(base, min_sleep, max_sleep, verbose):
    token = base64.b64encode(":".join(ADMIN).encode()).decode()
    return RoundupDriver(base, min_sleep, max_sleep, verbose, token=token, scheme="Basic")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=None, raw=None, headers=None):
        return call(method, API + path, body, raw=raw, expect=expect, headers=headers)[1]

    def data(answer):
        return answer.get("data", {}) if isinstance(answer, dict) else {}

    def etag(path):
        """Read the item (or property) and answer its @etag."""
        return data(get(path)).get("@etag")

    def put(path, body, expect=200):
        return send("PUT", path, body, expect=expect, headers={"If-Match": etag(path)})

    def patch(path, body, expect=200):
        return send("PATCH", path, body, expect=expect, headers={"If-Match": etag(path)})

    def delete(path, expect=200):
        return send("DELETE", path, expect=expect, headers={"If-Match": etag(path)})

    def created(answer):
        return data(answer).get("id")

    # ---- a. reads before any write: the root, every class's list, the seed's items, absences
    get("")
    get("/data")
    for cls in ("issue", "user", "keyword", "priority", "status", "msg"):
        get(f"/data/{cls}")
    for n in range(1, 5):
        get(f"/data/issue/{n}")
    for n in (1, 3, 4, 5):
        get(f"/data/user/{n}")
    for n in range(1, 4):
        get(f"/data/keyword/{n}")
    for n in (1, 3, 5):
        get(f"/data/priority/{n}")
    for n in (1, 2, 8):
        get(f"/data/status/{n}")
    get("/data/msg/1")
    get("/data/issue/1/title")
    get("/data/issue/1/status")
    get("/data/user/3/realname")
    # list options: verbose, fields, paging, sort, filters
    get("/data/issue", **{"@verbose": "2"})
    get("/data/issue", **{"@fields": "title,status"})
    get("/data/issue", **{"@page_size": "2", "@page_index": "1"})
    get("/data/issue", **{"@page_size": "2", "@page_index": "2"})
    get("/data/issue", **{"@page_size": "2", "@page_index": "3"})
    get("/data/issue", **{"@sort": "title", "@fields": "title"})
    get("/data/issue", **{"@sort": "-id"})
    get("/data/issue", status="1")
    get("/data/issue", priority="3")
    get("/data/issue", keyword="1")
    get("/data/issue", title="page")
    get("/data/user", **{"@fields": "username,realname,address"})
    get("/data/keyword", **{"@verbose": "2"})
    get("/data/priority", **{"@verbose": "2", "@sort": "order"})
    get("/data/issue/1", **{"@verbose": "2"})
    get("/data/issue/2", **{"@fields": "title,priority"})
    # absences and bad addresses
    get("/data/issue/99", expect=404)
    get("/data/user/99", expect=404)
    get("/data/keyword/99", expect=404)
    get("/data/issue/abc", expect=404)
    get("/data/nosuchclass", expect=404)
    get("/data/issue/1/nosuchprop", expect=400)

    # ---- b. creates (201 {data: {id, link}}), each read back with its list
    perf = created(send("POST", "/data/keyword", {"name": "perf"}, expect=201))
    get(f"/data/keyword/{perf}")
    get("/data/keyword")
    security = created(send("POST", "/data/keyword", {"name": "security"}, expect=201))
    get(f"/data/keyword/{security}")
    get("/data/keyword", **{"@verbose": "2"})
    dave = created(send("POST", "/data/user", {"username": "dave", "realname": "Dave Dunn",
                                               "address": "dave@example.com"}, expect=201))
    get(f"/data/user/{dave}")
    get("/data/user")
    erin = created(send("POST", "/data/user", {"username": "erin", "realname": "Erin Eads",
                                               "address": "erin@example.com", "organisation": "Initech"},
                        expect=201))
    get(f"/data/user/{erin}")
    get("/data/user", **{"@fields": "username,realname,address"})
    bare = created(send("POST", "/data/issue", {"title": "Crash when saving a draft"}, expect=201))
    get(f"/data/issue/{bare}")
    get("/data/issue")
    full = created(send("POST", "/data/issue", {"title": "Add a dark theme", "priority": "4", "status": "2",
                                                "assignedto": "3", "keyword": ["1", perf], "nosy": ["3", "4"]},
                        expect=201))
    get(f"/data/issue/{full}")
    get("/data/issue", **{"@verbose": "2"})
    get("/data/issue", status="2")
    third = created(send("POST", "/data/issue", {"title": "Export issues as CSV"}, expect=201))
    get(f"/data/issue/{third}")
    get("/data/issue", **{"@page_size": "2", "@page_index": "1"})
    note = created(send("POST", "/data/msg", {"content": "Seen again after the upgrade.", "author": "4"},
                        expect=201))
    get(f"/data/msg/{note}")
    get("/data/msg")
    # refused creates
    send("POST", "/data/keyword", {"name": "ui"}, expect=409)                     # the key exists
    send("POST", "/data/user", {"username": "alice", "address": "a2@example.com"}, expect=409)
    send("POST", "/data/issue", {"title": "Bad priority", "priority": "99"}, expect=409)
    send("POST", "/data/issue", {"title": "Bad property", "colour": "red"}, expect=400)
    send("POST", "/data/issue", raw='{"title":', expect=400)                      # malformed JSON
    send("POST", "/data/nosuchclass", {"name": "x"}, expect=404)
    send("POST", "/data/keyword", {"name": "no-csrf"}, expect=400, headers={"X-Requested-With": None})
    send("POST", "/data/keyword", {"name": "elsewhere"}, expect=400,
         headers={"Origin": "http://evil.example.net"})
    get("/data/keyword")

    # ---- c. updates: PUT and PATCH with the current ETag, each read back
    put(f"/data/keyword/{perf}", {"name": "performance"})
    get(f"/data/keyword/{perf}")
    get("/data/keyword", **{"@verbose": "2"})
    put(f"/data/user/{dave}", {"realname": "Dave D. Dunn", "phone": "555-0199"})
    get(f"/data/user/{dave}")
    get("/data/user", **{"@fields": "username,realname,address"})
    put(f"/data/issue/{bare}", {"title": "Crash when saving a long draft"})
    get(f"/data/issue/{bare}")
    get("/data/issue", **{"@verbose": "2"})
    patch(f"/data/user/{erin}", {"organisation": "Globex"})
    get(f"/data/user/{erin}")
    patch(f"/data/issue/{third}", {"title": "Export issues as CSV and JSON"})
    get(f"/data/issue/{third}")
    patch(f"/data/keyword/{security}", {"name": "sec"})
    get(f"/data/keyword/{security}")
    get("/data/keyword")
    # links and multilinks: the ids sent come back as {id, link} objects
    put("/data/issue/2", {"status": "3", "assignedto": "5"})
    get("/data/issue/2")
    get("/data/issue", status="3")
    patch(f"/data/issue/{full}", {"@op": "add", "nosy": ["5"]})
    get(f"/data/issue/{full}")
    patch(f"/data/issue/{full}", {"@op": "remove", "nosy": ["3"]})
    get(f"/data/issue/{full}")
    patch(f"/data/issue/{full}", {"@op": "replace", "keyword": ["2"]})
    get(f"/data/issue/{full}")
    # a property by its own path: {data: value}
    put(f"/data/issue/{third}/title", {"data": "Export issues"})
    get(f"/data/issue/{third}/title")
    get(f"/data/issue/{third}")
    put(f"/data/user/{dave}/phone", {"data": "555-0100"})
    get(f"/data/user/{dave}")
    # the ETag sent in the body as @etag instead of the header
    tag = etag(f"/data/keyword/{perf}")
    send("PUT", f"/data/keyword/{perf}", {"name": "speed", "@etag": tag}, expect=200)
    get(f"/data/keyword/{perf}")
    # preconditions refused: none, a stale one (412)
    send("PUT", f"/data/keyword/{perf}", {"name": "no-etag"}, expect=412)
    send("PUT", f"/data/keyword/{perf}", {"name": "stale"}, expect=412, headers={"If-Match": tag})
    send("PATCH", f"/data/user/{erin}", {"organisation": "Hooli"}, expect=412)
    send("PATCH", f"/data/issue/{bare}", {"title": "stale"}, expect=412,
         headers={"If-Match": '"0123456789abcdef0123456789abcdef"'})
    get(f"/data/keyword/{perf}")
    get(f"/data/user/{erin}")
    # bad values and addresses
    put(f"/data/issue/{bare}", {"priority": "99"}, expect=409)
    put(f"/data/issue/{bare}", {"colour": "red"}, expect=400)
    send("PUT", "/data/issue/99", {"title": "nowhere"}, expect=409, headers={"If-Match": '"0123"'})
    send("PATCH", "/data/keyword/99", {"name": "nowhere"}, expect=404, headers={"If-Match": '"0123"'})
    send("PUT", f"/data/keyword/{perf}", {"name": "no-csrf"}, expect=400,
         headers={"X-Requested-With": None, "If-Match": etag(f"/data/keyword/{perf}")})
    get(f"/data/issue/{bare}")

    # ---- d. deletes (Roundup retires the item): with the current ETag, each read back
    delete(f"/data/keyword/{security}")
    get(f"/data/keyword/{security}")
    get("/data/keyword")
    delete(f"/data/issue/{third}")
    get(f"/data/issue/{third}")
    get("/data/issue")
    get("/data/issue", **{"@verbose": "2"})
    delete(f"/data/user/{erin}")
    get(f"/data/user/{erin}")
    get("/data/user")
    send("DELETE", f"/data/issue/{bare}", expect=412)                               # no ETag
    send("DELETE", f"/data/issue/{bare}", expect=412, headers={"If-Match": '"0123456789abcdef0123456789abcdef"'})
    send("DELETE", "/data/issue/99", expect=404, headers={"If-Match": '"0123"'})
    send("DELETE", "/data/keyword/99", expect=404, headers={"If-Match": '"0123"'})
    get(f"/data/issue/{bare}")

    # ---- e. a second round of writes on the new items, and the final state
    dark = created(send("POST", "/data/keyword", {"name": "theme"}, expect=201))
    get(f"/data/keyword/{dark}")
    put(f"/data/keyword/{dark}", {"name": "themes"})
    get(f"/data/keyword/{dark}")
    patch(f"/data/user/{dave}", {"organisation": "Acme"})
    get(f"/data/user/{dave}")
    put(f"/data/issue/{full}", {"title": "Add a dark theme and a light one"})
    get(f"/data/issue/{full}")
    delete(f"/data/keyword/{dark}")
    get(f"/data/keyword/{dark}")
    for cls in ("issue", "user", "keyword", "msg"):
        get(f"/data/{cls}")
    get("/data/issue", **{"@verbose": "2", "@sort": "title"})
    for n in range(1, 5):
        get(f"/data/issue/{n}")
    get(f"/data/issue/{full}")
    get(f"/data/user/{dave}")
    get(f"/data/keyword/{perf}")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42771")
