#!/usr/bin/env python3
"""Scenario driver for changedetection.io 0.60.10's REST API (/api/v1, talks to the mitmproxy reverse
proxy in front of the app).

Usage:
  python driver.py --base http://127.0.0.1:43061 --mode capture [-v]

Every call sends start.sh's throwaway API key in x-api-key (no Authorization header). The seed
(datastore.py, written before the start, not recorded): tags production (…a001) and staging
(…a002), watches "Release notes" (…b001, tagged production) and "Status page" (…b002, tagged
staging, paused); every check paused, so no watch is ever fetched. Bodies are JSON but for the
import, whose body is text/plain (one URL a line). Every call is sequential, with a random
50-150 ms sleep before it.
"""
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "capenv0changedetection0throwaway"
SITE = "http://127.0.0.1:43069"  # a loopback port nobody serves (never fetched: all paused)
TAG_PROD = "1a2b3c4d-0001-4000-8000-00000000a001"
TAG_STAGING = "1a2b3c4d-0002-4000-8000-00000000a002"
W_RELEASES = "5e7d0c1a-0001-4000-8000-00000000b001"
W_STATUS = "5e7d0c1a-0002-4000-8000-00000000b002"
MISSING = "00000000-dead-4000-8000-000000000000"


class ChangeDetectionDriver(Driver):
    def call(self, method, path, body=None, raw=None, params=None, expect=None, headers=None, **kw):
        merged = {"x-api-key": API_KEY}
        merged.update(headers or {})
        return super().call(method, path, body, raw=raw, params=params, expect=expect, headers=merged,
                            token=None)

    def text(self, path, content, params=None, expect=None):
        """A text/plain POST (the import), logged and checked as call does."""
        time.sleep(random.uniform(self.min_sleep, self.max_sleep))
        r = self.c.post(path, content=content.encode(), params=params,
                        headers={"x-api-key": API_KEY, "Content-Type": "text/plain"})
        self.c.cookies.clear()
        self.n += 1
        if self.verbose:
            print(f"{self.n - 1:5d} POST   {r.request.url.raw_path.decode()} (text) -> {r.status_code}",
                  file=sys.stderr)
        if expect is not None and r.status_code != expect:
            self.unexpected += 1
            print(f"UNEXPECTED #{self.n - 1} POST {path}: {r.status_code} (expected {expect}) {r.text[:300]}",
                  file=sys.stderr)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, r.text


