#!/usr/bin/env python3
"""Scenario driver for MediaWiki 1.39's REST API (`/rest.php/v1`) on SQLite, with the action API
(`/api.php`) for what the REST API of 1.39 has no endpoint for (listing pages, deleting) (talks to
the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43221 --mode capture [-v]

Every call carries the throwaway `Authorization: Bearer` token start.sh's settings accept for the
wiki's Admin (BearerSessionProvider.php: no cookie, safe against CSRF, so REST writes need no
`token` member); three calls go without it, to record what an anonymous client gets. Pages are
addressed by title in the path, spaces written as underscores or percent-encoded (`Style_guide`,
`Getting%20started`), with a namespace prefix (`Help:Editing`); page ids and revision ids are
one sequence each, counting up from the seed's. Deletes are `POST /api.php` with
`action=delete`, a form body and the CSRF token of `action=query&meta=tokens`. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "access-token.txt").read_text().strip()
R = "/rest.php/v1"
P = f"{R}/page"
API = "/api.php"


class WikiDriver(Driver):
    """The kit's driver, plus form-encoded action API calls (`form=`)."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None, form=None):
        if form is not None:
            headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
            raw = urlencode(form)
        return super().call(method, path, body, raw, params, expect, token, headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return WikiDriver(base, min_sleep, max_sleep, verbose, token=TOKEN)


def create(d, title, source, comment, expect=201, **extra):
    status, body = d.call("POST", P, {"source": source, "title": title, "comment": comment, **extra},
                          expect=expect)
    return body


def update(d, key, source, comment, latest, expect=200):
    status, body = d.call("PUT", f"{P}/{key}", {"source": source, "comment": comment,
                                                  "latest": {"id": latest}}, expect=expect)
    return body


def allpages(d, **params):
    return d.get(API, action="query", list="allpages", format="json", formatversion="2", **params)


def csrf_token(d):
    return d.get(API, action="query", meta="tokens", format="json", formatversion="2")["query"]["tokens"]["csrftoken"]


def delete(d, title, token, reason):
    return d.call("POST", API, form={"action": "delete", "title": title, "reason": reason,
                                     "format": "json", "formatversion": "2", "token": token},
                  expect=200)[1]


def capture(d: WikiDriver):
    # --- the seed: pages in several namespaces, a redirect, a page with two revisions
    d.get(f"{P}/Main_Page/bare")
    d.get(f"{P}/Getting_started")
    d.get(f"{P}/Getting%20started/bare")
    d.get(f"{P}/Getting_started/with_html")
    d.get(f"{P}/Getting_started/history")
    d.get(f"{P}/Getting_started/links/language")
    d.get(f"{P}/Getting_started/links/media")
    d.get(f"{P}/Style_guide")
    d.get(f"{P}/Style_guide/history")
    d.get(f"{P}/Style_guide/history/counts/edits")
    d.get(f"{P}/Style_guide/links/language")
    d.get(f"{R}/revision/3")
    d.get(f"{R}/revision/4/bare")
    d.get(f"{P}/Start_here")
    d.get(f"{P}/Help:Editing/bare")
    d.get(f"{P}/Help:Editing")
    d.get(f"{P}/Talk:Getting_started/bare")
    d.get(f"{P}/CapenvWiki:About")
    d.get(f"{P}/Template:Note")
    d.get(f"{P}/Category:Guides/bare")
    d.get(f"{P}/Release_notes_2026")
    d.get(f"{P}/Release_notes_2026/history")
    allpages(d)
    allpages(d, apnamespace="12")
    allpages(d, aplimit="3")
    allpages(d, aplimit="3", apcontinue="Release_notes_2026")
    d.get(f"{R}/search/page", q="guide", limit="5")
    d.get(f"{R}/search/title", q="Sty", limit="5")
    # errors on the seed
    d.call("GET", f"{P}/No_such_page/bare", expect=404)
    d.call("GET", f"{P}/No_such_page/history", expect=404)
    d.call("GET", f"{R}/revision/999", expect=404)
    d.call("GET", f"{R}/search/page", params={"q": ""}, expect=400)
    d.call("GET", f"{P}/Style_guide/history/counts/bogus", expect=400)

    # --- creates: several pages in several namespaces, each read back
    mn = create(d, "Meeting notes", "== 2026-12-02 ==\n* Agreed on the [[Style guide]].\n\n[[Category:Meetings]]",
                "Notes of the first meeting")
    d.get(f"{P}/Meeting_notes")
    d.get(f"{P}/Meeting_notes/bare")
    d.get(f"{P}/Meeting_notes/history")
    d.get(f"{R}/revision/{mn['latest']['id']}")
    oc = create(d, "Onboarding checklist", "# Read [[Getting started]]\n# Make a first edit\n",
                "Checklist for new editors")
    d.get(f"{P}/Onboarding_checklist")
    d.get(f"{P}/Onboarding%20checklist/bare")
    hs = create(d, "Help:Search tips", "Use quotes for an exact phrase.\n\n[[Category:Help]]", "Search help")
    d.get(f"{P}/Help:Search_tips")
    d.get(f"{P}/Help:Search_tips/history")
    allpages(d, apnamespace="12")
    pr = create(d, "Project_roadmap", "== 2027 ==\n* Translations\n* A [[Meeting notes|meeting]] each month",
                "Roadmap")
    d.get(f"{P}/Project_roadmap")
    d.get(f"{P}/Project%20roadmap/bare")
    tsg = create(d, "Talk:Style guide", "== Headings ==\nShould headings end with a colon?", "Ask about headings")
    d.get(f"{P}/Talk:Style_guide")
    tw = create(d, "Template:Warning", "<div class=\"warning\">'''Warning:''' {{{1}}}</div>", "A warning box")
    d.get(f"{P}/Template:Warning/bare")
    pol = create(d, "CapenvWiki:Policies", "Be kind. Cite sources.", "Policies")
    d.get(f"{P}/CapenvWiki:Policies")
    js = create(d, "Settings.json", '{"theme": "light", "pageSize": 20}', "Site settings",
                content_model="json")
    d.get(f"{P}/Settings.json")
    d.get(f"{P}/Settings.json/bare")
    # the list and the search see them
    allpages(d)
    allpages(d, aplimit="4")
    allpages(d, aplimit="4", apcontinue="Onboarding_checklist")
    allpages(d, apprefix="Project")
    allpages(d, apnamespace="1")
    d.get(f"{R}/search/title", q="Meet", limit="5")
    d.get(f"{R}/search/page", q="checklist", limit="5")
    # create errors
    d.call("POST", P, {"source": "again", "title": "Meeting notes", "comment": "dup"}, expect=409)
    d.call("POST", P, {"source": "again", "title": "Style guide", "comment": "dup"}, expect=409)
    d.call("POST", P, {"title": "No source here", "comment": "c"}, expect=400)
    d.call("POST", P, {"source": "x", "title": "No comment here"}, expect=400)
    d.call("POST", P, {"source": "x", "title": "Bad|title", "comment": "c"}, expect=400)
    d.call("POST", P, {"source": "x", "title": "Bad model", "comment": "c", "content_model": "nope"}, expect=400)
    d.call("POST", P, raw="not json", expect=400)
    d.call("POST", P, {"source": "anonymous", "title": "Anonymous page", "comment": "c"}, token=None, expect=400)
    d.call("GET", f"{P}/No_comment_here/bare", expect=404)
    d.call("GET", f"{P}/Anonymous_page", expect=404)

    # --- updates: PUT with the base revision in latest.id, each read back
    mn2 = update(d, "Meeting_notes", "== 2026-12-02 ==\n* Agreed on the [[Style guide]].\n* Next meeting on 2026-12-09.\n\n[[Category:Meetings]]",
                 "Next meeting", mn["latest"]["id"])
    d.get(f"{P}/Meeting_notes")
    d.get(f"{P}/Meeting_notes/history")
    d.get(f"{P}/Meeting_notes/history/counts/edits")
    d.get(f"{R}/revision/{mn2['latest']['id']}/bare")
    d.get(f"{R}/revision/{mn['latest']['id']}")
    mn3 = update(d, "Meeting_notes", "== 2026-12-09 ==\n* Reviewed the [[Project roadmap]].\n\n== 2026-12-02 ==\n* Agreed on the [[Style guide]].\n\n[[Category:Meetings]]",
                 "Second meeting", mn2["latest"]["id"])
    d.get(f"{P}/Meeting_notes")
    d.get(f"{P}/Meeting_notes/history")
    d.get(f"{P}/Meeting_notes/history/counts/edits")
    # an edit conflict: a change based on the first revision after two others
    d.call("PUT", f"{P}/Meeting_notes", {"source": "Only this.", "comment": "stale",
                                          "latest": {"id": mn["latest"]["id"]}}, expect=409)
    d.get(f"{P}/Meeting_notes/bare")
    # an update without the base revision is refused, as is a base revision on a missing page
    d.call("PUT", f"{P}/Onboarding_checklist", {"source": "x", "comment": "no base"}, expect=409)
    d.call("PUT", f"{P}/No_such_page", {"source": "x", "comment": "c", "latest": {"id": 2}}, expect=404)
    d.call("PUT", f"{P}/Onboarding_checklist", {"comment": "no source", "latest": {"id": oc["latest"]["id"]}}, expect=400)
    oc2 = update(d, "Onboarding_checklist", "# Read [[Getting started]]\n# Read the [[Style guide]]\n# Make a first edit\n",
                 "Add the style guide", oc["latest"]["id"])
    d.get(f"{P}/Onboarding_checklist")
    d.get(f"{P}/Onboarding_checklist/history")
    oc3 = update(d, "Onboarding%20checklist", "# Read [[Getting started]]\n# Read the [[Style guide]]\n# Make a first edit\n# Sign your talk posts\n",
                 "Sign posts", oc2["latest"]["id"])
    d.get(f"{P}/Onboarding%20checklist/bare")
    d.get(f"{P}/Onboarding_checklist")
    # a null edit: the same source leaves the revision as it is
    update(d, "Onboarding_checklist", "# Read [[Getting started]]\n# Read the [[Style guide]]\n# Make a first edit\n# Sign your talk posts\n",
           "No change", oc3["latest"]["id"])
    d.get(f"{P}/Onboarding_checklist/history")
    # updates of seed pages and namespaced pages
    sg = d.get(f"{P}/Style_guide/bare")
    update(d, "Style_guide", "Write short sentences. Use sentence case for headings.\n\n== Links ==\nLink a term once.\n\n[[Category:Guides]]\n[[de:Stilrichtlinie]]",
           "Links section", sg["latest"]["id"])
    d.get(f"{P}/Style_guide")
    d.get(f"{P}/Style_guide/history")
    d.get(f"{P}/Style_guide/history/counts/edits")
    d.get(f"{P}/Style_guide/links/language")
    hs2 = update(d, "Help:Search_tips", "Use quotes for an exact phrase. Prefix a namespace: ''Help:''.\n\n[[Category:Help]]",
                 "Namespaces", hs["latest"]["id"])
    d.get(f"{P}/Help:Search_tips")
    d.get(f"{R}/search/page", q="namespace", limit="5")
    update(d, "Template:Warning", "<div class=\"warning\" role=\"alert\">'''Warning:''' {{{1}}}</div>",
           "Role", tw["latest"]["id"])
    d.get(f"{P}/Template:Warning")
    js2 = update(d, "Settings.json", '{"theme": "dark", "pageSize": 50}', "Dark theme", js["latest"]["id"])
    d.get(f"{P}/Settings.json")
    d.call("PUT", f"{P}/Settings.json", {"source": "{not json", "comment": "broken",
                                           "latest": {"id": js2["latest"]["id"]}}, expect=400)
    d.get(f"{P}/Settings.json/bare")
    # create by PUT at a title that does not exist yet (no latest)
    gl = d.call("PUT", f"{P}/Glossary", {"source": "; Wiki\n: A site anyone can edit.", "comment": "Glossary"},
                expect=201)[1]
    d.get(f"{P}/Glossary")
    d.get(f"{P}/Glossary/history")
    d.call("PUT", f"{P}/Help:Shortcuts", {"source": "Press Alt+Shift+E to edit.", "comment": "Shortcuts"},
           expect=201)
    d.get(f"{P}/Help:Shortcuts/bare")
    allpages(d, apnamespace="12")
    update(d, "Glossary", "; Wiki\n: A site anyone can edit.\n; Redirect\n: A page that sends readers to another.",
           "Redirect term", gl["latest"]["id"])
    d.get(f"{P}/Glossary")
    # anonymous edits need a token
    d.call("PUT", f"{P}/Glossary", {"source": "vandal", "comment": "x", "latest": {"id": gl["latest"]["id"]}},
           token=None, expect=400)
    d.get(f"{P}/Glossary/bare")

    # --- redirects: made by a create and by an update
    create(d, "Meetings", "#REDIRECT [[Meeting notes]]", "Redirect to the notes")
    d.get(f"{P}/Meetings")
    d.get(f"{P}/Meetings/bare")
    create(d, "Roadmap", "#REDIRECT [[Project roadmap]]", "Redirect to the roadmap")
    d.get(f"{P}/Roadmap/bare")
    tsg_bare = d.get(f"{P}/Talk:Style_guide/bare")
    update(d, "Talk:Style_guide", "== Headings ==\nShould headings end with a colon?\n\n:No, they should not. ~~~~",
           "Answer", tsg_bare["latest"]["id"])
    d.get(f"{P}/Talk:Style_guide")
    d.get(f"{P}/Talk:Style_guide/history")

    # --- deletes through the action API, read back
    token = csrf_token(d)
    allpages(d)
    d.get(f"{P}/Project_roadmap/bare")
    delete(d, "Project roadmap", token, "Merged into the meeting notes")
    d.call("GET", f"{P}/Project_roadmap/bare", expect=404)
    d.call("GET", f"{P}/Project_roadmap/history", expect=404)
    d.call("GET", f"{R}/revision/{pr['latest']['id']}", expect=404)
    allpages(d)
    allpages(d, apprefix="Project")
    d.get(f"{R}/search/title", q="Proj", limit="5")
    d.get(f"{P}/Roadmap/bare")  # the redirect to it stays
    d.get(f"{P}/Help:Shortcuts/bare")
    delete(d, "Help:Shortcuts", token, "Duplicate of Help:Editing")
    d.call("GET", f"{P}/Help:Shortcuts", expect=404)
    allpages(d, apnamespace="12")
    d.get(f"{P}/Settings.json/bare")
    delete(d, "Settings.json", token, "Unused")
    d.call("GET", f"{P}/Settings.json", expect=404)
    d.get(f"{P}/Talk:Getting_started/bare")
    delete(d, "Talk:Getting started", token, "Answered")
    d.call("GET", f"{P}/Talk:Getting_started/bare", expect=404)
    d.get(f"{P}/Getting_started/bare")  # the subject page stays
    allpages(d, apnamespace="1")
    # delete errors: a missing page, a page already deleted, a bad token, no token, anonymous
    delete(d, "No such page", token, "x")
    delete(d, "Project roadmap", token, "again")
    delete(d, "Glossary", "0123456789abcdef+\\", "bad token")
    d.call("POST", API, form={"action": "delete", "title": "Glossary", "format": "json", "formatversion": "2"},
           expect=200)
    d.get(f"{P}/Glossary/bare")
    # a deleted title made again: a new page id, a history of one revision
    pr2 = create(d, "Project roadmap", "== 2027 ==\n* Translations\n* Offline reading", "Roadmap, again")
    d.get(f"{P}/Project_roadmap")
    d.get(f"{P}/Project_roadmap/history")
    d.get(f"{P}/Roadmap/bare")
    allpages(d, apprefix="Project")
    d.call("PUT", f"{P}/Project_roadmap", {"source": "stale", "comment": "old base",
                                             "latest": {"id": pr["latest"]["id"]}}, expect=409)
    update(d, "Project_roadmap", "== 2027 ==\n* Translations\n* Offline reading\n* A mobile skin", "Mobile",
           pr2["latest"]["id"])
    d.get(f"{P}/Project_roadmap/bare")
    # a second round of deletes after updates
    d.get(f"{P}/Meeting_notes/bare")
    delete(d, "Meeting notes", token, "Moved to the mailing list")
    d.call("GET", f"{P}/Meeting_notes", expect=404)
    d.call("GET", f"{P}/Meeting_notes/history/counts/edits", expect=404)
    d.get(f"{P}/Meetings/bare")
    d.get(f"{R}/search/page", q="meeting", limit="5")
    allpages(d)
    allpages(d, aplimit="5")
    allpages(d, aplimit="5", apcontinue="Main_Page")
    # final reads
    d.get(f"{P}/CapenvWiki:Policies/bare")
    d.get(f"{P}/Onboarding_checklist/history/counts/edits")
    d.get(f"{P}/Glossary/history")
    d.get(f"{P}/Template:Warning/history")
    d.call("GET", f"{P}/Anonymous_page/bare", expect=404)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43221")
