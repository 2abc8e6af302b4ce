#!/usr/bin/env python3
"""Scenario driver for TiddlyWiki 5.4.1's Node.js server (its TiddlyWeb-style HTTP API; talks to the
mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43011 --mode capture [-v]

No credentials: the server runs with anonymous readers and writers. Every write carries
`X-Requested-With: TiddlyWiki` (the server's CSRF check: without it 403). Routes:
`GET /status`, `GET /recipes/default/tiddlers.json` (the skinny list: every non-system tiddler
without its text, custom fields flat, `revision`; `filter=` a TiddlyWiki filter, allowed by the
seed's $:/config/Server/AllowAllExternalFilters; `exclude=` fields to leave out),
`GET /recipes/default/tiddlers/{title}` (the tiddler: custom fields nested under `fields`,
`revision`, `bag`), `PUT /recipes/default/tiddlers/{title}` (create or replace, 204 with an
`Etag: "default/{title}/{revision}:"`), `DELETE /bags/default/tiddlers/{title}` (204, also for a
missing title). Titles are percent-encoded in the path as the TiddlyWeb client's
encodeURIComponent does. Bodies are what the TiddlyWeb client sends: known fields at the top
level, tags as an array, other fields under `fields`, created/modified as 17-digit UTC strings
from the driver's own fixed clock (the server adds no timestamp of its own).
The seed (seed/*.tid, copied before the server starts, not recorded): eight tiddlers.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

CSRF = {"X-Requested-With": "TiddlyWiki"}
SEEDED = ["Café Menu", "Getting Started", "Meeting Notes 2026-11-20", "Projects/Alpha", "Projects/Beta",
          "Reading List", "Welcome", "日本語ノート"]


class TiddlyWikiDriver(Driver):
    """The kit's driver without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return TiddlyWikiDriver(base, min_sleep, max_sleep, verbose)


def enc(title):
    """encodeURIComponent: everything but letters, digits and - _ . ! ~ * ' ( )."""
    return quote(title, safe="!~*'()")


def item_path(title):
    return f"/recipes/default/tiddlers/{enc(title)}"


def bag_path(title):
    return f"/bags/default/tiddlers/{enc(title)}"


class Clock:
    """The client's clock: a fixed start, one minute on per write (TiddlyWiki's 17-digit UTC form)."""

    def __init__(self):
        self.now = datetime(2026, 12, 1, 9, 0, 0)

    def tick(self):
        self.now += timedelta(minutes=1)
        return self.now.strftime("%Y%m%d%H%M%S") + "000"