def make_driver(base, min_sleep, max_sleep, verbose):
    return ChangeDetectionDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    def get(path, expect=200, **params):
        return d.call("GET", path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=None, raw=None):
        return d.call(method, path, body, raw=raw, expect=expect)[1]

    A = "/api/v1"

    # ---- a. the seeded state
    get(f"{A}/systeminfo")
    get(f"{A}/watch")
    get(f"{A}/tags")
    get(f"{A}/watch/{W_RELEASES}")
    get(f"{A}/watch/{W_STATUS}")
    get(f"{A}/tag/{TAG_PROD}")
    get(f"{A}/tag/{TAG_STAGING}")
    get(f"{A}/watch", tag="production")
    get(f"{A}/watch/{W_RELEASES}/history")
    get(f"{A}/notifications")
    # missing ids and a bad key
    get(f"{A}/watch/{MISSING}", expect=404)
    get(f"{A}/tag/{MISSING}", expect=404)
    d.call("GET", f"{A}/watch", headers={"x-api-key": "not-the-key"}, expect=403)

    # ---- b. tags: create, read, update, invalid bodies
    qa = send("POST", f"{A}/tag", {"title": "qa"}, expect=201)["uuid"]
    get(f"{A}/tag/{qa}")
    get(f"{A}/tags")
    nightly = send("POST", f"{A}/tag", {"title": "nightly", "tag_colour": "#4f8ef7"}, expect=201)["uuid"]
    get(f"{A}/tag/{nightly}")
    get(f"{A}/tags")
    eu = send("POST", f"{A}/tag", {"title": "eu-sites", "notification_muted": True}, expect=201)["uuid"]
    get(f"{A}/tag/{eu}")
    get(f"{A}/tags")
    # a second tag of a taken title: the app answers the existing tag's uuid (201), adds none
    again = send("POST", f"{A}/tag", {"title": "qa"}, expect=201)["uuid"]
    d.check("repeated tag title uuid", again, qa)
    get(f"{A}/tags")
    send("POST", f"{A}/tag", {}, expect=400)
    send("POST", f"{A}/tag", {"title": 7}, expect=400)
    send("POST", f"{A}/tag", {"title": "bad colour", "tag_colour": "red"}, expect=400)
    send("POST", f"{A}/tag", {"title": "extra", "colour_name": "blue"}, expect=400)
    send("POST", f"{A}/tag", raw="{not json", expect=400)
    get(f"{A}/tags")
    send("PUT", f"{A}/tag/{qa}", {"title": "quality"}, expect=200)
    get(f"{A}/tag/{qa}")
    get(f"{A}/tags")
    send("PUT", f"{A}/tag/{nightly}", {"tag_colour": "#123"}, expect=200)
    get(f"{A}/tag/{nightly}")
    send("PUT", f"{A}/tag/{TAG_STAGING}", {"notification_muted": True}, expect=200)
    get(f"{A}/tag/{TAG_STAGING}")
    get(f"{A}/tags")
    send("PUT", f"{A}/tag/{nightly}", {"tag_colour": "blue"}, expect=400)
    send("PUT", f"{A}/tag/{nightly}", {"nickname": "n"}, expect=400)
    send("PUT", f"{A}/tag/{nightly}", {"title": False}, expect=400)
    get(f"{A}/tag/{nightly}")
    send("PUT", f"{A}/tag/{MISSING}", {"title": "ghost"}, expect=404)

    # ---- c. watches: create, read, list
    docs = send("POST", f"{A}/watch", {"url": f"{SITE}/docs/index.html", "title": "Docs home"},
                expect=201)["uuid"]
    get(f"{A}/watch/{docs}")
    get(f"{A}/watch")
    pricing = send("POST", f"{A}/watch", {"url": f"{SITE}/pricing", "title": "Pricing",
                                          "tags": [qa], "paused": True}, expect=201)["uuid"]
    get(f"{A}/watch/{pricing}")
    get(f"{A}/watch")
    blog = send("POST", f"{A}/watch", {"url": f"{SITE}/blog/feed.xml"}, expect=201)["uuid"]
    get(f"{A}/watch/{blog}")
    get(f"{A}/watch")
    api = send("POST", f"{A}/watch", {"url": f"{SITE}/api/health", "title": "API health",
                                      "tags": [TAG_PROD, nightly], "method": "POST",
                                      "body": "{\"ping\": 1}", "headers": {"Accept": "application/json"},
                                      "time_between_check_use_default": False,
                                      "time_between_check": {"hours": 6}}, expect=201)["uuid"]
    get(f"{A}/watch/{api}")
    get(f"{A}/watch")
    # the legacy `tag` member: tag titles, comma-separated; a title no tag has makes a new tag
    careers = send("POST", f"{A}/watch", {"url": f"{SITE}/careers", "title": "Careers",
                                          "tag": "staging, hiring"}, expect=201)["uuid"]
    get(f"{A}/watch/{careers}")
    get(f"{A}/tags")
    get(f"{A}/watch")
    filters = send("POST", f"{A}/watch", {"url": f"{SITE}/changelog.txt", "title": "Changelog",
                                          "include_filters": ["#main"], "ignore_text": ["Updated at"],
                                          "trigger_text": ["release"], "notification_muted": True},
                   expect=201)["uuid"]
    get(f"{A}/watch/{filters}")
    get(f"{A}/watch")
    get(f"{A}/watch", tag="production")
    get(f"{A}/watch", tag="qa")
    get(f"{A}/watch", tag="quality")
    get(f"{A}/watch", tag="Nightly")
    get(f"{A}/systeminfo")

    # ---- d. invalid watch creates (OpenAPI validation and the app's own checks)
    send("POST", f"{A}/watch", {"title": "no url"}, expect=400)
    send("POST", f"{A}/watch", {"url": "not a url"}, expect=400)
    send("POST", f"{A}/watch", {"url": f"{SITE}/x", "title": 12}, expect=400)
    send("POST", f"{A}/watch", {"url": f"{SITE}/x", "paused": "yes"}, expect=400)
    send("POST", f"{A}/watch", {"url": f"{SITE}/x", "method": "FETCH"}, expect=400)
    send("POST", f"{A}/watch", {"url": f"{SITE}/x", "time_between_check_use_default": False}, expect=400)
    send("POST", f"{A}/watch", {"url": "javascript:alert(1)"}, expect=400)
    send("POST", f"{A}/watch", raw="[1, 2", expect=400)
    send("POST", f"{A}/watch", raw="[]", expect=400)
    get(f"{A}/watch")

    # ---- e. watch updates
    send("PUT", f"{A}/watch/{docs}", {"title": "Documentation"}, expect=200)
    get(f"{A}/watch/{docs}")
    get(f"{A}/watch")
    send("PUT", f"{A}/watch/{blog}", {"title": "Blog feed", "url": f"{SITE}/blog/rss.xml"}, expect=200)
    get(f"{A}/watch/{blog}")
    get(f"{A}/watch")
    send("PUT", f"{A}/watch/{pricing}", {"paused": False, "tags": [qa, eu]}, expect=200)
    get(f"{A}/watch/{pricing}")
    get(f"{A}/watch", tag="eu-sites")
    send("PUT", f"{A}/watch/{W_RELEASES}", {"title": "Release notes (stable)",
                                            "notification_muted": True}, expect=200)
    get(f"{A}/watch/{W_RELEASES}")
    send("PUT", f"{A}/watch/{api}", {"time_between_check": {"hours": 12}}, expect=200)
    get(f"{A}/watch/{api}")
    send("PUT", f"{A}/watch/{filters}", {"include_filters": [], "ignore_text": ["Updated at", "Build"]},
         expect=200)
    get(f"{A}/watch/{filters}")
    get(f"{A}/watch")
    # invalid updates
    send("PUT", f"{A}/watch/{docs}", {"title": 5}, expect=400)
    send("PUT", f"{A}/watch/{docs}", {"url": "ftp//broken"}, expect=400)
    send("PUT", f"{A}/watch/{docs}", {"url": None}, expect=400)
    send("PUT", f"{A}/watch/{docs}", {"favourite": True}, expect=400)
    send("PUT", f"{A}/watch/{docs}", {"paused": "no"}, expect=400)
    send("PUT", f"{A}/watch/{docs}", raw="{\"title\": ", expect=400)
    get(f"{A}/watch/{docs}")
    send("PUT", f"{A}/watch/{MISSING}", {"title": "ghost"}, expect=404)

    # ---- f. pause and mute by GET, read after each
    assert get(f"{A}/watch/{docs}", paused="paused") == "OK"
    get(f"{A}/watch/{docs}")
    get(f"{A}/watch/{docs}", muted="muted")
    get(f"{A}/watch/{docs}")
    get(f"{A}/watch/{W_STATUS}", paused="unpaused")
    get(f"{A}/watch/{W_STATUS}")
    get(f"{A}/tag/{nightly}", muted="muted")
    get(f"{A}/tag/{nightly}")
    get(f"{A}/tags")

    # ---- g. search
    get(f"{A}/search", q="Pricing")
    get(f"{A}/search", q="blog", partial="true")
    get(f"{A}/search", q="docs", partial="1")
    get(f"{A}/search", q=f"{SITE}/careers")
    get(f"{A}/search", q="a", partial="true", tag="production")
    get(f"{A}/search", q="nothing like this", partial="true")
    get(f"{A}/search", expect=400)

    # ---- h. import (text/plain, one URL a line)
    st, imported = d.text(f"{A}/import", f"{SITE}/imports/one.html\n{SITE}/imports/two.html\n",
                          params={"tag": "imported"}, expect=200)
    for uuid in imported if isinstance(imported, list) else []:
        get(f"{A}/watch/{uuid}")
    get(f"{A}/watch")
    get(f"{A}/tags")
    d.text(f"{A}/import", f"{SITE}/imports/three.html\nnot-a-url\n", params={"tag_uuids": TAG_PROD},
           expect=400)
    st, imported2 = d.text(f"{A}/import", f"{SITE}/imports/three.html\n", params={"tag_uuids": TAG_PROD},
                           expect=200)
    for uuid in imported2 if isinstance(imported2, list) else []:
        get(f"{A}/watch/{uuid}")
    get(f"{A}/watch", tag="production")
    d.text(f"{A}/import", "", expect=400)
    get(f"{A}/watch")

    # ---- i. notifications (a global list of notification URLs; never sent: all muted)
    send("POST", f"{A}/notifications", {"notification_urls": ["json://127.0.0.1:43069/hook"]}, expect=201)
    get(f"{A}/notifications")
    send("POST", f"{A}/notifications", {"notification_urls": ["json://127.0.0.1:43069/other",
                                                              "json://127.0.0.1:43069/hook"]}, expect=201)
    get(f"{A}/notifications")
    send("PUT", f"{A}/notifications", {"notification_urls": ["json://127.0.0.1:43069/only"]}, expect=200)
    get(f"{A}/notifications")
    send("POST", f"{A}/notifications", {"notification_urls": ["no-such-scheme://x"]}, expect=400)
    send("POST", f"{A}/notifications", {}, expect=400)
    send("DELETE", f"{A}/notifications", {"notification_urls": ["json://127.0.0.1:43069/only"]}, expect=204)
    get(f"{A}/notifications")
    send("DELETE", f"{A}/notifications", {"notification_urls": ["json://127.0.0.1:43069/only"]}, expect=400)

    # ---- j. deletes: watches, then tags (a tag's delete takes it off its watches)
    send("DELETE", f"{A}/watch/{blog}", expect=204)
    get(f"{A}/watch/{blog}", expect=404)
    get(f"{A}/watch")
    send("DELETE", f"{A}/watch/{blog}", expect=400)
    send("DELETE", f"{A}/watch/{W_STATUS}", expect=204)
    get(f"{A}/watch/{W_STATUS}", expect=404)
    get(f"{A}/watch")
    get(f"{A}/systeminfo")
    send("DELETE", f"{A}/tag/{qa}", expect=204)
    get(f"{A}/tag/{qa}", expect=404)
    get(f"{A}/watch/{pricing}")
    get(f"{A}/tags")
    get(f"{A}/watch", tag="quality")
    send("DELETE", f"{A}/tag/{qa}", expect=400)
    send("DELETE", f"{A}/tag/{nightly}", expect=204)
    get(f"{A}/watch/{api}")
    get(f"{A}/tags")
    send("DELETE", f"{A}/watch/{MISSING}", expect=400)
    send("DELETE", f"{A}/tag/{MISSING}", expect=400)

    # ---- k. a second round: create after deletes, update, delete
    status2 = send("POST", f"{A}/watch", {"url": f"{SITE}/status/v2", "title": "Status page v2",
                                          "tags": [TAG_STAGING]}, expect=201)["uuid"]
    get(f"{A}/watch/{status2}")
    get(f"{A}/watch", tag="staging")
    send("PUT", f"{A}/watch/{status2}", {"title": "Status v2", "tags": [TAG_STAGING, eu]}, expect=200)
    get(f"{A}/watch/{status2}")
    get(f"{A}/watch")
    ops = send("POST", f"{A}/tag", {"title": "ops"}, expect=201)["uuid"]
    get(f"{A}/tag/{ops}")
    send("PUT", f"{A}/tag/{ops}", {"title": "operations", "tag_colour": "#0a0"}, expect=200)
    get(f"{A}/tag/{ops}")
    get(f"{A}/tags")
    send("DELETE", f"{A}/tag/{ops}", expect=204)
    get(f"{A}/tags")
    send("DELETE", f"{A}/watch/{docs}", expect=204)
    get(f"{A}/watch/{docs}", expect=404)

    # ---- l. final state
    get(f"{A}/watch")
    get(f"{A}/tags")
    for uuid in (W_RELEASES, pricing, api, careers, filters, status2):
        get(f"{A}/watch/{uuid}")
    for uuid in (TAG_PROD, TAG_STAGING, eu):
        get(f"{A}/tag/{uuid}")
    get(f"{A}/systeminfo")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43061")
