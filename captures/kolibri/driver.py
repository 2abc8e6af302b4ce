#!/usr/bin/env python3
"""Scenario driver for Kolibri 0.19.5's JSON API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18301 --mode capture [-v]

Kolibri authenticates by session only: every call sends the admin's fixed throwaway session
(`Cookie: kolibri=...; kolibri_csrftoken=...`, seed.py fixes both) and the CSRF token as
`X-CSRFToken`, as Kolibri's own frontend does; a few calls go as learner lena (her own fixed
session) or with no cookie at all (403). The cookie jar is cleared after every call. Paths end in
a slash (`/api/auth/classroom/<id>/`); ids are 32-hex uuids without dashes, a draft quiz's an
integer. Lists are bare arrays filtered by query (`parent`, `member_of`, `user`, `collection`),
the users' list a page `{page, count, total_pages, results}` when `page_size` is sent. Creates
answer 201, updates (PATCH, PUT) 200, deletes 204 with no body, validation errors 400
`[{"id": CODE, "metadata": {"field", "message"}}]`, a missing id 404 `[{"id": "NOT_FOUND", ...}]`.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

CSRF = "capenv0kolibri0throwaway0csrf0token00000000000000000000000000001"
ADMIN_SESSION = "capenv0kolibri0throwaway0admin0session"
LENA_SESSION = "capenv0kolibri0throwaway0lena0session"
MISSING = "0123456789abcdef0123456789abcdef"


def session_headers(session):
    return {"Cookie": f"kolibri={session}; kolibri_csrftoken={CSRF}", "X-CSRFToken": CSRF}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=None, headers=session_headers(ADMIN_SESSION))


def capture(d):
    call, check, get = d.call, d.check, d.get

    def send(method, path, body=None, expect=200):
        return call(method, path, body=body, expect=expect)[1]

    def by_name(answer, key, value):
        return next(item["id"] for item in answer if item[key] == value)

    users, classes, groups = "/api/auth/facilityuser/", "/api/auth/classroom/", "/api/auth/learnergroup/"
    memberships, roles = "/api/auth/membership/", "/api/auth/role/"
    lessons, exams = "/api/lessons/lesson/", "/api/exams/exam/"

    # ---- a. reads before any write: the facility, its users, classroom, group, roles, lesson, quiz
    facility = get("/api/auth/facility/")[0]["id"]
    get(f"/api/auth/facility/{facility}/")
    seeded = get(users, member_of=facility)
    lena, marco = by_name(seeded, "username", "lena"), by_name(seeded, "username", "marco")
    sara, ruth = by_name(seeded, "username", "sara"), by_name(seeded, "username", "ruth")
    for user in (lena, marco, sara, ruth):
        get(f"{users}{user}/")
    get(users, member_of=facility, page=1, page_size=3, ordering="username")
    get(users, member_of=facility, page=2, page_size=3, ordering="username")
    get(users, member_of=facility, user_type="learner")
    get(users, member_of=facility, search="ma")
    class4a = get(classes, parent=facility)[0]["id"]
    get(f"{classes}{class4a}/")
    get(users, member_of=class4a)
    readers = get(groups, parent=class4a)[0]["id"]
    get(f"{groups}{readers}/")
    get(users, member_of=readers)
    get(memberships, user=lena)
    get(memberships, collection=class4a)
    get(roles, collection=class4a)
    get(roles, user=ruth)
    fractions = get(lessons, collection=class4a)[0]["id"]
    get(f"{lessons}{fractions}/")
    quiz = get(exams, collection=class4a)[0]["id"]
    get(f"{exams}{quiz}/")

    # ---- b. users: create learners and a coach, read them back, rename, new passwords, delete
    def create_user(username, full_name, password):
        made = send("POST", users, {"username": username, "full_name": full_name, "password": password,
                                    "facility": facility}, expect=201)
        get(f"{users}{made['id']}/")
        return made["id"]

    nina = create_user("nina", "Nina Petrova", "capenv-nina-pass")
    omar = create_user("omar", "Omar Haddad", "capenv-omar-pass")
    pia = create_user("pia", "Pia Svensson", "capenv-pia-pass")
    tess = create_user("tess", "Tess Moreau", "capenv-tess-pass")
    send("POST", users, {"username": "gabriel", "full_name": "Gabriel Lima", "password": "capenv-gabriel-pass",
                         "facility": facility, "gender": "MALE", "birth_year": "2012",
                         "id_number": "S-1042"}, expect=201)
    check("users after creates", len(get(users, member_of=facility)), 10)
    send("POST", users, {"username": "nina", "full_name": "Another Nina", "password": "capenv-x-pass",
                         "facility": facility}, expect=400)  # the username is taken
    send("POST", users, {"full_name": "No Username", "password": "capenv-x-pass", "facility": facility},
         expect=400)
    send("POST", users, {"username": "bad name!", "full_name": "Bad", "password": "capenv-x-pass",
                         "facility": facility}, expect=400)
    get(users, member_of=facility, search="nina")
    send("PATCH", f"{users}{nina}/", {"full_name": "Nina Petrova-Ivanova"})
    get(f"{users}{nina}/")
    send("PATCH", f"{users}{omar}/", {"password": "capenv-omar-new-pass"})
    get(f"{users}{omar}/")
    send("PATCH", f"{users}{omar}/", {"gender": "MALE", "birth_year": "2011"})
    get(f"{users}{omar}/")
    send("PATCH", f"{users}{pia}/", {"username": "pia_s", "full_name": "Pia Svensson"})
    get(f"{users}{pia}/")
    send("PATCH", f"{users}{pia}/", {"username": "lena"}, expect=400)  # taken
    send("PATCH", f"{users}{pia}/", {"username": "pia s"}, expect=400)  # letters, digits and underscores only
    send("PATCH", f"{users}{omar}/", {"username": "omar_h2"})
    get(f"{users}{omar}/")
    get(f"{users}{pia}/")
    send("PUT", f"{users}{tess}/", {"username": "tess", "full_name": "Tess Moreau-Blanc", "password": "capenv-tess-2",
                                    "facility": facility})
    get(f"{users}{tess}/")
    send("PUT", f"{users}{tess}/", {"username": "tess", "full_name": "Tess M."}, expect=400)  # no password
    send("PATCH", f"{users}{MISSING}/", {"full_name": "Nobody"}, expect=404)
    get(f"{users}{MISSING}/", expect=404)
    send("DELETE", f"{users}{tess}/", expect=204)
    get(f"{users}{tess}/", expect=404)
    send("DELETE", f"{users}{tess}/", expect=404)
    check("users after the delete", len(get(users, member_of=facility)), 9)
    send("PATCH", f"{users}{sara}/", {"full_name": "Sara Lind-Berg"})
    get(users, member_of=facility, ordering="-username")

    # ---- c. classrooms: create, rename (PATCH and PUT), errors
    class5b = send("POST", classes, {"name": "Class 5B", "parent": facility}, expect=201)["id"]
    get(f"{classes}{class5b}/")
    check("classrooms", len(get(classes, parent=facility)), 2)
    send("POST", classes, {"name": "Class 5B", "parent": facility}, expect=400)  # the name is taken
    send("POST", classes, {"name": "", "parent": facility}, expect=400)
    send("POST", classes, {"name": "No parent"}, expect=403)  # no facility to check the permission on
    send("PATCH", f"{classes}{class5b}/", {"name": "Class 5B (science)"})
    get(f"{classes}{class5b}/")
    send("PUT", f"{classes}{class5b}/", {"name": "Class 5 Blue", "parent": facility})
    get(f"{classes}{class5b}/")
    send("PATCH", f"{classes}{class5b}/", {"name": "Class 4A"}, expect=400)  # another class's name
    send("PATCH", f"{classes}{MISSING}/", {"name": "Nowhere"}, expect=404)
    get(f"{classes}{MISSING}/", expect=404)
    get(classes, parent=facility)

    # ---- d. learner groups of a classroom
    blue_readers = send("POST", groups, {"name": "Blue readers", "parent": class5b}, expect=201)["id"]
    get(f"{groups}{blue_readers}/")
    writers = send("POST", groups, {"name": "Writers", "parent": class5b}, expect=201)["id"]
    get(f"{groups}{writers}/")
    check("groups of 5B", len(get(groups, parent=class5b)), 2)
    send("POST", groups, {"name": "Writers", "parent": class5b}, expect=400)  # taken in this class
    send("POST", groups, {"name": "Writers", "parent": class4a}, expect=201)  # free in another class
    send("POST", groups, {"name": "", "parent": class5b}, expect=400)
    send("PATCH", f"{groups}{writers}/", {"name": "Young writers"})
    get(f"{groups}{writers}/")
    send("PUT", f"{groups}{blue_readers}/", {"name": "Blue readers 2", "parent": class5b})
    get(f"{groups}{blue_readers}/")
    get(groups, parent=class5b)
    get(groups, parent=class4a)
    send("PATCH", f"{groups}{MISSING}/", {"name": "None"}, expect=404)

    # ---- e. memberships: learners into the classroom and its groups, reads after, removals
    def join(user, collection, expect=201):
        made = send("POST", memberships, {"user": user, "collection": collection}, expect=expect)
        return made.get("id") if isinstance(made, dict) else None

    nina_in_5b = join(nina, class5b)
    get(f"{memberships}{nina_in_5b}/")
    omar_in_5b = join(omar, class5b)
    gabriel = by_name(get(users, member_of=facility, search="gabriel"), "username", "gabriel")
    join(gabriel, class5b)
    get(users, member_of=class5b)
    get(f"{classes}{class5b}/")
    nina_in_writers = join(nina, writers)
    get(f"{groups}{writers}/")
    get(users, member_of=writers)
    join(nina, class5b, expect=500)  # already a member: Kolibri 0.19.5 answers 500 (an IntegrityError)
    join(omar, blue_readers)
    get(memberships, user=nina)
    get(memberships, collection=class5b)
    get(groups, parent=class5b)
    send("DELETE", f"{memberships}{nina_in_writers}/", expect=204)
    get(f"{memberships}{nina_in_writers}/", expect=404)
    get(f"{groups}{writers}/")
    send("DELETE", f"{memberships}{nina_in_writers}/", expect=404)
    send("DELETE", f"{memberships}{omar_in_5b}/", expect=204)
    get(memberships, collection=class5b)
    get(f"{classes}{class5b}/")
    join(marco, readers)
    get(f"{groups}{readers}/")

    # ---- f. roles: a coach for a classroom, the facility's coaches, removal
    send("POST", roles, {"user": pia, "collection": facility, "kind": "classroom assignable coach"}, expect=201)
    pia_coach = send("POST", roles, {"user": pia, "collection": class5b, "kind": "coach"}, expect=201)["id"]
    get(f"{roles}{pia_coach}/")
    get(roles, collection=class5b)
    get(roles, user=pia)
    get(f"{classes}{class5b}/")
    get(f"{users}{pia}/")
    send("POST", roles, {"user": pia, "collection": class5b, "kind": "coach"}, expect=500)  # already: 500 too
    ruth_coach_5b = send("POST", roles, {"user": ruth, "collection": class5b, "kind": "coach"}, expect=201)["id"]
    get(f"{classes}{class5b}/")
    send("DELETE", f"{roles}{ruth_coach_5b}/", expect=204)
    get(f"{roles}{ruth_coach_5b}/", expect=404)
    get(roles, collection=class5b)
    get(f"{classes}{class5b}/")
    send("DELETE", f"{roles}{MISSING}/", expect=404)

    # ---- g. lessons of a classroom (no content channel: lessons without resources)
    plants = send("POST", lessons, {"title": "Plants", "description": "How plants grow", "collection": class5b,
                                    "resources": [], "active": False, "assignments": [class5b]}, expect=201)["id"]
    get(f"{lessons}{plants}/")
    soil = send("POST", lessons, {"title": "Soil", "description": "", "collection": class5b, "resources": [],
                                  "active": False, "assignments": [writers]}, expect=201)["id"]
    get(f"{lessons}{soil}/")
    get(lessons, collection=class5b)
    send("POST", lessons, {"title": "", "collection": class5b, "resources": [], "assignments": []}, expect=400)
    send("POST", lessons, {"title": "Plants", "description": "", "collection": class5b, "resources": [],
                           "assignments": [class5b]}, expect=400)  # the title is taken in this class
    send("PATCH", f"{lessons}{plants}/", {"title": "Plants and light"})
    get(f"{lessons}{plants}/")
    send("PATCH", f"{lessons}{plants}/", {"active": True})
    get(f"{lessons}{plants}/")
    send("PATCH", f"{lessons}{soil}/", {"description": "What soil is made of"})
    get(f"{lessons}{soil}/")
    send("PATCH", f"{lessons}{MISSING}/", {"title": "None"}, expect=404)
    send("DELETE", f"{lessons}{soil}/", expect=204)
    get(f"{lessons}{soil}/", expect=404)
    get(lessons, collection=class5b)
    get(lessons)

    # ---- h. draft quizzes of a classroom (no content: no questions)
    def quiz_body(title, collection, assignments):
        return {"title": title, "collection": collection, "question_count": 0, "question_sources": [],
                "assignments": assignments, "learners_see_fixed_order": False, "data_model_version": 3}

    leaves = send("POST", exams, quiz_body("Quiz: leaves", class5b, [class5b]), expect=201)["id"]
    get(f"{exams}{leaves}/")
    roots = send("POST", exams, quiz_body("Quiz: roots", class5b, [class5b]), expect=201)["id"]
    get(f"{exams}{roots}/")
    get(exams, collection=class5b)
    send("POST", exams, quiz_body("", class5b, [class5b]), expect=400)
    send("PATCH", f"{exams}{leaves}/", {"title": "Quiz: leaves and stems"})
    get(f"{exams}{leaves}/")
    send("PATCH", f"{exams}{leaves}/", {"learners_see_fixed_order": True})
    get(f"{exams}{leaves}/")
    send("DELETE", f"{exams}{roots}/", expect=204)
    get(f"{exams}{roots}/", expect=404)
    get(exams, collection=class5b)
    get(f"{exams}999/", expect=404)

    # ---- i. another caller: learner lena may read her own data but change nothing; no session: 403
    lena_calls = session_headers(LENA_SESSION)
    call("GET", f"{users}{lena}/", expect=200, headers=lena_calls)
    call("GET", classes, expect=200, headers=lena_calls)
    call("POST", classes, body={"name": "Lena's class", "parent": facility}, expect=403, headers=lena_calls)
    call("PATCH", f"{users}{marco}/", body={"full_name": "Marco R."}, expect=403, headers=lena_calls)
    call("DELETE", f"{groups}{readers}/", expect=403, headers=lena_calls)
    call("GET", classes, expect=200, headers={"Cookie": "", "X-CSRFToken": ""})  # anonymous: an empty list
    call("POST", classes, body={"name": "Anonymous", "parent": facility}, expect=403,
         headers={"Cookie": "", "X-CSRFToken": ""})
    get(classes, parent=facility)

    # ---- j. deletes with things under them: a group, a classroom (its groups, memberships, roles,
    # lessons and quizzes go with it), users
    send("DELETE", f"{groups}{blue_readers}/", expect=204)
    get(f"{groups}{blue_readers}/", expect=404)
    get(memberships, user=omar)
    get(groups, parent=class5b)
    temp = send("POST", classes, {"name": "Summer camp", "parent": facility}, expect=201)["id"]
    campers = send("POST", groups, {"name": "Campers", "parent": temp}, expect=201)["id"]
    camp_membership = join(sara, temp)
    join(sara, campers)
    camp_coach = send("POST", roles, {"user": ruth, "collection": temp, "kind": "coach"}, expect=201)["id"]
    camp_lesson = send("POST", lessons, {"title": "Knots", "description": "", "collection": temp, "resources": [],
                                         "active": False, "assignments": [temp]}, expect=201)["id"]
    get(f"{classes}{temp}/")
    get(memberships, user=sara)
    send("DELETE", f"{classes}{temp}/", expect=204)
    get(f"{classes}{temp}/", expect=404)
    get(f"{groups}{campers}/", expect=404)
    get(f"{memberships}{camp_membership}/", expect=404)
    get(memberships, user=sara)
    get(f"{roles}{camp_coach}/", expect=404)
    get(roles, user=ruth)
    get(f"{lessons}{camp_lesson}/", expect=404)
    get(classes, parent=facility)
    send("DELETE", f"{classes}{temp}/", expect=404)
    # a user's delete is soft (she moves to /api/auth/deleteduser/): her memberships and roles stay
    send("DELETE", f"{users}{nina}/", expect=204)
    get(f"{users}{nina}/", expect=404)
    get(f"{memberships}{nina_in_5b}/")
    get(memberships, collection=class5b)
    get(users, member_of=class5b)
    send("DELETE", f"{users}{pia}/", expect=204)
    get(f"{roles}{pia_coach}/")
    get(roles, collection=class5b)
    get(f"{classes}{class5b}/")

    # ---- k. reads after every write
    check("users at the end", len(get(users, member_of=facility)), 7)
    get(classes, parent=facility)
    get(groups, parent=class4a)
    get(groups, parent=class5b)
    get(memberships, collection=class4a)
    get(roles)
    get(lessons)
    get(exams)


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18301")
