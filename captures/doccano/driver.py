#!/usr/bin/env python3
"""Scenario driver for doccano 1.8.5's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18401 --mode capture [-v]

Logs in through the API (POST /v1/auth/login/ answers the user's token) as the admin and as
annotator1, then sends `Authorization: Token ...` on every call; writes are JSON. Paths have no
trailing slash (`/v1/projects/1`) except the auth routes. Projects and examples list as Django REST
Framework pages `{count, next, previous, results}` (limit/offset, 5 a page, absolute links naming
http://127.0.0.1); label types, members, tags and annotations list as plain arrays. Projects are
polymorphic (`resourcetype` names the kind). Bulk deletes are DELETE on a list with `{"ids": [...]}`.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/v1"
ADMIN = {"username": "admin", "password": "capenv-admin-pass"}
ANNOTATOR = {"username": "annotator1", "password": "capenv-annotator-pass"}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=None, scheme="Token")


def capture(d):
    call, check = d.call, d.check

    def get(where, expect=200, token=None, **params):
        return call("GET", API + where, params=params or None, expect=expect,
                    **({"token": token} if token else {}))[1]

    def send(method, path, body=None, expect=200, token=None):
        return call(method, API + path, body=body, expect=expect, **({"token": token} if token else {}))[1]

    def ids(answer):
        items = answer.get("results", []) if isinstance(answer, dict) else answer
        return [item.get("id") for item in items] if isinstance(items, list) else None

    def field(answer, key):
        return answer.get(key) if isinstance(answer, dict) else None

    # ---- a. log in, then reads before any write: every list and the seed's items
    d.token = send("POST", "/auth/login/", ADMIN, token=None)["key"]
    annotator = send("POST", "/auth/login/", ANNOTATOR, token=None)["key"]
    send("POST", "/auth/login/", {"username": "admin", "password": "wrong"}, expect=400, token=None)
    get("/me")
    get("/roles")
    get("/users")
    check("projects", ids(get("/projects")), [3, 2, 1])
    for pid in (1, 2, 3):
        get(f"/projects/{pid}")
        get(f"/projects/{pid}/my-role")
    get("/projects", q="news")
    get("/projects", limit=2)
    get("/projects", limit=2, offset=2)
    get("/projects/1/examples")
    get("/projects/1/examples", limit=2, offset=2)
    for eid in (1, 2):
        get(f"/projects/1/examples/{eid}")
    get("/projects/2/examples")
    get("/projects/2/examples/5")
    get("/projects/3/examples")
    get("/projects/1/category-types")
    get("/projects/1/category-types/1")
    get("/projects/2/span-types")
    get("/projects/2/span-types/1")
    get("/projects/2/relation-types")
    get("/projects/2/relation-types/1")
    get("/projects/1/members")
    get("/projects/1/members/2")
    get("/projects/1/tags")
    get("/projects/1/examples/1/categories")
    get("/projects/1/examples/1/categories/1")
    get("/projects/2/examples/5/spans")
    get("/projects/2/examples/5/spans/1")
    get("/projects/2/examples/5/relations")
    get("/projects/3/examples/7/texts")
    get("/projects/3/examples/7/texts/1")
    get("/projects/1/comments")
    get("/projects/1/examples/1/states")

    # ---- b. projects: one of each text kind, updated by PATCH and PUT, read back
    texts = send("POST", "/projects", {
        "name": "Support tickets", "description": "Route tickets to a team", "guideline": "One team a ticket.",
        "project_type": "DocumentClassification", "resourcetype": "TextClassificationProject",
        "random_order": False, "collaborative_annotation": False, "single_class_classification": False,
        "allow_member_to_create_label_type": False, "tags": [{"text": "support"}]}, expect=201)
    tid = field(texts, "id")
    check("created project", tid, 4)
    ner = send("POST", "/projects", {
        "name": "Contracts NER", "description": "Parties and dates", "guideline": "Mark parties.",
        "project_type": "SequenceLabeling", "resourcetype": "SequenceLabelingProject",
        "random_order": False, "collaborative_annotation": False, "allow_member_to_create_label_type": False,
        "allow_overlapping": True, "grapheme_mode": False, "use_relation": True, "tags": []}, expect=201)
    nid = field(ner, "id")
    s2s = send("POST", "/projects", {
        "name": "Translations", "description": "English to French", "guideline": "Translate literally.",
        "project_type": "Seq2seq", "resourcetype": "Seq2seqProject", "random_order": True,
        "collaborative_annotation": True, "allow_member_to_create_label_type": False, "tags": []}, expect=201)
    sid = field(s2s, "id")
    intent = send("POST", "/projects", {
        "name": "Assistant intents", "description": "Intents and slots", "guideline": "",
        "project_type": "IntentDetectionAndSlotFilling", "resourcetype": "IntentDetectionAndSlotFillingProject",
        "random_order": False, "collaborative_annotation": False, "allow_member_to_create_label_type": True,
        "tags": []}, expect=201)
    iid = field(intent, "id")
    for pid in (tid, nid, sid, iid):
        get(f"/projects/{pid}")
    get("/projects")
    send("POST", "/projects", {"description": "no name", "project_type": "Seq2seq",
                               "resourcetype": "Seq2seqProject"}, expect=400)
    send("POST", "/projects", {"name": "Odd", "project_type": "Seq2seq", "resourcetype": "NoSuchProject"},
         expect=400)
    send("PATCH", f"/projects/{tid}", {"description": "Route support tickets to the right team"})
    get(f"/projects/{tid}")
    send("PATCH", f"/projects/{tid}", {"single_class_classification": True, "guideline": "Exactly one team."})
    get(f"/projects/{tid}")
    send("PUT", f"/projects/{nid}", {
        "name": "Contracts NER v2", "description": "Parties, dates and amounts", "guideline": "Mark them all.",
        "project_type": "SequenceLabeling", "resourcetype": "SequenceLabelingProject", "random_order": False,
        "collaborative_annotation": False, "allow_member_to_create_label_type": False,
        "allow_overlapping": False, "grapheme_mode": True, "use_relation": True})
    get(f"/projects/{nid}")
    send("PATCH", f"/projects/{sid}", {"name": ""}, expect=400)
    get(f"/projects/{sid}")
    send("PATCH", "/projects/99", {"name": "missing"}, expect=404)
    get("/projects/99", expect=404)
    send("DELETE", "/projects", {"ids": [iid]}, expect=204)
    get(f"/projects/{iid}", expect=404)
    get("/projects")
    get("/projects", ordering="name")

    # ---- c. tags of a project
    tag = field(send("POST", f"/projects/{tid}/tags", {"text": "priority"}, expect=201), "id")
    get(f"/projects/{tid}/tags")
    get(f"/projects/{tid}")
    send("POST", f"/projects/{tid}/tags", {"text": ""}, expect=400)
    send("DELETE", f"/projects/{tid}/tags/{tag}", expect=204)
    get(f"/projects/{tid}/tags")
    send("DELETE", f"/projects/{tid}/tags/99", expect=404)

    # ---- d. members and roles
    get(f"/projects/{tid}/members")
    member = field(send("POST", f"/projects/{tid}/members", {"user": 2, "role": 3}, expect=201), "id")
    get(f"/projects/{tid}/members")
    get(f"/projects/{tid}/members/{member}")
    send("POST", f"/projects/{tid}/members", {"user": 2, "role": 2}, expect=400)
    send("PATCH", f"/projects/{tid}/members/{member}", {"role": 2})
    get(f"/projects/{tid}/members/{member}")
    send("PUT", f"/projects/{tid}/members/{member}", {"user": 2, "role": 3})
    get(f"/projects/{tid}/members/{member}")
    get(f"/projects/{tid}/members", user="2")
    send("POST", f"/projects/{tid}/members", {"user": 99, "role": 2}, expect=400)
    get(f"/projects/{tid}/members/99", expect=404)
    get(f"/projects/{tid}/my-role", token=annotator)
    send("DELETE", f"/projects/{tid}/members", {"ids": [member]}, expect=204)
    get(f"/projects/{tid}/members")
    send("POST", f"/projects/{nid}/members", {"user": 2, "role": 2}, expect=201)
    get(f"/projects/{nid}/members")

    # ---- e. label types: category, span and relation types
    get(f"/projects/{tid}/category-types")
    billing = send("POST", f"/projects/{tid}/category-types",
                   {"text": "billing", "prefix_key": None, "suffix_key": "b", "background_color": "#0277bd",
                    "text_color": "#ffffff"}, expect=201)
    bid = field(billing, "id")
    tech = field(send("POST", f"/projects/{tid}/category-types",
                      {"text": "technical", "prefix_key": "ctrl", "suffix_key": "t",
                       "background_color": "#558b2f", "text_color": "#000000"}, expect=201), "id")
    spam = field(send("POST", f"/projects/{tid}/category-types",
                      {"text": "spam", "suffix_key": "s", "background_color": "#757575"}, expect=201), "id")
    get(f"/projects/{tid}/category-types")
    get(f"/projects/{tid}/category-types/{bid}")
    send("POST", f"/projects/{tid}/category-types", {"text": "other", "suffix_key": "b"}, expect=400)
    send("PATCH", f"/projects/{tid}/category-types/{bid}", {"background_color": "#01579b"})
    get(f"/projects/{tid}/category-types/{bid}")
    send("PUT", f"/projects/{tid}/category-types/{tech}",
         {"text": "tech support", "prefix_key": None, "suffix_key": "h", "background_color": "#33691e",
          "text_color": "#ffffff"})
    get(f"/projects/{tid}/category-types/{tech}")
    send("DELETE", f"/projects/{tid}/category-types/{spam}", expect=204)
    get(f"/projects/{tid}/category-types/{spam}", expect=404)
    get(f"/projects/{tid}/category-types")
    send("PATCH", f"/projects/{tid}/category-types/99", {"text": "none"}, expect=404)

    party = field(send("POST", f"/projects/{nid}/span-types",
                       {"text": "PARTY", "prefix_key": None, "suffix_key": "p", "background_color": "#ad1457",
                        "text_color": "#ffffff"}, expect=201), "id")
    date = field(send("POST", f"/projects/{nid}/span-types",
                      {"text": "DATE", "prefix_key": None, "suffix_key": "d", "background_color": "#00838f",
                       "text_color": "#ffffff"}, expect=201), "id")
    amount = field(send("POST", f"/projects/{nid}/span-types",
                        {"text": "AMOUNT", "suffix_key": "a", "background_color": "#f9a825"}, expect=201), "id")
    get(f"/projects/{nid}/span-types")
    send("PATCH", f"/projects/{nid}/span-types/{date}", {"text": "EFFECTIVE_DATE"})
    get(f"/projects/{nid}/span-types/{date}")
    send("DELETE", f"/projects/{nid}/span-types", {"ids": [amount]}, expect=204)
    get(f"/projects/{nid}/span-types")
    get(f"/projects/{nid}/span-types/{amount}", expect=404)
    signs = field(send("POST", f"/projects/{nid}/relation-types",
                       {"text": "signed_on", "prefix_key": None, "suffix_key": None,
                        "background_color": "#4e342e", "text_color": "#ffffff"}, expect=201), "id")
    get(f"/projects/{nid}/relation-types")
    send("PATCH", f"/projects/{nid}/relation-types/{signs}", {"background_color": "#3e2723"})
    get(f"/projects/{nid}/relation-types/{signs}")

    # ---- f. examples: create, update by PATCH and PUT, search, paging, delete one and in bulk
    ticket_texts = ("My invoice shows a double charge.", "The app crashes when I upload a photo.",
                    "Can I change my billing address?", "Password reset mail never arrives.",
                    "WIN A FREE CRUISE NOW", "Refund for last month please.", "Export to CSV is empty.")
    tickets = [field(send("POST", f"/projects/{tid}/examples",
                          {"text": text, "meta": {"channel": "mail", "n": n}}, expect=201), "id")
               for n, text in enumerate(ticket_texts, start=1)]
    get(f"/projects/{tid}/examples")
    get(f"/projects/{tid}/examples", limit=5, offset=5)
    get(f"/projects/{tid}/examples/{tickets[0]}")
    get(f"/projects/{tid}/examples", q="billing")
    get(f"/projects/{tid}/examples", q="crash")
    send("POST", f"/projects/{tid}/examples", {"text": "Scored", "score": "high"}, expect=400)
    send("PATCH", f"/projects/{tid}/examples/{tickets[1]}", {"text": "The app crashes when I upload a PNG photo."})
    get(f"/projects/{tid}/examples/{tickets[1]}")
    send("PATCH", f"/projects/{tid}/examples/{tickets[2]}", {"meta": {"channel": "chat", "n": 3, "vip": True}})
    get(f"/projects/{tid}/examples/{tickets[2]}")
    send("PUT", f"/projects/{tid}/examples/{tickets[3]}",
         {"text": "The password reset mail never arrives.", "meta": {"channel": "phone"}})
    get(f"/projects/{tid}/examples/{tickets[3]}")
    send("DELETE", f"/projects/{tid}/examples/{tickets[4]}", expect=204)
    get(f"/projects/{tid}/examples/{tickets[4]}", expect=404)
    send("DELETE", f"/projects/{tid}/examples", {"ids": [tickets[6]]}, expect=204)
    get(f"/projects/{tid}/examples")
    send("PATCH", f"/projects/{tid}/examples/99", {"text": "missing"}, expect=404)
    send("DELETE", f"/projects/{tid}/examples/99", expect=404)
    clauses = [field(send("POST", f"/projects/{nid}/examples", {"text": text, "meta": {}}, expect=201), "id")
               for text in ("Acme Ltd and Bolt GmbH signed on 1 March 2026.",
                            "Payment of 5,000 EUR is due to Bolt GmbH.")]
    get(f"/projects/{nid}/examples")
    sentence = field(send("POST", f"/projects/{sid}/examples", {"text": "The cat sleeps.", "meta": {}},
                          expect=201), "id")
    get(f"/projects/{sid}/examples")

    # ---- g. annotations per example: categories, spans, relations, texts
    first, second = tickets[0], tickets[1]
    get(f"/projects/{tid}/examples/{first}/categories")
    cat = field(send("POST", f"/projects/{tid}/examples/{first}/categories", {"label": bid}, expect=201), "id")
    get(f"/projects/{tid}/examples/{first}/categories")
    get(f"/projects/{tid}/examples/{first}/categories/{cat}")
    send("PATCH", f"/projects/{tid}/examples/{first}/categories/{cat}", {"label": tech})
    get(f"/projects/{tid}/examples/{first}/categories/{cat}")
    # single-class: a second category replaces the first
    cat2 = field(send("POST", f"/projects/{tid}/examples/{first}/categories", {"label": bid}, expect=201), "id")
    get(f"/projects/{tid}/examples/{first}/categories")
    get(f"/projects/{tid}/examples/{first}/categories/{cat}", expect=404)
    send("POST", f"/projects/{tid}/examples/{second}/categories", {"label": 999}, expect=400)
    send("POST", f"/projects/{tid}/examples/{second}/categories", {"label": tech}, expect=201)
    get(f"/projects/{tid}/examples/{second}/categories")
    send("DELETE", f"/projects/{tid}/examples/{first}/categories/{cat2}", expect=204)
    get(f"/projects/{tid}/examples/{first}/categories")
    get(f"/projects/{tid}/examples", label="tech support")
    send("DELETE", f"/projects/{tid}/examples/{second}/categories", expect=204)
    get(f"/projects/{tid}/examples/{second}/categories")
    send("DELETE", f"/projects/{tid}/examples/{first}/categories/999", expect=404)

    clause = clauses[0]
    get(f"/projects/{nid}/examples/{clause}/spans")
    acme = field(send("POST", f"/projects/{nid}/examples/{clause}/spans",
                      {"label": party, "start_offset": 0, "end_offset": 8}, expect=201), "id")
    bolt = field(send("POST", f"/projects/{nid}/examples/{clause}/spans",
                      {"label": party, "start_offset": 13, "end_offset": 22}, expect=201), "id")
    when = field(send("POST", f"/projects/{nid}/examples/{clause}/spans",
                      {"label": date, "start_offset": 33, "end_offset": 45}, expect=201), "id")
    get(f"/projects/{nid}/examples/{clause}/spans")
    send("POST", f"/projects/{nid}/examples/{clause}/spans",
         {"label": party, "start_offset": 10, "end_offset": 4}, expect=400)
    send("POST", f"/projects/{nid}/examples/{clause}/spans",
         {"label": party, "start_offset": 2, "end_offset": 6}, expect=400)
    send("PATCH", f"/projects/{nid}/examples/{clause}/spans/{when}", {"start_offset": 32, "end_offset": 46})
    get(f"/projects/{nid}/examples/{clause}/spans/{when}")
    rel = field(send("POST", f"/projects/{nid}/examples/{clause}/relations",
                     {"from_id": acme, "to_id": when, "type": signs}, expect=201), "id")
    get(f"/projects/{nid}/examples/{clause}/relations")
    get(f"/projects/{nid}/examples/{clause}/relations/{rel}")
    send("PATCH", f"/projects/{nid}/examples/{clause}/relations/{rel}", {"from_id": bolt})
    get(f"/projects/{nid}/examples/{clause}/relations/{rel}")
    send("DELETE", f"/projects/{nid}/examples/{clause}/relations/{rel}", expect=204)
    get(f"/projects/{nid}/examples/{clause}/relations")
    send("DELETE", f"/projects/{nid}/examples/{clause}/spans/{bolt}", expect=204)
    get(f"/projects/{nid}/examples/{clause}/spans")
    get(f"/projects/{nid}/examples/{clause}/spans/{bolt}", expect=404)

    get(f"/projects/{sid}/examples/{sentence}/texts")
    text = field(send("POST", f"/projects/{sid}/examples/{sentence}/texts", {"text": "Le chat dort."},
                      expect=201), "id")
    get(f"/projects/{sid}/examples/{sentence}/texts")
    send("PATCH", f"/projects/{sid}/examples/{sentence}/texts/{text}", {"text": "Le chat est endormi."})
    get(f"/projects/{sid}/examples/{sentence}/texts/{text}")
    send("POST", f"/projects/{sid}/examples/{sentence}/texts", {"text": "Le chat dort."}, expect=201)
    get(f"/projects/{sid}/examples/{sentence}/texts")
    send("DELETE", f"/projects/{sid}/examples/{sentence}/texts/{text}", expect=204)
    get(f"/projects/{sid}/examples/{sentence}/texts")

    # ---- h. comments on examples
    get(f"/projects/{tid}/comments", example=str(first))
    com = field(call("POST", f"{API}/projects/{tid}/comments", params={"example": str(first)},
                     body={"text": "Customer called twice."}, expect=201)[1], "id")
    call("POST", f"{API}/projects/{tid}/comments", params={"example": str(second)},
         body={"text": "Needs a screenshot."}, expect=201)
    get(f"/projects/{tid}/comments")
    get(f"/projects/{tid}/comments", example=str(first))
    get(f"/projects/{tid}/comments/{com}")
    get(f"/projects/{tid}/examples/{first}")
    send("PATCH", f"/projects/{tid}/comments/{com}", {"text": "Customer called three times."})
    get(f"/projects/{tid}/comments/{com}")
    call("POST", f"{API}/projects/{tid}/comments", params={"example": str(first)}, body={"text": ""}, expect=400)
    send("DELETE", f"/projects/{tid}/comments/{com}", expect=204)
    get(f"/projects/{tid}/comments")
    get(f"/projects/{tid}/comments/{com}", expect=404)

    # ---- i. example states: confirming toggles
    get(f"/projects/{tid}/examples/{first}/states")
    send("POST", f"/projects/{tid}/examples/{first}/states", {}, expect=201)
    get(f"/projects/{tid}/examples/{first}/states")
    get(f"/projects/{tid}/examples/{first}")
    get(f"/projects/{tid}/examples", confirmed="true")
    get(f"/projects/{tid}/examples", confirmed="false")
    send("POST", f"/projects/{tid}/examples/{second}/states", {}, expect=201)
    send("POST", f"/projects/{tid}/examples/{first}/states", {}, expect=201)
    get(f"/projects/{tid}/examples/{first}/states")
    get(f"/projects/{tid}/examples/{first}")
    get(f"/projects/{tid}/examples", confirmed="true")

    # ---- j. what roles forbid, and what is missing
    get("/projects/1/examples", token=annotator)
    get(f"/projects/{tid}", expect=403, token=annotator)
    send("POST", "/projects/1/category-types", {"text": "neutral", "background_color": "#9e9e9e"},
         expect=403, token=annotator)
    send("PATCH", "/projects/1", {"name": "Renamed by annotator"}, expect=403, token=annotator)
    send("POST", "/projects", {"name": "Mine", "project_type": "Seq2seq", "resourcetype": "Seq2seqProject"},
         expect=403, token=annotator)
    send("DELETE", "/projects/1/examples/1", expect=403, token=annotator)
    get("/projects/1/members", expect=403, token=annotator)
    send("POST", "/projects/1/examples/1/categories", {"label": 2}, expect=201, token=annotator)
    get("/projects/1/examples/1/categories", token=annotator)
    get("/projects/1/examples/1/categories")
    get(f"/projects/{tid}/examples/99", expect=404)
    get("/projects/99/examples", expect=404)
    get("/projects/1/category-types/99", expect=404)
    get("/projects/2/relation-types/99", expect=404)
    get("/me", expect=403, token="0000000000000000000000000000000000000000")

    # ---- k. the seed after it all: project 1's items changed and read back
    send("PATCH", "/projects/1", {"description": "Sentiment of short movie reviews (2026)"})
    get("/projects/1")
    send("PATCH", "/projects/1/examples/3", {"text": "The soundtrack carries a thin, predictable plot."})
    get("/projects/1/examples/3")
    send("PATCH", "/projects/1/category-types/2", {"text_color": "#000000"})
    get("/projects/1/category-types")
    send("DELETE", "/projects/1/examples/1/categories/1", expect=204)
    get("/projects/1/examples/1/categories")
    send("PATCH", "/projects/1/members/2", {"role": 3})
    get("/projects/1/members")
    send("DELETE", "/projects/3/examples/7/texts/1", expect=204)
    get("/projects/3/examples/7/texts")
    send("DELETE", "/projects", {"ids": [sid]}, expect=204)
    get("/projects")
    get(f"/projects/{sid}/examples", expect=404)


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18401")
