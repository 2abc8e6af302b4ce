#!/usr/bin/env python3
"""Scenario driver for Plone 6.2.2 through plone.restapi (talks to the mitmproxy reverse proxy in
front of it).

Usage:
  python driver.py --base http://127.0.0.1:19001 --mode capture [-v]

Content is a tree: an item's address is its path below the site (/Plone/docs/guides/first-steps), at
any depth; a POST to a folder creates a child (`@type` names its kind, `id` or the title's slug names
it), PATCH answers 204 (200 with the item when `Prefer: return=representation`), DELETE 204. Every
answer names itself by `@id`, the absolute URL it is read at. Services are `@`-segments after an item
(`@search`, `@workflow/<transition>`, `@types`, `@copy`) or the site (`@users`, `@groups`). Every call
sends `Accept: application/json` and the site administrator sam's HTTP Basic credentials unless it says
alice's (an editor), bob's (a member) or none.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

PASSWORDS = {"sam": "sam-throwaway-1", "alice": "alice-throwaway-1", "bob": "bob-throwaway-1"}
SITE = "/Plone"


def basic(user):
    return base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose, token=basic("sam"), scheme="Basic",
                  headers={"Accept": "application/json"})


def capture(d: Driver):
    call, get, check = d.call, d.get, d.check

    def at(path):
        return SITE + path

    def as_user(user, method, path, body=None, expect=None, params=None):
        return call(method, at(path), body, expect=expect, params=params, token=basic(user))

    def anonymous(method, path, expect=None):
        return call(method, at(path), expect=expect, token=None)

    def item_ids(path):
        return [i["@id"].rsplit("/", 1)[1] for i in get(at(path))["items"]]

    def search(path="", **params):
        return get(at(path + "/@search"), **params)

    # ---- a. the seed: the site, every item, the services
    site = get(SITE)
    check("site items", [i["@id"].rsplit("/", 1)[1] for i in site["items"]], ["news", "docs", "about"])
    get(at("/news"))
    get(at("/news/launch"))
    get(at("/news/roadmap"))
    check("docs items", item_ids("/docs"), ["install", "guides", "upstream"])
    get(at("/docs/install"))
    get(at("/docs/guides"))
    get(at("/docs/guides/first-steps"))
    get(at("/docs/upstream"))
    get(at("/about"))
    search()
    search(portal_type="Document")
    search(portal_type="Folder", sort_on="sortable_title")
    search(sort_on="sortable_title", b_size=3)
    search(sort_on="sortable_title", b_size=3, b_start=3)
    search(review_state="private")
    search(SearchableText="guide")
    search(portal_type="Document", sort_on="sortable_title", sort_order="reverse")
    search("/docs")
    search("/docs", portal_type="Document")
    search(**{"path.depth": "1"})
    get(at("/@users"))
    get(at("/@users/alice"))
    get(at("/@users/bob"))
    get(at("/@groups"))
    get(at("/@groups"), query="edit")
    get(at("/@groups/editors"))
    get(at("/@users"), query="ali")
    get(at("/@types"))
    get(at("/@types/Document"))
    get(at("/docs/install/@workflow"))
    get(at("/news/roadmap/@workflow"))
    get(at("/docs/guides/first-steps/@breadcrumbs"))
    get(at("/@navigation"))
    # absences
    get(at("/nope"), expect=404)
    get(at("/docs/nope"), expect=404)
    get(at("/docs/guides/nope"), expect=404)
    get(at("/news/launch/nope"), expect=404)
    get(at("/@users/nobody"), expect=404)
    get(at("/@groups/nobody"), expect=404)
    # other callers
    as_user("alice", "GET", "/news/roadmap", expect=200)
    as_user("bob", "GET", "/news/roadmap", expect=401)
    as_user("bob", "GET", "/docs/install", expect=200)
    anonymous("GET", "/docs/install", expect=200)
    anonymous("GET", "/docs/guides", expect=401)
    anonymous("GET", "/@users", expect=401)

    # ---- b. creates
    status, faq = call("POST", at("/docs"), {"@type": "Document", "id": "faq", "title": "FAQ",
                                             "description": "Questions people ask."}, expect=201)
    get(at("/docs/faq"))
    check("docs after faq", item_ids("/docs"), ["install", "guides", "upstream", "faq"])
    search(portal_type="Document", sort_on="sortable_title")
    call("POST", at("/docs/guides"), {"@type": "Folder", "id": "tutorials", "title": "Tutorials",
                                      "description": "Step by step."}, expect=201)
    call("POST", at("/docs/guides/tutorials"), {"@type": "Document", "id": "setup", "title": "Setting up",
                                                "description": "Before you start.",
                                                "text": {"data": "<p>Install first.</p>",
                                                         "content-type": "text/html", "encoding": "utf-8"}},
         expect=201)
    get(at("/docs/guides/tutorials/setup"))
    get(at("/docs/guides/tutorials"))
    get(at("/docs/guides"))
    # no id: named after the title
    status, news = call("POST", at("/news"), {"@type": "News Item", "title": "Second release",
                                              "description": "Version two is out."}, expect=201)
    check("news item id", news.get("id") if isinstance(news, dict) else None, "second-release")
    get(at("/news/second-release"))
    get(at("/news"))
    call("POST", at("/docs"), {"@type": "Link", "id": "forum", "title": "Forum",
                               "remoteUrl": "https://community.example.com"}, expect=201)
    get(at("/docs/forum"))
    call("POST", at("/about"), {"@type": "Document", "title": "Inside a page"}, expect=404)
    call("POST", at("/docs"), {"@type": "Document", "id": "faq", "title": "Another FAQ"}, expect=400)
    call("POST", at("/docs"), {"@type": "Gadget", "title": "Nothing"}, expect=403)
    call("POST", at("/docs"), {"title": "No type"}, expect=400)
    call("POST", at("/nope"), {"@type": "Document", "title": "Lost"}, expect=404)
    as_user("bob", "POST", "/docs", {"@type": "Document", "title": "Bob's page"}, expect=401)
    as_user("alice", "POST", "/docs", {"@type": "Document", "id": "glossary", "title": "Glossary",
                                        "description": "Words we use."}, expect=201)
    get(at("/docs/glossary"))
    search(portal_type="Document", sort_on="sortable_title", b_size=3)

    # ---- c. updates
    call("PATCH", at("/docs/faq"), {"title": "Frequent questions"}, expect=204)
    get(at("/docs/faq"))
    get(at("/docs"))
    call("PATCH", at("/docs/faq"), {"description": "What people ask us.", "subjects": ["help", "faq"]},
         expect=204)
    get(at("/docs/faq"))
    search(Subject="help")
    call("PATCH", at("/docs/guides/tutorials/setup"), {"title": "Getting set up"},
         headers={"Prefer": "return=representation"}, expect=200)
    get(at("/docs/guides/tutorials/setup"))
    call("PATCH", at("/docs/install"), {"text": {"data": "<p>Run the installer, then log in.</p>",
                                                "content-type": "text/html", "encoding": "utf-8"}},
         expect=204)
    get(at("/docs/install"))
    call("PATCH", at("/docs/guides"), {"title": "Guides and tutorials"}, expect=204)
    get(at("/docs/guides"))
    get(at("/docs/guides/first-steps"))
    get(at("/docs"))
    call("PATCH", at("/docs/upstream"), {"remoteUrl": "https://plone.org/download"}, expect=204)
    get(at("/docs/upstream"))
    call("PATCH", at("/news/launch"), {"effective": "not a date"}, expect=400)
    call("PATCH", at("/docs/nope"), {"title": "Nothing"}, expect=404)
    as_user("bob", "PATCH", "/docs/install", {"title": "Mine"}, expect=401)
    as_user("alice", "PATCH", "/docs/install", {"description": "Getting it running, step by step."},
            expect=204)
    get(at("/docs/install"))
    # ordering: move a child to the top of its folder
    call("PATCH", at("/docs"), {"ordering": {"obj_id": "faq", "delta": "top"}}, expect=204)
    check("docs after ordering", item_ids("/docs"), ["faq", "install", "guides", "upstream", "forum", "glossary"])

    # ---- d. workflow
    call("POST", at("/docs/faq/@workflow/publish"), {}, expect=200)
    get(at("/docs/faq"))
    anonymous("GET", "/docs/faq", expect=200)
    search(review_state="published", sort_on="sortable_title")
    call("POST", at("/docs/faq/@workflow/submit"), {}, expect=400)
    call("POST", at("/docs/faq/@workflow/vanish"), {}, expect=400)
    call("POST", at("/news/launch/@workflow/retract"), {}, expect=200)
    get(at("/news/launch"))
    anonymous("GET", "/news/launch", expect=401)
    call("POST", at("/news/roadmap/@workflow/submit"), {"comment": "Please review."}, expect=200)
    get(at("/news/roadmap/@workflow"))
    call("POST", at("/docs/nope/@workflow/publish"), {}, expect=404)

    # ---- e. copy and move
    call("POST", at("/news/@copy"), {"source": site["@id"] + "/about"}, expect=200)
    get(at("/news/about"))
    get(at("/about"))
    call("POST", at("/docs/@move"), {"source": site["@id"] + "/news/second-release"}, expect=200)
    get(at("/docs/second-release"))
    get(at("/news/second-release"), expect=302)  # the old path redirects
    get(at("/news"))
    get(at("/docs"))
    search("/news")

    # ---- f. deletes
    call("DELETE", at("/docs/faq"), expect=204)
    get(at("/docs/faq"), expect=404)
    get(at("/docs"))
    call("DELETE", at("/docs/faq"), expect=404)
    call("DELETE", at("/docs/guides/tutorials"), expect=204)
    get(at("/docs/guides/tutorials"), expect=404)
    get(at("/docs/guides/tutorials/setup"), expect=404)
    get(at("/docs/guides"))
    get(at("/docs/guides/first-steps"))
    as_user("alice", "DELETE", "/docs/glossary", expect=204)
    get(at("/docs/glossary"), expect=404)
    as_user("bob", "DELETE", "/docs/install", expect=401)
    search(portal_type="Document", sort_on="sortable_title")

    # ---- g. members
    call("POST", at("/@users"), {"username": "carol", "email": "carol@example.com",
                                 "password": "carol-throwaway-1", "fullname": "Carol Writer"}, expect=201)
    get(at("/@users/carol"))
    get(at("/@users"))
    get(at("/@users"), query="car")
    call("POST", at("/@users"), {"username": "carol", "email": "carol2@example.com",
                                 "password": "carol-throwaway-2"}, expect=400)
    call("POST", at("/@users"), {"username": "dave", "password": "dave-throwaway-1"}, expect=400)
    call("PATCH", at("/@users/carol"), {"fullname": "Carol Chief Writer", "location": "Lisbon"}, expect=204)
    get(at("/@users/carol"))
    call("PATCH", at("/@users/nobody"), {"fullname": "Nobody"}, expect=500)
    as_user("bob", "PATCH", "/@users/alice", {"fullname": "Not Alice"}, expect=403)
    as_user("bob", "GET", "/@users/bob", expect=200)

    # ---- h. groups
    call("POST", at("/@groups"), {"groupname": "reviewers", "title": "Reviewers",
                                  "description": "They review.", "users": ["bob"]}, expect=201)
    get(at("/@groups/reviewers"))
    get(at("/@users/bob"))
    get(at("/@groups"))
    call("POST", at("/@groups"), {"groupname": "reviewers", "title": "Again"}, expect=400)
    call("PATCH", at("/@groups/reviewers"), {"title": "Content reviewers"}, expect=204)
    get(at("/@groups/reviewers"))
    call("PATCH", at("/@groups/reviewers"), {"users": {"carol": True, "bob": False}}, expect=204)
    get(at("/@groups/reviewers"))
    get(at("/@users/carol"))
    get(at("/@users/bob"))
    call("DELETE", at("/@groups/reviewers"), expect=204)
    get(at("/@groups/reviewers"), expect=404)
    get(at("/@users/carol"))
    call("DELETE", at("/@groups/reviewers"), expect=404)
    call("DELETE", at("/@users/carol"), expect=204)
    get(at("/@users/carol"), expect=404)
    get(at("/@users"))
    call("DELETE", at("/@users/carol"), expect=404)

    # ---- i. the seed read back
    get(SITE)
    get(at("/news"))
    get(at("/docs"))
    search(sort_on="sortable_title")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:19001")
