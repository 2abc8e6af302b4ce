#!/usr/bin/env python3
"""Scenario driver for Weblate 5.14.3 (Django + DRF) through its REST API (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:19001 --mode capture [-v]

Projects and languages are identified by a slug or code in the path (/api/projects/<slug>/,
/api/languages/<code>/), components by two segments (/api/components/<project>/<component>/),
translations by three (/api/translations/<project>/<component>/<language>/); units, categories and
groups by an integer id, users by their username. Every answer names itself and its neighbours by
absolute hyperlinks (url, web_url, *_url; http://127.0.0.1/... from Weblate's SITE_URL, whatever
port it is called on), lists are DRF pages {count, next, previous, results} (?page=, ?page_size=),
units are searched with ?q= (Weblate's query language). Every call sends admin's fixed API token
(`Authorization: Token wlu_...`) unless it says alice's or none.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKENS = {"admin": "wlu_capenv0weblate0throwaway0admin00001",
          "alice": "wlu_capenv0weblate0throwaway0alice00001"}
SEED_FILES = Path(__file__).resolve().parent / "seed"


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose, token=TOKENS["admin"], scheme="Token")


def capture(d: Driver):
    call, get, check = d.call, d.get, d.check

    def as_alice(method, path, body=None, expect=None, params=None):
        return call(method, path, body, expect=expect, params=params, token=TOKENS["alice"])

    def anonymous(method, path, body=None, expect=None):
        return call(method, path, body, expect=expect, token=None)

    def units(path, **params):
        return get(f"/api/translations/{path}/units/", **params)["results"]

    # ---- a. the seed: every list and item
    get("/api/")
    projects = get("/api/projects/")
    check("seeded projects", [p["slug"] for p in projects["results"]], ["hello", "docs"])
    get("/api/projects/hello/")
    get("/api/projects/docs/")
    check("hello's components", [c["slug"] for c in get("/api/projects/hello/components/")["results"]],
          ["app", "glossary", "website"])
    get("/api/projects/docs/components/")
    get("/api/projects/hello/languages/")
    get("/api/projects/hello/statistics/")
    get("/api/projects/hello/categories/")
    components = get("/api/components/")
    check("components", components["count"], 5)
    get("/api/components/", page_size=2)
    get("/api/components/", page_size=2, page=2)
    get("/api/components/", page_size=2, page=3)
    get("/api/components/hello/app/")
    get("/api/components/hello/website/")
    get("/api/components/docs/manual/")
    get("/api/components/hello/glossary/")
    get("/api/components/hello/app/translations/")
    get("/api/components/hello/website/translations/")
    get("/api/components/hello/app/statistics/")
    get("/api/components/hello/app/lock/")
    get("/api/translations/")
    get("/api/translations/", page_size=3, page=2)
    get("/api/translations/hello/app/en/")
    get("/api/translations/hello/app/cs/")
    get("/api/translations/hello/app/de/")
    get("/api/translations/hello/website/de/")
    get("/api/translations/docs/manual/fr/")
    get("/api/translations/hello/app/cs/statistics/")
    cs_units = units("hello/app/cs")
    check("cs units", [u["context"] for u in cs_units], ["greeting", "farewell", "save", "cancel"])
    de_units = units("hello/app/de")
    en_units = units("hello/app/en")
    units("hello/website/de")
    units("docs/manual/fr")
    units("hello/app/de", q="state:needs-editing")
    units("hello/app/cs", q="state:empty")
    units("hello/app/cs", q="state:translated")
    cs = {u["context"]: u["id"] for u in cs_units}
    de = {u["context"]: u["id"] for u in de_units}
    en = {u["context"]: u["id"] for u in en_units}
    get(f"/api/units/{cs['greeting']}/")
    get(f"/api/units/{de['cancel']}/")
    get(f"/api/units/{en['save']}/")
    get("/api/units/", q="language:de")
    get("/api/units/", page_size=5, page=2)
    get("/api/languages/cs/")
    get("/api/languages/de/")
    get("/api/languages/", page=2)
    get("/api/users/")
    get("/api/users/alice/")
    get("/api/groups/")
    get("/api/roles/", page_size=5)
    get("/api/categories/")
    get("/api/component-lists/")
    # absences
    call("GET", "/api/projects/nope/", expect=404)
    call("GET", "/api/components/hello/nope/", expect=404)
    call("GET", "/api/components/nope/app/", expect=404)
    call("GET", "/api/translations/hello/app/fr/", expect=404)
    call("GET", "/api/translations/hello/nope/cs/", expect=404)
    call("GET", "/api/units/9999/", expect=404)
    call("GET", "/api/languages/xx-nope/", expect=404)
    call("GET", "/api/users/nobody/", expect=404)
    call("GET", "/api/categories/999/", expect=404)
    call("GET", "/api/components/", params={"page": 9}, expect=404)
    # callers: alice reads, may not write; nobody signed in reads public projects
    as_alice("GET", "/api/projects/", expect=200)
    as_alice("GET", "/api/users/", expect=200)
    anonymous("GET", "/api/projects/hello/", expect=200)
    anonymous("GET", "/api/users/", expect=200)

    # ---- b. units: translate, mark, review; the translation's counts follow
    call("PATCH", f"/api/units/{cs['save']}/", {"target": ["Uložit"], "state": 20}, expect=200)
    get(f"/api/units/{cs['save']}/")
    get("/api/translations/hello/app/cs/")
    units("hello/app/cs")
    call("PATCH", f"/api/units/{de['cancel']}/", {"target": ["Abbrechen"], "state": 20}, expect=200)
    get(f"/api/units/{de['cancel']}/")
    get("/api/translations/hello/app/de/")
    call("PATCH", f"/api/units/{cs['cancel']}/", {"target": ["Zrušit"], "state": 10}, expect=200)
    get(f"/api/units/{cs['cancel']}/")
    # PUT names every member, the source-only ones too: refused on a translation, taken on the source
    call("PUT", f"/api/units/{cs['cancel']}/", {"target": ["Zrušit"], "state": 10, "labels": [],
                                              "explanation": "", "extra_flags": ""}, expect=403)
    call("PUT", f"/api/units/{en['cancel']}/", {"target": ["Cancel"], "state": 20, "labels": [],
                                              "explanation": "A button.", "extra_flags": ""}, expect=200)
    get(f"/api/units/{en['cancel']}/")
    get(f"/api/units/{cs['cancel']}/")
    units("hello/app/cs", q="state:needs-editing")
    get("/api/translations/hello/app/cs/")
    call("PATCH", f"/api/units/{en['greeting']}/", {"explanation": "Shown on the start screen."}, expect=200)
    get(f"/api/units/{en['greeting']}/")
    get(f"/api/units/{cs['greeting']}/")
    call("PATCH", f"/api/units/{cs['greeting']}/", {"explanation": "Not here."}, expect=403)
    call("PATCH", f"/api/units/{cs['farewell']}/", {"target": [""], "state": 0}, expect=200)
    get(f"/api/units/{cs['farewell']}/")
    get("/api/translations/hello/app/cs/")
    # errors
    call("PATCH", f"/api/units/{cs['save']}/", {"state": 42}, expect=400)
    call("PATCH", f"/api/units/{cs['save']}/", {"target": "not a list", "state": 20}, expect=400)
    call("PATCH", f"/api/units/{cs['save']}/", {"state": 20}, expect=400)  # no target: 0 plurals of 3
    call("PATCH", "/api/units/9999/", {"target": ["x"], "state": 20}, expect=404)
    as_alice("PATCH", f"/api/units/{cs['save']}/", {"target": ["Uložit!"], "state": 20}, expect=200)  # a translator
    get(f"/api/units/{cs['save']}/")

    # ---- c. source strings: added to the source, in every translation; deleted likewise
    status, added = call("POST", "/api/translations/hello/app/en/units/", {"key": "help", "value": ["Help"]},
                         expect=200)
    units("hello/app/en")
    cs_after = units("hello/app/cs")
    get("/api/translations/hello/app/de/")
    help_cs = [u["id"] for u in cs_after if u["context"] == "help"]
    if help_cs:
        call("PATCH", f"/api/units/{help_cs[0]}/", {"target": ["Nápověda"], "state": 20}, expect=200)
        get(f"/api/units/{help_cs[0]}/")
    call("POST", "/api/translations/hello/app/en/units/", {"key": "help", "value": ["Help again"]}, expect=400)
    call("POST", "/api/translations/hello/app/en/units/", {"value": ["No key"]}, expect=400)
    call("DELETE", f"/api/units/{en['save']}/", expect=204)
    call("GET", f"/api/units/{en['save']}/", expect=404)
    call("GET", f"/api/units/{cs['save']}/", expect=404)
    units("hello/app/cs")
    units("hello/app/en")
    get("/api/translations/hello/app/cs/")
    call("DELETE", f"/api/units/{en['save']}/", expect=404)

    # ---- d. projects
    status, proj = call("POST", "/api/projects/", {"name": "Mobile", "slug": "mobile",
                                                   "web": "https://mobile.example.com/"}, expect=201)
    get("/api/projects/mobile/")
    get("/api/projects/")
    call("POST", "/api/projects/", {"name": "Mobile", "slug": "mobile", "web": "https://mobile.example.com/"},
         expect=400)
    call("POST", "/api/projects/", {"slug": "noname", "web": "https://x.example.com/"}, expect=400)
    call("POST", "/api/projects/", {"name": "Bad slug", "slug": "bad slug!", "web": "https://x.example.com/"},
         expect=400)
    as_alice("POST", "/api/projects/", {"name": "Alice's", "slug": "alices", "web": "https://a.example.com/"},
             expect=403)
    anonymous("POST", "/api/projects/", {"name": "Anon", "slug": "anon", "web": "https://a.example.com/"},
              expect=401)
    call("PATCH", "/api/projects/mobile/", {"web": "https://mobile.example.org/", "instructions": "Be brief."},
         expect=200)
    get("/api/projects/mobile/")
    call("PATCH", "/api/projects/mobile/", {"translation_review": True}, expect=200)
    get("/api/projects/mobile/")
    call("PUT", "/api/projects/mobile/", {"name": "Mobile apps", "slug": "mobile", "web": "https://mobile.example.org/"},
         expect=200)
    get("/api/projects/mobile/")
    call("PATCH", "/api/projects/mobile/", {"name": "Docs"}, expect=400)
    call("PATCH", "/api/projects/nope/", {"web": "https://x.example.com/"}, expect=404)
    as_alice("PATCH", "/api/projects/hello/", {"instructions": "mine"}, expect=403)
    get("/api/projects/hello/")
    call("GET", "/api/projects/mobile/lock/", expect=200)
    call("POST", "/api/projects/mobile/lock/", {"lock": True}, expect=200)
    call("GET", "/api/projects/mobile/lock/", expect=200)
    call("POST", "/api/projects/mobile/lock/", {"lock": False}, expect=200)

    # ---- e. components: from an uploaded file and from JSON; update, lock, delete
    with open(SEED_FILES / "website.json", "rb") as f:
        content = f.read()
    boundary = "capenvweblateboundary0001"
    parts = []
    for name, value in {"name": "Store", "slug": "store", "file_format": "json", "source_language": "en",
                        "manage_units": "1"}.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="docfile"; filename="store.json"\r\n'
                 f"Content-Type: application/json\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    call("POST", "/api/projects/mobile/components/", raw=b"".join(parts), expect=201,
         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    get("/api/components/mobile/store/")
    get("/api/projects/mobile/components/")
    get("/api/components/mobile/store/translations/")
    call("POST", "/api/projects/mobile/components/",
         {"name": "Extra", "slug": "extra", "vcs": "local", "repo": "local:", "file_format": "json",
          "filemask": "extra/*.json", "template": "extra/en.json", "new_base": "extra/en.json",
          "source_language": "en"}, expect=201)
    get("/api/components/mobile/extra/")
    get("/api/components/", page_size=20)
    call("POST", "/api/projects/mobile/components/",
         {"name": "Extra", "slug": "extra", "vcs": "local", "repo": "local:", "file_format": "json",
          "filemask": "extra2/*.json", "template": "extra2/en.json", "new_base": "extra2/en.json",
          "source_language": "en"}, expect=400)
    call("POST", "/api/projects/mobile/components/", {"name": "Broken", "slug": "broken"}, expect=400)
    call("POST", "/api/projects/mobile/components/",
         {"name": "Odd", "slug": "odd", "vcs": "local", "repo": "local:", "file_format": "no-such-format",
          "filemask": "odd/*.json", "source_language": "en"}, expect=400)
    call("POST", "/api/projects/nope/components/",
         {"name": "X", "slug": "x", "vcs": "local", "repo": "local:", "file_format": "json",
          "filemask": "x/*.json", "template": "x/en.json", "source_language": "en"}, expect=404)
    call("PATCH", "/api/components/mobile/store/", {"license": "MIT", "license_url": "https://opensource.org/license/mit"}, expect=200)
    get("/api/components/mobile/store/")
    call("PATCH", "/api/components/mobile/store/", {"name": "Web store", "priority": 80}, expect=200)
    get("/api/components/mobile/store/")
    get("/api/projects/mobile/components/")
    call("PATCH", "/api/components/mobile/store/", {"file_format": "no-such-format"}, expect=400)
    call("PATCH", "/api/components/mobile/nope/", {"priority": 80}, expect=404)
    as_alice("PATCH", "/api/components/hello/app/", {"priority": 80}, expect=403)
    call("POST", "/api/components/mobile/store/lock/", {"lock": True}, expect=200)
    get("/api/components/mobile/store/lock/")
    get("/api/components/mobile/store/")
    call("POST", "/api/components/mobile/store/lock/", {"lock": False}, expect=200)
    get("/api/components/mobile/store/lock/")

    # ---- f. translations: add a language to a component, delete it
    status, fr = call("POST", "/api/components/mobile/store/translations/", {"language_code": "fr"}, expect=201)
    get("/api/translations/mobile/store/fr/")
    get("/api/components/mobile/store/translations/")
    fr_units = units("mobile/store/fr")
    get("/api/projects/mobile/languages/")
    if fr_units:
        call("PATCH", f"/api/units/{fr_units[0]['id']}/", {"target": ["Bienvenue sur notre site"], "state": 20},
             expect=200)
        get(f"/api/units/{fr_units[0]['id']}/")
        get("/api/translations/mobile/store/fr/")
    call("POST", "/api/components/mobile/store/translations/", {"language_code": "fr"}, expect=400)
    call("POST", "/api/components/mobile/store/translations/", {"language_code": "xx-nope"}, expect=400)
    call("POST", "/api/components/mobile/store/translations/", {}, expect=400)
    call("POST", "/api/components/mobile/store/translations/", {"language_code": "cs"}, expect=201)
    get("/api/translations/mobile/store/cs/")
    call("DELETE", "/api/translations/mobile/store/cs/", expect=204)
    call("GET", "/api/translations/mobile/store/cs/", expect=404)
    get("/api/components/mobile/store/translations/")
    call("DELETE", "/api/translations/mobile/store/cs/", expect=404)
    as_alice("DELETE", "/api/translations/hello/app/cs/", expect=403)
    get("/api/translations/hello/app/cs/")

    # ---- g. categories
    status, cat = call("POST", "/api/categories/", {"name": "Phones", "slug": "phones",
                                                   "project": "http://127.0.0.1/api/projects/mobile/"}, expect=201)
    cat_id = cat.get("id") if isinstance(cat, dict) else None
    get(f"/api/categories/{cat_id}/")
    get("/api/categories/")
    get("/api/projects/mobile/categories/")
    call("POST", "/api/categories/", {"name": "Phones", "slug": "phones",
                                      "project": "http://127.0.0.1/api/projects/mobile/"}, expect=400)
    call("POST", "/api/categories/", {"name": "Nowhere", "slug": "nowhere"}, expect=400)
    call("PATCH", f"/api/categories/{cat_id}/", {"name": "Smartphones"}, expect=200)
    get(f"/api/categories/{cat_id}/")
    call("PUT", f"/api/categories/{cat_id}/", {"name": "Handsets", "slug": "handsets",
                                                "project": "http://127.0.0.1/api/projects/mobile/"}, expect=200)
    get(f"/api/categories/{cat_id}/")
    call("DELETE", f"/api/categories/{cat_id}/", expect=204)
    call("GET", f"/api/categories/{cat_id}/", expect=404)
    get("/api/categories/")

    # ---- h. languages
    call("POST", "/api/languages/", {"code": "x-capenv", "name": "Capenvish", "direction": "ltr",
                                     "population": 42, "plural": {"number": 2, "formula": "n != 1"}}, expect=201)
    get("/api/languages/x-capenv/")
    call("POST", "/api/languages/", {"code": "x-capenv", "name": "Capenvish", "direction": "ltr",
                                     "plural": {"number": 2, "formula": "n != 1"}}, expect=400)
    call("POST", "/api/languages/", {"code": "x-bad", "name": "Bad", "direction": "sideways",
                                     "plural": {"number": 2, "formula": "n != 1"}}, expect=400)
    call("PATCH", "/api/languages/x-capenv/", {"name": "Capenvese", "population": 7}, expect=200)
    get("/api/languages/x-capenv/")
    call("PUT", "/api/languages/x-capenv/", {"code": "x-capenv", "name": "Capenvese", "direction": "rtl",
                                             "population": 7, "plural": {"number": 1, "formula": "0"}},
         expect=200)
    get("/api/languages/x-capenv/")
    as_alice("PATCH", "/api/languages/cs/", {"name": "Czech!"}, expect=403)
    get("/api/languages/cs/")
    call("DELETE", "/api/languages/x-capenv/", expect=204)
    call("GET", "/api/languages/x-capenv/", expect=404)
    call("DELETE", "/api/languages/x-capenv/", expect=404)

    # ---- i. users and groups
    call("POST", "/api/users/", {"username": "carol", "full_name": "Carol Reviewer", "email": "carol@example.com",
                                 "is_active": True}, expect=201)
    get("/api/users/carol/")
    get("/api/users/")
    call("POST", "/api/users/", {"username": "carol", "full_name": "Carol Again", "email": "carol2@example.com"},
         expect=400)
    call("POST", "/api/users/", {"username": "dave", "full_name": "Dave", "email": "not-an-email"}, expect=400)
    call("PATCH", "/api/users/carol/", {"full_name": "Carol R. Reviewer"}, expect=200)
    get("/api/users/carol/")
    call("PUT", "/api/users/carol/", {"username": "carol", "full_name": "Carol Reviewer", "email": "carol@example.org",
                                      "is_active": False}, expect=200)
    get("/api/users/carol/")
    as_alice("PATCH", "/api/users/carol/", {"full_name": "Hacked"}, expect=403)
    status, group = call("POST", "/api/groups/", {"name": "Reviewers", "project_selection": 0,
                                                  "language_selection": 1}, expect=201)
    group_id = group.get("id") if isinstance(group, dict) else None
    get(f"/api/groups/{group_id}/")
    get("/api/groups/")
    call("POST", "/api/groups/", {"project_selection": 0, "language_selection": 1}, expect=400)
    call("PATCH", f"/api/groups/{group_id}/", {"name": "Senior reviewers"}, expect=200)
    get(f"/api/groups/{group_id}/")
    call("POST", f"/api/groups/{group_id}/projects/", {"project_id": 1}, expect=200)
    get(f"/api/groups/{group_id}/")
    call("POST", f"/api/users/carol/groups/", {"group_id": group_id}, expect=200)
    get("/api/users/carol/")
    call("DELETE", f"/api/groups/{group_id}/", expect=204)
    call("GET", f"/api/groups/{group_id}/", expect=404)
    get("/api/users/carol/")
    call("DELETE", "/api/users/carol/", expect=204)
    call("GET", "/api/users/carol/", expect=404)
    get("/api/users/")

    # ---- j. deletes: a component, a project (its components go with it)
    call("DELETE", "/api/components/mobile/extra/", expect=204)
    call("GET", "/api/components/mobile/extra/", expect=404)
    get("/api/projects/mobile/components/")
    call("DELETE", "/api/components/mobile/extra/", expect=404)
    as_alice("DELETE", "/api/projects/hello/", expect=403)
    call("DELETE", "/api/projects/mobile/", expect=204)
    call("GET", "/api/projects/mobile/", expect=404)
    call("GET", "/api/components/mobile/store/", expect=404)
    call("GET", "/api/translations/mobile/store/fr/", expect=404)
    get("/api/projects/")
    get("/api/components/")
    call("DELETE", "/api/projects/mobile/", expect=404)
    # the seed's own, after everything
    get("/api/translations/hello/app/cs/")
    units("hello/app/cs")
    get("/api/projects/hello/statistics/")
    get("/api/changes/", page_size=5)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:19001")
