#!/usr/bin/env python3
"""Scenario driver for Strapi 5.54.0 (talks to the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:42031 --mode capture   # ~200 calls

No authentication: the project's bootstrap gives the users-permissions "public" role
find/findOne/create/update/delete on articles, authors, categories and the `global` single type.
The seed (written by the bootstrap, not recorded) holds authors 1-3, categories 1-3, articles 1-5
and the `global` document, with the fixed documentIds below. Documents created here get random
documentIds (Strapi generates them); the driver reads them from the create answers.
Every call is sequential, with a random 50-150 ms sleep before it. Query strings are built by
httpx from (name, value) pairs, so brackets and `$` are percent-encoded as a browser's qs would.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADA, GRACE, ALAN = "l44s0o2a0qpoastvjtboqbjb", "o3sotxq0fw517lscsfa7xp5j", "jtu33ek4a25a4h3f5bjozxc8"
ENG, HIST, ANN = "bzu46eougf8hpazchdzjqpla", "h7phgjry0cz333qcdbm1q6yg", "znh0gsh31jzpiiz16ozlx5l0"
HELLO, COMPILER, CODES, RELEASE, ENGINE = (
    "g1b5tshet5p84n26i59fgud3", "c5d6v8kgxzszeom3naaovznd", "ibydj8on68r6b6n44wi3lgmb",
    "cxsgjclhown1flf3fcjjkn0c", "ywhz0qhymw2x1bwmfny0dn09")
NEVER = "zzzz0never0existed000000"      # same shape as a documentId, never created


class StrapiDriver(Driver):
    def create(self, path, data):
        st, r = self.call("POST", path, {"data": data}, expect=201)
        try:
            return r["data"]["documentId"]
        except Exception:
            self.unexpected += 1
            print(f"UNEXPECTED create answer #{self.n - 1}: {str(r)[:300]}", file=sys.stderr)
            return NEVER


def capture(d):
    call, create = d.call, d.create
    # ---- a. initial reads, before any write
    call("GET", "/api/articles", expect=200)
    call("GET", "/api/authors", expect=200)
    call("GET", "/api/categories", expect=200)
    call("GET", "/api/global", expect=200)
    for doc in (HELLO, COMPILER, CODES, RELEASE, ENGINE):
        call("GET", f"/api/articles/{doc}", expect=200)
    for doc in (ADA, GRACE, ALAN):
        call("GET", f"/api/authors/{doc}", expect=200)
    for doc in (ENG, HIST, ANN):
        call("GET", f"/api/categories/{doc}", expect=200)
    call("GET", f"/api/articles/{NEVER}", expect=404)        # a documentId that never existed
    call("GET", f"/api/authors/{NEVER}", expect=404)
    call("GET", f"/api/categories/{NEVER}", expect=404)
    call("GET", "/api/articles/12345", expect=404)           # the numeric id is not an address

    # ---- b. creates, each followed by an item read and a list read
    hedy = create("/api/authors", {"name": "Hedy Lamarr", "email": "hedy@example.com",
                                   "bio": "Frequency hopping."})
    call("GET", f"/api/authors/{hedy}", expect=200)
    call("GET", "/api/authors", expect=200)
    temp = create("/api/authors", {"name": "Temporary Author"})                 # minimal body
    call("GET", f"/api/authors/{temp}", expect=200)
    call("GET", "/api/authors", expect=200)
    sci = create("/api/categories", {"name": "Science", "description": "Experiments and results",
                                     "position": 4})
    call("GET", f"/api/categories/{sci}", expect=200)
    call("GET", "/api/categories", expect=200)
    tmpcat = create("/api/categories", {"name": "Scratch"})
    call("GET", f"/api/categories/{tmpcat}", expect=200)
    call("GET", "/api/categories", expect=200)
    radio = create("/api/articles", {"title": "Spread spectrum radio", "body": "A patent from 1942.",
                                     "views": 5, "featured": True, "publishedOn": "2026-11-28",
                                     "tags": ["radio", "history"], "author": hedy,
                                     "categories": [sci, HIST]})
    call("GET", f"/api/articles/{radio}", expect=200)
    call("GET", f"/api/articles/{radio}", params=[("populate", "*")], expect=200)
    call("GET", "/api/articles", expect=200)
    call("GET", f"/api/authors/{hedy}", params=[("populate", "articles")], expect=200)
    draft = create("/api/articles", {"title": "Untitled draft"})                 # defaults
    call("GET", f"/api/articles/{draft}", expect=200)
    call("GET", "/api/articles", expect=200)
    lab = create("/api/articles", {"title": "Lab notebook", "body": "Week one.", "views": 1,
                                   "author": ADA, "categories": [sci]})
    call("GET", f"/api/articles/{lab}", expect=200)
    call("GET", "/api/articles", expect=200)
    call("GET", f"/api/categories/{sci}", params=[("populate", "articles")], expect=200)

    # ---- c. updates (Strapi 5 updates with PUT and merges: members not sent are kept)
    call("PUT", f"/api/articles/{HELLO}", {"data": {"views": 11}}, expect=200)
    call("GET", f"/api/articles/{HELLO}", expect=200)
    call("GET", "/api/articles", expect=200)
    call("PUT", f"/api/articles/{HELLO}", {"data": {"views": 11}}, expect=200)   # same value
    call("GET", f"/api/articles/{HELLO}", expect=200)
    call("PUT", f"/api/articles/{draft}", {"data": {"title": "Draft, retitled",
                                                    "body": "Now with a body."}}, expect=200)
    call("GET", f"/api/articles/{draft}", expect=200)
    call("PUT", f"/api/articles/{draft}", {"data": {"tags": ["wip"], "featured": True}}, expect=200)
    call("GET", f"/api/articles/{draft}", expect=200)
    call("PUT", f"/api/articles/{draft}", {"data": {"body": None}}, expect=200)   # clear a field
    call("GET", f"/api/articles/{draft}", expect=200)
    # relation change: the article moves from Ada to Grace
    call("PUT", f"/api/articles/{ENGINE}", {"data": {"author": GRACE}}, expect=200)
    call("GET", f"/api/articles/{ENGINE}", params=[("populate", "author")], expect=200)
    call("GET", f"/api/authors/{ADA}", params=[("populate", "articles")], expect=200)
    call("GET", f"/api/authors/{GRACE}", params=[("populate", "articles")], expect=200)
    # many-to-many: connect a category
    call("PUT", f"/api/articles/{COMPILER}", {"data": {"categories": {"connect": [sci]}}},
         expect=200)
    call("GET", f"/api/articles/{COMPILER}", params=[("populate", "categories")], expect=200)
    call("PUT", f"/api/authors/{hedy}", {"data": {"bio": "Actress and inventor."}}, expect=200)
    call("GET", f"/api/authors/{hedy}", expect=200)
    call("PUT", f"/api/authors/{GRACE}", {"data": {"active": False, "email": "grace@navy.example"}},
         expect=200)
    call("GET", f"/api/authors/{GRACE}", expect=200)
    call("GET", "/api/authors", expect=200)
    call("PUT", f"/api/categories/{ANN}", {"data": {"description": "Product news", "position": 9}},
         expect=200)
    call("GET", f"/api/categories/{ANN}", expect=200)
    call("GET", "/api/categories", expect=200)
    # the single type
    call("PUT", "/api/global", {"data": {"theme": "dark"}}, expect=200)
    call("GET", "/api/global", expect=200)
    call("PUT", "/api/global", {"data": {"siteName": "capenv blog (staging)", "postsPerPage": 5,
                                         "maintenance": True}}, expect=200)
    call("GET", "/api/global", expect=200)

    # ---- d. deletes, each followed by an item read (404) and a list read
    call("DELETE", f"/api/articles/{lab}", expect=204)
    call("GET", f"/api/articles/{lab}", expect=404)
    call("GET", "/api/articles", expect=200)
    call("GET", f"/api/categories/{sci}", params=[("populate", "articles")], expect=200)
    call("DELETE", f"/api/authors/{temp}", expect=204)
    call("GET", f"/api/authors/{temp}", expect=404)
    call("GET", "/api/authors", expect=200)
    call("DELETE", f"/api/categories/{tmpcat}", expect=204)
    call("GET", f"/api/categories/{tmpcat}", expect=404)
    call("GET", "/api/categories", expect=200)
    # a seeded article with a category: the category's list of articles loses it
    call("DELETE", f"/api/articles/{RELEASE}", expect=204)
    call("GET", f"/api/articles/{RELEASE}", expect=404)
    call("GET", "/api/articles", expect=200)
    call("GET", f"/api/categories/{ANN}", params=[("populate", "articles")], expect=200)
    # an author with an article: the article stays, its author becomes null
    call("DELETE", f"/api/authors/{ALAN}", expect=204)
    call("GET", f"/api/authors/{ALAN}", expect=404)
    call("GET", f"/api/articles/{CODES}", params=[("populate", "author")], expect=200)
    call("GET", "/api/authors", expect=200)
    # the numeric id is not reused after a delete
    again = create("/api/articles", {"title": "After the deletes", "views": 2, "author": hedy})
    call("GET", f"/api/articles/{again}", expect=200)
    call("GET", "/api/articles", expect=200)
    # the single type: delete, read (404), PUT recreates it (new documentId), read
    call("DELETE", "/api/global", expect=204)
    call("GET", "/api/global", expect=404)
    call("PUT", "/api/global", {"data": {"siteName": "capenv blog, again", "theme": "sepia"}},
         expect=200)
    call("GET", "/api/global", expect=200)

    # ---- e. failing calls
    call("GET", f"/api/articles/{lab}", expect=404)                          # just deleted
    call("PUT", f"/api/articles/{NEVER}", {"data": {"title": "ghost"}}, expect=404)
    call("PUT", f"/api/articles/{lab}", {"data": {"title": "ghost"}}, expect=404)
    call("DELETE", f"/api/articles/{lab}", expect=204)     # already deleted: still 204
    call("DELETE", f"/api/authors/{NEVER}", expect=204)   # never existed: 204 too
    call("PUT", f"/api/categories/{NEVER}", {"data": {"position": 1}}, expect=404)
    call("POST", "/api/articles", {"data": {"body": "no title"}}, expect=400)     # required
    call("POST", "/api/articles", {"title": "not wrapped in data"}, expect=400)
    call("POST", "/api/articles", {"data": {"title": "x", "subtitle": "unknown key"}}, expect=400)
    call("POST", "/api/articles", {"data": {"title": "Negative", "views": -1}}, expect=400)
    call("POST", "/api/articles", {"data": {"title": "Bad author", "author": NEVER}}, expect=400)
    call("POST", "/api/categories", {"data": {"name": "Engineering"}}, expect=400)  # unique
    call("POST", "/api/authors", {"data": {"name": "Bad mail", "email": "not-an-email"}},
         expect=400)
    call("PUT", f"/api/authors/{hedy}", {"data": {"name": None}}, expect=400)
    call("PUT", "/api/global", {"data": {"theme": "neon"}}, expect=400)           # enum
    call("POST", "/api/authors", raw='{"data": {"name": "broken json', expect=400)
    call("PATCH", f"/api/articles/{HELLO}", {"data": {"views": 12}})              # no PATCH route
    call("POST", f"/api/articles/{HELLO}", {"data": {"views": 12}})               # nor POST on items
    call("GET", "/api/articles", params=[("filters[nope][$eq]", "1")], expect=400)
    call("GET", "/api/articles", params=[("sort", "nope:asc")], expect=400)
    call("GET", "/api/posts", expect=404)                                      # no such type

    # ---- f. paging, sorting, filters, populate, fields, final state
    for page in (1, 2, 3, 4):
        call("GET", "/api/articles", params=[("pagination[page]", str(page)),
                                             ("pagination[pageSize]", "2")], expect=200)
    call("GET", "/api/articles", params=[("pagination[start]", "1"), ("pagination[limit]", "2")],
         expect=200)
    call("GET", "/api/articles", params=[("sort", "title")], expect=200)
    call("GET", "/api/articles", params=[("sort", "views:desc")], expect=200)
    call("GET", "/api/articles", params=[("sort[0]", "featured:desc"), ("sort[1]", "title:asc")],
         expect=200)
    call("GET", "/api/articles", params=[("filters[title][$eq]", "Hello Strapi")], expect=200)
    call("GET", "/api/articles", params=[("filters[title][$eq]", "No such title")], expect=200)
    call("GET", "/api/articles", params=[("filters[views][$gte]", "10")], expect=200)
    call("GET", "/api/articles", params=[("filters[title][$containsi]", "NOTES")], expect=200)
    call("GET", "/api/articles", params=[("filters[featured][$eq]", "true"),
                                         ("sort", "views:asc")], expect=200)
    call("GET", "/api/articles", params=[("filters[author][name][$eq]", "Hedy Lamarr")],
         expect=200)
    call("GET", "/api/articles", params=[("filters[$or][0][views][$lt]", "3"),
                                         ("filters[$or][1][title][$startsWith]", "The")],
         expect=200)
    call("GET", "/api/articles", params=[("populate", "*")], expect=200)
    call("GET", "/api/articles", params=[("populate[author][fields][0]", "name"),
                                         ("fields[0]", "title"), ("fields[1]", "views")],
         expect=200)
    call("GET", "/api/articles", params=[("populate", "categories"), ("sort", "title:asc"),
                                         ("pagination[page]", "1"), ("pagination[pageSize]", "3")],
         expect=200)
    call("GET", f"/api/articles/{radio}", params=[("fields[0]", "title")], expect=200)
    call("GET", "/api/authors", params=[("populate", "articles"), ("sort", "name")], expect=200)
    call("GET", "/api/authors", params=[("filters[active][$eq]", "false")], expect=200)
    call("GET", "/api/categories", params=[("sort", "position:desc")], expect=200)
    call("GET", "/api/categories", params=[("filters[name][$in][0]", "History"),
                                           ("filters[name][$in][1]", "Science")], expect=200)
    call("GET", "/api/categories", params=[("pagination[pageSize]", "2")], expect=200)
    call("GET", "/api/global", params=[("fields[0]", "siteName")], expect=200)
    call("GET", "/api/articles", expect=200)
    call("GET", "/api/authors", expect=200)
    call("GET", "/api/categories", expect=200)
    call("GET", "/api/global", expect=200)
    for doc in (HELLO, COMPILER, CODES, ENGINE, radio, draft, again):
        call("GET", f"/api/articles/{doc}", expect=200)



if __name__ == "__main__":
    drive({"capture": capture}, StrapiDriver, default_base="http://127.0.0.1:42031")
