#!/usr/bin/env python3
"""Scenario driver for pretalx 2026.2.1's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43131 --mode capture [-v]

Every call sends the seeded API token (token.txt) as `Authorization: Token ...`, no cookie. The
seed (seed_db.py and seed.py, run by start.sh, not recorded) and its fixed ids are in seed.py's
docstring. Lists answer DRF pages {count, next, previous, results} (`page`, `page_size`), creates
201 with the entity, updates (PATCH, PUT) 200 with it, deletes 204 with no body, validation errors
400 {field: [messages]}, missing ids 404 {"detail": "No Room matches the given query."}.
Submissions and speakers are addressed by their code. Every call is sequential, with a random
50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
E = "/api/events/capcon27"
M = "/api/events/capmeet27"


def ml(en, de=None):
    return {"en": en} if de is None else {"en": en, "de": de}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Token")


def capture(d):
    call, check, get = d.call, d.check, d.get

    def post(path, body, expect=201):
        return call("POST", path, body, expect=expect)[1]

    def patch(path, body, expect=200):
        return call("PATCH", path, body, expect=expect)[1]

    def put(path, body, expect=200):
        return call("PUT", path, body, expect=expect)[1]

    def delete(path, expect=204):
        return call("DELETE", path, expect=expect)[1]

    # ---- a. the events and every collection before any write (1-)
    get("/api/events/")
    get(E + "/")
    get(M + "/")
    for coll in ("rooms", "tracks", "tags", "submission-types", "questions", "question-options",
                 "submissions", "speakers", "answers"):
        get(E + f"/{coll}/")
    for coll in ("rooms", "tracks", "submission-types", "submissions"):
        get(M + f"/{coll}/")
    for path in ("/rooms/1/", "/tracks/2/", "/tags/1/", "/submission-types/3/", "/questions/1/",
                 "/question-options/2/", "/submissions/PTXA01/", "/speakers/SPKBEA/"):
        get(E + path)
    get(M + "/rooms/3/")
    # absences: missing ids, ids of the other event, odd ids
    get(E + "/rooms/99/", expect=404)
    get(E + "/rooms/3/", expect=404)       # the meetup's room under the conference
    get(M + "/rooms/1/", expect=404)
    get(E + "/tracks/42/", expect=404)
    get(E + "/submissions/NOPE99/", expect=404)
    get(E + "/speakers/NOBODY/", expect=404)
    get(E + "/rooms/abc/", expect=404)
    # pages, filters, expansions
    get(E + "/tracks/", page_size="1")
    get(E + "/tracks/", page_size="1", page="2")
    get(E + "/submissions/", state="submitted")
    get(E + "/submissions/", track="2")
    get(E + "/submissions/", expand="track,submission_type")
    get(E + "/submissions/PTXB02/", expand="speakers")
    get(E + "/questions/", target="speaker")
    get(E + "/question-options/", question="1")
    get(E + "/questions/1/", expand="options")

    # ---- b. rooms: create, read, PATCH, PUT, errors, delete
    room = post(E + "/rooms/", {"name": ml("Lab", "Labor"), "capacity": 24, "position": 2,
                                "description": ml("Laptops provided", "Laptops vorhanden")})
    rid = room["id"]
    get(E + f"/rooms/{rid}/")
    get(E + "/rooms/")
    patch(E + f"/rooms/{rid}/", {"capacity": 30})
    get(E + f"/rooms/{rid}/")
    put(E + f"/rooms/{rid}/", {"name": ml("Lab 1", "Labor 1"), "capacity": 28, "position": 3})
    get(E + f"/rooms/{rid}/")
    patch(E + f"/rooms/{rid}/", {"name": ml("Lab One", "Labor Eins")})
    get(E + f"/rooms/{rid}/")
    post(E + "/rooms/", {"capacity": 10}, expect=400)                       # missing name
    post(E + "/rooms/", {"name": ml("Broken"), "capacity": "many"}, expect=400)  # wrong type
    patch(E + f"/rooms/{rid}/", {"capacity": "lots"}, expect=400)
    get(E + f"/rooms/{rid}/")
    patch(E + "/rooms/99/", {"capacity": 5}, expect=404)
    tmp = post(E + "/rooms/", {"name": ml("Storage"), "capacity": 4})
    get(E + f"/rooms/{tmp['id']}/")
    delete(E + f"/rooms/{tmp['id']}/")
    get(E + f"/rooms/{tmp['id']}/", expect=404)
    delete(E + f"/rooms/{tmp['id']}/", expect=404)
    get(E + "/rooms/")

    # ---- c. tracks
    track = post(E + "/tracks/", {"name": ml("Operations", "Betrieb"), "color": "#17becf", "position": 2})
    tid = track["id"]
    get(E + f"/tracks/{tid}/")
    get(E + "/tracks/")
    patch(E + f"/tracks/{tid}/", {"color": "#8c564b", "description": ml("Running things", "Betreiben")})
    get(E + f"/tracks/{tid}/")
    put(E + f"/tracks/{tid}/", {"name": ml("Ops", "Betrieb"), "color": "#8c564b", "position": 4})
    get(E + f"/tracks/{tid}/")
    post(E + "/tracks/", {"name": ml("Bad colour"), "color": "red"}, expect=400)
    post(E + "/tracks/", {"color": "#000000"}, expect=400)
    patch(E + "/tracks/2/", {"position": 5})
    get(E + "/tracks/2/")
    get(E + "/tracks/", page_size="2")
    get(E + "/tracks/", page_size="2", page="2")

    # ---- d. tags
    tag = post(E + "/tags/", {"tag": "advanced", "color": "#bcbd22", "is_public": True,
                              "description": ml("Deep dives", "Vertiefung")})
    gid = tag["id"]
    get(E + f"/tags/{gid}/")
    get(E + "/tags/")
    patch(E + f"/tags/{gid}/", {"color": "#7f7f7f", "is_public": False})
    get(E + f"/tags/{gid}/")
    post(E + "/tags/", {"tag": "nocolour"}, expect=400)
    post(E + "/tags/", {"tag": "badcolour", "color": "blue"}, expect=400)
    tmp = post(E + "/tags/", {"tag": "temporary", "color": "#000000"})
    delete(E + f"/tags/{tmp['id']}/")
    get(E + f"/tags/{tmp['id']}/", expect=404)
    get(E + "/tags/")

    # ---- e. submission types
    st = post(E + "/submission-types/", {"name": ml("Lightning talk", "Blitzvortrag"), "default_duration": 5})
    sid = st["id"]
    get(E + f"/submission-types/{sid}/")
    get(E + "/submission-types/")
    patch(E + f"/submission-types/{sid}/", {"default_duration": 10})
    get(E + f"/submission-types/{sid}/")
    put(E + f"/submission-types/{sid}/", {"name": ml("Lightning", "Blitz"), "default_duration": 10,
                                          "requires_access_code": False})
    get(E + f"/submission-types/{sid}/")
    post(E + "/submission-types/", {"name": ml("No duration"), "default_duration": "long"}, expect=400)
    post(E + "/submission-types/", {"default_duration": 20}, expect=400)
    get(E + "/submission-types/999/", expect=404)

    # ---- f. questions and their options
    q = post(E + "/questions/", {"question": ml("T-shirt size", "T-Shirt-Größe"), "identifier": "SHIRT",
                                 "variant": "choices", "target": "speaker", "position": 2,
                                 "question_required": "optional"})
    qid = q["id"]
    get(E + f"/questions/{qid}/")
    get(E + "/questions/")
    patch(E + f"/questions/{qid}/", {"help_text": ml("For the speaker gift", "Für das Geschenk"), "position": 3})
    get(E + f"/questions/{qid}/")
    post(E + "/questions/", {"question": ml("Odd"), "variant": "bogus", "target": "submission"}, expect=400)
    post(E + "/questions/", {"question": ml("Odd target"), "variant": "string", "target": "nowhere"}, expect=400)
    post(E + "/questions/", {"variant": "string", "target": "submission"}, expect=400)
    opt = post(E + "/question-options/", {"question": qid, "answer": ml("M"), "position": 0})
    oid = opt["id"]
    get(E + f"/question-options/{oid}/")
    post(E + "/question-options/", {"question": qid, "answer": ml("L"), "position": 1})
    get(E + "/question-options/", question=str(qid))
    patch(E + f"/question-options/{oid}/", {"answer": ml("Medium", "Mittel")})
    get(E + f"/question-options/{oid}/")
    get(E + f"/questions/{qid}/")
    post(E + "/question-options/", {"question": 2, "answer": ml("Not a choice question")}, expect=400)
    delete(E + f"/question-options/{oid}/")
    get(E + f"/question-options/{oid}/", expect=404)
    get(E + "/question-options/")
    patch(E + "/questions/2/", {"question_required": "required"})
    get(E + "/questions/2/")
    patch(E + "/questions/2/", {"question_required": "sometimes"}, expect=400)

    # ---- g. submissions (server-made codes)
    sub = post(E + "/submissions/", {"title": "Rust for Pythonistas", "submission_type": 1, "track": 1,
                                     "tags": [gid], "abstract": "Ownership without tears.",
                                     "content_locale": "en"})
    code = sub["code"]
    get(E + f"/submissions/{code}/")
    get(E + "/submissions/")
    patch(E + f"/submissions/{code}/", {"title": "Rust for Python people", "duration": 45})
    get(E + f"/submissions/{code}/")
    patch(E + f"/submissions/{code}/", {"tags": [1, gid], "track": tid})
    get(E + f"/submissions/{code}/")
    get(E + "/submissions/", track=str(tid))
    post(E + "/submissions/", {"title": "No type", "abstract": "x"}, expect=400)
    post(E + "/submissions/", {"title": "Bad track", "submission_type": 1, "track": 999}, expect=400)
    post(E + "/submissions/", {"title": "Bad type", "submission_type": "talk"}, expect=400)
    patch(E + f"/submissions/{code}/", {"duration": "forever"}, expect=400)
    patch(E + "/submissions/NOPE99/", {"title": "x"}, expect=404)
    patch(E + "/submissions/PTXB02/", {"abstract": "Selectors, cascade, layers, container queries."})
    get(E + "/submissions/PTXB02/")
    tmp = post(E + "/submissions/", {"title": "Withdrawn idea", "submission_type": sid, "abstract": "Soon gone.",
                                     "content_locale": "en"})
    get(E + f"/submissions/{tmp['code']}/")
    delete(E + f"/submissions/{tmp['code']}/")
    get(E + f"/submissions/{tmp['code']}/", expect=404)
    get(E + "/submissions/")

    # ---- h. speakers (no create; PATCH only)
    patch(E + "/speakers/SPKALI/", {"biography": "Writes databases for fun."})
    get(E + "/speakers/SPKALI/")
    patch(E + "/speakers/SPKBEA/", {"name": "Bea Lund-Okafor"})
    get(E + "/speakers/SPKBEA/")
    get(E + "/speakers/")
    patch(E + "/speakers/NOBODY/", {"biography": "x"}, expect=404)

    # ---- i. answers
    ans = post(E + "/answers/", {"question": 1, "submission": "PTXA01", "answer": "Experts", "options": [2]})
    get(E + "/answers/")
    check("answer echoes its question", ans.get("question"), 1)
    post(E + "/answers/", {"question": 999, "submission": "PTXA01", "answer": "x"}, expect=400)

    # ---- j. the meetup event
    mroom = post(M + "/rooms/", {"name": ml("Side room", "Nebenraum"), "capacity": 30})
    get(M + f"/rooms/{mroom['id']}/")
    get(E + f"/rooms/{mroom['id']}/", expect=404)
    get(M + "/rooms/")
    patch(M + "/tracks/3/", {"color": "#e377c2"})
    get(M + "/tracks/3/")
    patch(M + "/tracks/1/", {"color": "#e377c2"}, expect=404)

    # ---- k. deletes of what others name, then the final state
    delete(E + f"/tracks/{tid}/", expect=400)   # still named by a submission
    get(E + f"/tracks/{tid}/")
    delete(E + f"/submissions/{code}/")
    delete(E + f"/tracks/{tid}/")
    get(E + f"/tracks/{tid}/", expect=404)
    delete(E + f"/tags/{gid}/")
    get(E + f"/tags/{gid}/", expect=404)
    get(E + "/submissions/PTXA01/")
    delete(E + f"/rooms/{rid}/")
    delete(E + f"/submission-types/{sid}/")
    get(E + f"/submission-types/{sid}/", expect=404)
    delete(E + f"/questions/{qid}/")
    get(E + f"/questions/{qid}/", expect=404)
    for coll in ("rooms", "tracks", "tags", "submission-types", "questions", "question-options",
                 "submissions", "speakers"):
        get(E + f"/{coll}/")
    check("token set", bool(TOKEN), True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43131")