def capture(d):
    call, check, get = d.call, d.check, d.get
    clock = Clock()

    def tiddler(title, text, tags=None, fields=None, created=None, typ="text/vnd.tiddlywiki",
                creator="dave"):
        """A body as the TiddlyWeb client sends it."""
        stamp = clock.tick()
        body = {"title": title, "text": text, "created": created or stamp, "creator": creator,
                "modified": stamp, "modifier": "dave", "type": typ}
        if tags is not None:
            body["tags"] = tags
        if fields:
            body["fields"] = fields
        return body

    def put(title, body, expect=204, headers=CSRF, raw=None):
        return call("PUT", item_path(title), body=body, raw=raw, expect=expect, headers=headers)

    def delete(title, expect=204, headers=CSRF):
        return call("DELETE", bag_path(title), expect=expect, headers=headers)

    def item(title, expect=200):
        return call("GET", item_path(title), expect=expect)[1]

    def listing(**params):
        return get("/recipes/default/tiddlers.json", **params)

    def titles(answer):
        return [t.get("title") for t in answer] if isinstance(answer, list) else answer

    # ---- a. reads before any write: status, the list, every seeded tiddler, absences, filters
    get("/status")
    check("seeded titles", titles(listing()), SEEDED)
    for title in SEEDED:
        item(title)
    # a system tiddler: readable by title, left out of the default list ([all[tiddlers]!is[system]])
    item("$:/config/Server/AllowAllExternalFilters")
    item("Nope", expect=404)
    item("Projects/Gamma", expect=404)
    item("welcome", expect=404)  # titles are case-sensitive
    call("GET", item_path("Getting Started") + "/", expect=404)
    call("GET", bag_path("Welcome"), expect=404)  # reads are under the recipe only
    call("GET", "/recipes/other/tiddlers/Welcome", expect=404)
    listing(filter="[tag[project]]")
    listing(filter="[tag[in progress]]")
    listing(filter="[[Welcome]] [[Reading List]]")
    listing(filter="[!is[system]sort[modified]]")
    listing(exclude="text,tags")

    # ---- b. creates at client-chosen titles, each read back as an item and in the list
    creates = [
        tiddler("Shopping List", "* milk\n* bread", ["list", "home"], {"store": "market"}),
        tiddler("Projects/Gamma", "Gamma replaces the old exporter.", ["project", "in progress"],
                {"owner": "carol", "due": "20270115"}),
        tiddler("Recipe: Crêpes", "Flour, eggs, milk.", ["food", "french cuisine"], {"servings": "4"}),
        tiddler("Ideas 💡", "A wiki for the garden.", ["ideas"]),
        tiddler("Team/Onboarding/Checklist", "1. Laptop\n2. Accounts", ["welcome", "Getting Started"],
                {"owner": "alice", "step-count": "2"}),
        tiddler("Markdown Page", "# Heading\n\nSome *markdown*.", ["docs"], typ="text/x-markdown"),
        tiddler("Weekly Review (Dec)", "Review [[Projects/Gamma]].", ["meeting", "in progress"],
                {"attendees": "alice carol"}),
    ]
    for n, body in enumerate(creates):
        put(body["title"], body)
        item(body["title"])
        if n % 2 == 0:
            listing()
    listing()

    # the docs' own forms: a minimal body (the type defaults), tags as a TiddlyWiki list string,
    # custom fields at the top level instead of under `fields`
    put("Plain Note", {"text": "just text"})
    item("Plain Note")
    put("Tags As String", {"title": "Tags As String", "text": "tags in one string",
                           "tags": "[[two words]] one"})
    item("Tags As String")
    put("Top Level Fields", {"title": "Top Level Fields", "text": "colour at the top", "tags": ["misc"],
                             "color": "blue", "size": "large"})
    item("Top Level Fields")
    listing()
    # the title in the path wins over the body's
    put("Path Title", {"title": "Body Title", "text": "which title?", "tags": ["misc"]})
    item("Path Title")
    item("Body Title", expect=404)
    listing()

    # ---- c. replaces: a PUT is the whole tiddler (fields not sent are gone), revision counts on
    alpha = item("Projects/Alpha")
    put("Projects/Alpha", tiddler("Projects/Alpha", "Alpha ships the new importer in January.",
                                  ["project", "in progress"], {"owner": "alice"},
                                  created=alpha.get("created") if isinstance(alpha, dict) else None))
    item("Projects/Alpha")
    listing()
    put("Welcome", tiddler("Welcome", "Welcome! Start with [[Team/Onboarding/Checklist]].",
                           ["Getting Started", "welcome", "start here"],
                           {"priority": "1", "status": "published"}, created="20261101090000000",
                           creator="alice"))
    item("Welcome")
    listing()
    put("Café Menu", tiddler("Café Menu", "Crème brûlée, café au lait, crêpes.", ["food"], {"price": "14"},
                             created="20261107120000000", creator="carol"))
    item("Café Menu")
    listing()
    for step, text in enumerate(["* milk\n* bread\n* eggs", "* milk\n* eggs", "* eggs"]):
        put("Shopping List", tiddler("Shopping List", text, ["list", "home"],
                                     {"store": "market" if step < 2 else "corner shop"},
                                     created="20261201090100000"))
        item("Shopping List")
    listing()
    put("Reading List", tiddler("Reading List", "* SICP\n* The Mythical Man-Month\n* Refactoring",
                                ["list", "books"], created="20261103110000000", typ="text/x-markdown",
                                creator="alice"))
    item("Reading List")
    listing()
    # tags dropped altogether, a field emptied
    put("Meeting Notes 2026-11-20", tiddler("Meeting Notes 2026-11-20", "Minutes approved.", [],
                                            {"attendees": ""}, created="20261120150000000",
                                            creator="bob"))
    item("Meeting Notes 2026-11-20")
    listing()
    # a replace carrying a stale revision: the server drops it and counts its own
    body = tiddler("Projects/Gamma", "Gamma is on hold.", ["project", "on hold"], {"owner": "carol"},
                   created="20261201090200000")
    body["revision"] = "99"
    put("Projects/Gamma", body)
    item("Projects/Gamma")
    put("Plain Note", {"text": "just text, edited", "tags": ["misc"]})
    item("Plain Note")
    listing()

    # ---- d. deletes (the bag path), each read back; a missing title is also 204
    for title in ["Projects/Beta", "Plain Note", "日本語ノート", "Ideas 💡", "Path Title"]:
        delete(title)
        item(title, expect=404)
        listing()
    delete("Never Existed")
    item("Never Existed", expect=404)
    # a deleted title created again: its revision keeps counting
    put("Projects/Beta", tiddler("Projects/Beta", "Beta is back as a second pilot.", ["project"],
                                 {"owner": "bob"}))
    item("Projects/Beta")
    listing()

    # ---- e. filters and reads after the writes
    listing(filter="[tag[project]]")
    listing(filter="[tag[list]]")
    listing(filter="[tag[in progress]]")
    for title in ["Welcome", "Getting Started", "Team/Onboarding/Checklist", "Recipe: Crêpes",
                  "Tags As String", "Top Level Fields", "Markdown Page", "Weekly Review (Dec)"]:
        item(title)

    # ---- f. refusals and odd requests
    put("No Header", tiddler("No Header", "no CSRF header", ["misc"]), expect=403, headers=None)
    item("No Header", expect=404)
    delete("Welcome", expect=403, headers=None)
    item("Welcome")
    call("PUT", "/recipes/other/tiddlers/Elsewhere", body={"text": "x"}, expect=404, headers=CSRF)
    call("DELETE", item_path("Welcome"), expect=404, headers=CSRF)  # deletes go to the bag path
    call("POST", item_path("Posted"), body={"text": "x"}, expect=404, headers=CSRF)
    item("Posted", expect=404)
    call("PUT", "/recipes/default/tiddlers/", body={"text": "x"}, expect=404, headers=CSRF)
    # a body that is not JSON: the server stores an empty tiddler under the title
    put("Broken Body", None, raw="{not json")
    item("Broken Body")
    listing()
    delete("Broken Body")
    item("Broken Body", expect=404)
    listing()
    get("/status")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43011")
