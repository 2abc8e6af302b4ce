#!/usr/bin/env python3
"""Scenario driver for Shaarli 0.12.1's REST API v1 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18411 --mode capture [-v]

Every call sends `Authorization: Bearer <JWT>` minted for that call (api_token.py: HS512 over the
instance's throwaway api.secret, claim `iat` = now), as Shaarli's API documentation asks a client to
do, unless it says otherwise; writes send JSON. Answers are bare JSON: a link
`{id, url, shorturl, title, description, tags, private, created, updated}`, lists are bare arrays
(newest first), a tag `{name, occurrences}`, errors a bare JSON string ("Link not found"). The seed
(seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential, with a
random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "kit"))
sys.path.insert(0, str(HERE))
from api_token import mint  # noqa: E402
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

SECRET = "capenv-shaarli-throwaway-api-secret-0001"  # start.sh's api.secret
API = "/api/v1"


class MintingDriver(Driver):
    """A fresh token for every call (a token given to ``call`` explicitly is sent as it is)."""

    def call(self, *args, **kwargs):
        self.token = mint(SECRET)
        return super().call(*args, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return MintingDriver(base, min_sleep, max_sleep, verbose, token=None)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200, raw=None):
        return call(method, API + path, body=body, raw=raw, expect=expect)[1]

    def ids(answer):
        return [link.get("id") for link in answer] if isinstance(answer, list) else answer

    def tags_of(answer):
        return answer.get("tags") if isinstance(answer, dict) else answer

    # ---- a. reads before any write: info, links paged, searched, filtered; every link; tags; history
    get("/info")
    check("links", ids(get("/links")), [7, 6, 5, 4, 3, 2, 1, 0])
    check("first page", ids(get("/links", limit="3")), [7, 6, 5])
    check("second page", ids(get("/links", offset="3", limit="3")), [4, 3, 2])
    get("/links", offset="6", limit="3")
    get("/links", limit="all")
    get("/links", offset="20")
    check("python", ids(get("/links", searchterm="python")), [1, 0])
    get("/links", searchterm="docs")
    check("tag docs", ids(get("/links", searchtags="docs")), [3, 2, 1])
    get("/links", searchtags="python docs")
    get("/links", searchtags="-docs")
    check("private", ids(get("/links", visibility="private")), [5, 4])
    get("/links", visibility="public")
    get("/links", searchtags="reading", visibility="public")
    for link_id in range(8):
        get(f"/links/{link_id}")
    get("/tags")
    get("/tags", limit="3")
    get("/tags", offset="2", limit="2")
    get("/tags", visibility="private")
    for tag in ("python", "docs", "reading", "linux", "work"):
        get(f"/tags/{tag}")
    get("/history")
    get("/history", limit="3")
    # errors: absences, bad paging, credentials
    get("/links/99", expect=404)
    get("/links/12345", expect=404)
    get("/tags/nosuchtag", expect=404)
    get("/links", expect=400, offset="abc")
    get("/links", expect=400, limit="-1")
    get("/tags", expect=400, limit="many")
    call("GET", API + "/links", token=None, expect=401)
    call("GET", API + "/links/0", token="not.a.token", expect=401)
    call("GET", API + "/info", token=mint(SECRET, issued_at=1700000000), expect=401)
    call("GET", API + "/links", token=mint("another-secret"), expect=401)

    # ---- b. creates, each read back (item, list, tags)
    made = send("POST", "/links", {
        "url": "https://www.postgresql.org/docs/", "title": "PostgreSQL docs",
        "description": "The PostgreSQL manual.", "tags": ["databases", "docs"], "private": False}, expect=201)
    pg = made.get("id", 8) if isinstance(made, dict) else 8
    get(f"/links/{pg}")
    check("newest first", ids(get("/links", limit="3"))[:1], [pg])
    get("/tags/databases")
    get("/links", searchtags="databases")
    # only a url: the title is the url, no description, no tags, public by default
    made = send("POST", "/links", {"url": "https://go.dev/"}, expect=201)
    go = made.get("id", 9) if isinstance(made, dict) else 9
    get(f"/links/{go}")
    # a note: no url, so the url is the link's own /shaare/ address
    made = send("POST", "/links", {"title": "Meeting notes", "description": "Agenda: API review.",
                                   "tags": ["work", "notes"], "private": True}, expect=201)
    note = made.get("id", 10) if isinstance(made, dict) else 10
    get(f"/links/{note}")
    get("/links", visibility="private")
    get("/tags", visibility="private")
    # tracking parameters are cleaned from the url; a leading '-' is dropped from a tag
    made = send("POST", "/links", {"url": "https://example.com/article?utm_source=feed&page=2",
                                   "title": "An article", "tags": ["-reading", "later"]}, expect=201)
    article = made.get("id", 11) if isinstance(made, dict) else 11
    get(f"/links/{article}")
    # a created date sent is kept
    made = send("POST", "/links", {"url": "https://www.rust-lang.org/", "title": "Rust",
                                   "tags": ["programming", "rust"], "created": "2026-10-01T12:00:00+00:00"},
                expect=201)
    rust = made.get("id", 12) if isinstance(made, dict) else 12
    get(f"/links/{rust}")
    get("/links", searchtags="programming")
    # private sent as a word
    made = send("POST", "/links", {"url": "https://intranet.capenv.test/payroll", "title": "Payroll",
                                   "tags": ["work"], "private": "true"}, expect=201)
    payroll = made.get("id", 13) if isinstance(made, dict) else 13
    get(f"/links/{payroll}")
    get("/tags/work")
    # the same url again: 409 with the link that has it, nothing made
    send("POST", "/links", {"url": "https://www.postgresql.org/docs/", "title": "again"}, expect=409)
    send("POST", "/links", {"url": "https://www.python.org/", "title": "Python again"}, expect=409)
    get("/links", limit="3")
    get("/info")
    get("/tags")

    # ---- c. PUT replaces: every member not sent goes back to its default
    send("PUT", f"/links/{pg}", {"url": "https://www.postgresql.org/docs/current/",
                                  "title": "PostgreSQL manual (current)", "description": "Current release.",
                                  "tags": ["databases", "docs", "postgres"], "private": False})
    get(f"/links/{pg}")
    get("/tags/postgres")
    # only a title: the url becomes the note address, description and tags empty, public
    send("PUT", f"/links/{go}", {"title": "Go"})
    get(f"/links/{go}")
    get("/links", searchterm="go.dev")
    # everything sent again, private now
    send("PUT", f"/links/{go}", {"url": "https://go.dev/doc/", "title": "Go documentation",
                                  "description": "Effective Go and more.", "tags": ["go", "docs"],
                                  "private": True})
    get(f"/links/{go}")
    get("/links", visibility="private")
    # a seeded link changed: its created date stays, updated is set
    send("PUT", "/links/7", {"url": "https://www.debian.org/", "title": "Debian GNU/Linux",
                             "description": "The universal operating system.", "tags": ["linux", "debian"],
                             "private": False})
    get("/links/7")
    get("/tags/debian")
    send("PUT", "/links/4", {"url": "https://intranet.capenv.test/hr", "title": "HR portal",
                             "description": "Leave requests and payslips.", "tags": ["work", "hr"],
                             "private": True})
    get("/links/4")
    send("PUT", "/links/1", {"url": "https://docs.python.org/3/", "title": "Python 3 docs",
                             "description": "Library reference and tutorial.", "tags": ["python", "docs"],
                             "private": False})
    get("/links/1")
    # the note gets a url
    send("PUT", f"/links/{note}", {"url": "https://wiki.capenv.test/meetings/api-review", "title": "Meeting notes",
                                    "description": "Agenda: API review.", "tags": ["work", "notes"],
                                    "private": True})
    get(f"/links/{note}")
    # the url of another link: 409 with that link, nothing changed
    send("PUT", f"/links/{rust}", {"url": "https://www.debian.org/", "title": "Rust"}, expect=409)
    get(f"/links/{rust}")
    # the same url as its own: fine
    send("PUT", f"/links/{rust}", {"url": "https://www.rust-lang.org/", "title": "Rust language",
                                    "tags": ["programming", "rust"]})
    get(f"/links/{rust}")
    send("PUT", "/links/99", {"url": "https://nowhere.capenv.test/", "title": "x"}, expect=404)
    get("/links")
    get("/history", limit="5")

    # ---- d. deletes
    send("DELETE", f"/links/{article}", expect=204)
    get(f"/links/{article}", expect=404)
    send("DELETE", f"/links/{article}", expect=404)
    get("/tags/later", expect=404)
    send("DELETE", "/links/6", expect=204)
    get("/links/6", expect=404)
    get("/links", searchtags="reading")
    get("/tags/wiki", expect=404)
    send("DELETE", "/links/99", expect=404)
    get("/links")
    get("/info")

    # ---- e. tags: a rename across links, a delete taking the tag off every link
    send("PUT", "/tags/docs", {"name": "documentation"})
    get("/tags/docs", expect=404)
    get("/tags/documentation")
    get("/links", searchtags="documentation")
    for link_id in (1, 2, 3, pg, go):
        get(f"/links/{link_id}")
    send("PUT", "/tags/python", {"name": "py"})
    get("/links/0")
    get("/links/1")
    get("/tags")
    send("DELETE", "/tags/linux", expect=204)
    get("/links/7")
    get("/tags/linux", expect=404)
    send("DELETE", "/tags/work", expect=204)
    get("/links/4")
    get(f"/links/{payroll}")
    get(f"/links/{note}")
    get("/tags", visibility="private")
    # tag errors
    send("PUT", "/tags/nosuchtag", {"name": "anything"}, expect=404)
    send("PUT", "/tags/rust", {}, expect=400)
    send("PUT", "/tags/rust", {"name": ""}, expect=400)
    get("/tags/rust")
    send("DELETE", "/tags/nosuchtag", expect=404)
    # writes without credentials
    call("POST", API + "/links", body={"url": "https://anonymous.capenv.test/"}, token=None, expect=401)
    call("PUT", API + "/links/0", body={"title": "x"}, token=None, expect=401)
    call("DELETE", API + "/links/0", token=None, expect=401)
    call("DELETE", API + "/tags/rust", token=None, expect=401)
    get("/links/0")

    # ---- f. one more round: a link made, retagged, renamed through its tag, deleted
    made = send("POST", "/links", {"url": "https://kernel.org/", "title": "The Linux Kernel Archives",
                                   "tags": ["kernel"], "private": False}, expect=201)
    kernel = made.get("id", 14) if isinstance(made, dict) else 14
    get(f"/links/{kernel}")
    send("PUT", "/tags/kernel", {"name": "linux"})
    get(f"/links/{kernel}")
    get("/tags/linux")
    send("PUT", f"/links/{kernel}", {"url": "https://www.kernel.org/", "title": "kernel.org",
                                      "description": "Linux sources.", "tags": ["linux", "sources"]})
    get(f"/links/{kernel}")
    send("DELETE", f"/links/{kernel}", expect=204)
    get(f"/links/{kernel}", expect=404)
    get("/tags/sources", expect=404)
    # a link made after the newest was deleted
    made = send("POST", "/links", {"url": "https://www.gnu.org/", "title": "GNU", "tags": ["gnu"]}, expect=201)
    gnu = made.get("id", 15) if isinstance(made, dict) else 15
    get(f"/links/{gnu}")
    get("/links", limit="all")
    get("/links", searchterm="manual")
    get("/links", offset="2", limit="4")
    get("/tags")
    get("/info")
    get("/history")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18411")
