#!/usr/bin/env python3
"""Scenario driver for Redmine 5.0.4's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42701 --mode capture [-v]

Every call sends the admin's throwaway API key (api-key.txt) in `X-Redmine-API-Key`, no cookie.
The seed (seed.py, run by start.sh, not recorded) and its fixed ids are in seed.py's docstring.
Paths end in `.json`; bodies and answers wrap the entity in its root key ({"issue": {...}}); lists
answer {"<plural>": [...], "total_count", "offset", "limit"}. Creates answer 201 with the entity,
updates and deletes 204 with no body, validation errors 422 {"errors": [...]}, absences 404 with no body.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = (Path(__file__).resolve().parent / "api-key.txt").read_text().strip()
NEVER = 999  # an id no entity of any type ever has


class RedmineDriver(Driver):
    """The kit's driver with Redmine's API key header on every call."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, **kwargs):
        headers = {"X-Redmine-API-Key": API_KEY, **(kwargs.pop("headers", None) or {})}
        return super().call(method, path, body=body, raw=raw, params=params, expect=expect,
                            headers=headers, token=None, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return RedmineDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    get = d.get

    def create(path, root, body, expect=201):
        answer = call("POST", path, {root: body}, expect=expect)[1]
        return answer[root]["id"] if isinstance(answer, dict) and root in answer else None

    def update(path, root, body, expect=204):
        return call("PUT", path, {root: body}, expect=expect)[1]

    # ---- a. reads before any write: references, every list and item of the seed, absences
    for path in ("/trackers.json", "/issue_statuses.json", "/enumerations/issue_priorities.json",
                 "/enumerations/time_entry_activities.json", "/roles.json"):
        get(path)
    get("/projects.json")
    for ref in (1, "apollo", 2, "gemini", 3, "mercury"):
        get(f"/projects/{ref}.json")
    get("/issues.json")                        # open issues only: Redmine's default filter
    get("/issues.json", status_id="*")
    for issue in range(1, 7):
        get(f"/issues/{issue}.json")
    get("/projects/apollo/versions.json")
    get("/projects/gemini/versions.json")
    for version in (1, 2, 3):
        get(f"/versions/{version}.json")
    get("/projects/apollo/issue_categories.json")
    get("/projects/gemini/issue_categories.json")
    for category in (1, 2, 3):
        get(f"/issue_categories/{category}.json")
    get("/projects/apollo/memberships.json")
    get("/projects/gemini/memberships.json")
    for membership in (1, 2, 3):
        get(f"/memberships/{membership}.json")
    get("/time_entries.json")
    for entry in (1, 2, 3):
        get(f"/time_entries/{entry}.json")
    get("/users.json")
    for user in (5, 6):
        get(f"/users/{user}.json")
    get(f"/issues/{NEVER}.json", 404)
    get(f"/projects/{NEVER}.json", 404)
    get("/projects/vostok.json", 404)          # an identifier no project has
    get(f"/versions/{NEVER}.json", 404)
    get(f"/issue_categories/{NEVER}.json", 404)
    get(f"/time_entries/{NEVER}.json", 404)
    get(f"/users/{NEVER}.json", 404)
    get("/versions/5.json", 404)               # 5: an issue's and a user's id, no version's
    get("/projects/6.json", 404)               # 6: an issue's id, no project's
    get("/issue_categories/4.json", 404)       # 4: an issue's id, no category's

    # ---- b. creates, each followed by its item read and a list read
    p4 = create("/projects.json", "project", {"name": "Skylab", "identifier": "skylab",
                                              "description": "Orbital workshop.", "is_public": True})
    get(f"/projects/{p4}.json")
    get("/projects/skylab.json")
    get("/projects.json")
    p5 = create("/projects.json", "project", {"name": "Artemis", "identifier": "artemis"})
    get(f"/projects/{p5}.json")
    get("/projects.json")
    p6 = create("/projects.json", "project", {"name": "Skylab ground", "identifier": "skylab-ground",
                                              "parent_id": p4, "is_public": False})
    get("/projects/skylab-ground.json")
    get("/projects.json")

    v4 = create("/projects/skylab/versions.json", "version", {"name": "SL-1", "status": "open",
                                                             "due_date": "2027-05-14"})
    get(f"/versions/{v4}.json")
    get("/projects/skylab/versions.json")
    v5 = create(f"/projects/{p4}/versions.json", "version", {"name": "SL-2", "description": "First crew"})
    get(f"/versions/{v5}.json")
    v6 = create("/projects/apollo/versions.json", "version", {"name": "3.0", "sharing": "system"})
    get(f"/versions/{v6}.json")
    get("/projects/apollo/versions.json")

    c4 = create("/projects/skylab/issue_categories.json", "issue_category", {"name": "Solar arrays"})
    get(f"/issue_categories/{c4}.json")
    get("/projects/skylab/issue_categories.json")
    c5 = create("/projects/apollo/issue_categories.json", "issue_category", {"name": "Telemetry",
                                                                           "assigned_to_id": 6})
    get(f"/issue_categories/{c5}.json")
    get("/projects/apollo/issue_categories.json")

    m4 = create("/projects/skylab/memberships.json", "membership", {"user_id": 5, "role_ids": [4]})
    get(f"/memberships/{m4}.json")
    get("/projects/skylab/memberships.json")
    m5 = create("/projects/gemini/memberships.json", "membership", {"user_id": 6, "role_ids": [4, 5]})
    get(f"/memberships/{m5}.json")
    get("/projects/gemini/memberships.json")

    i7 = create("/issues.json", "issue", {"project_id": p4, "tracker_id": 1, "subject": "Meteoroid shield lost",
                                          "description": "Torn off during launch.", "priority_id": 5,
                                          "category_id": c4, "fixed_version_id": v4, "assigned_to_id": 5,
                                          "estimated_hours": 12, "due_date": "2027-05-25"})
    get(f"/issues/{i7}.json")
    get("/issues.json", project_id="skylab")
    i8 = create("/issues.json", "issue", {"project_id": 1, "tracker_id": 2, "subject": "Rover navigation"})
    get(f"/issues/{i8}.json")
    get("/issues.json")
    i9 = create("/issues.json", "issue", {"project_id": 2, "tracker_id": 3, "subject": "Spacewalk timeline",
                                          "priority_id": 3, "status_id": 2, "done_ratio": 10,
                                          "start_date": "2027-02-01"})
    get(f"/issues/{i9}.json")
    get("/issues.json", project_id=2)

    t4 = create("/time_entries.json", "time_entry", {"issue_id": i7, "hours": 3.25, "activity_id": 8,
                                                     "spent_on": "2027-05-20", "comments": "Shield analysis"})
    get(f"/time_entries/{t4}.json")
    get(f"/issues/{i7}.json")                  # spent_hours now counts it
    t5 = create("/time_entries.json", "time_entry", {"project_id": 2, "hours": 1.5, "activity_id": 9,
                                                     "spent_on": "2027-02-02"})
    get(f"/time_entries/{t5}.json")
    get("/time_entries.json")

    u7 = create("/users.json", "user", {"login": "gkranz", "firstname": "Gene", "lastname": "Kranz",
                                        "mail": "gkranz@example.net", "generate_password": True})
    get(f"/users/{u7}.json")
    get("/users.json")

    # ---- c. updates: PUT changes the members sent, answers 204; each followed by reads
    update("/issues/3.json", "issue", {"status_id": 2, "done_ratio": 50})
    get("/issues/3.json")
    get("/issues.json", project_id=1)
    update(f"/issues/{i7}.json", "issue", {"subject": "Meteoroid shield torn off", "priority_id": 4,
                                           "notes": "Parasol deployed."})
    get(f"/issues/{i7}.json")
    get(f"/issues/{i7}.json", include="journals")
    update(f"/issues/{i8}.json", "issue", {"project_id": 1, "tracker_id": 1, "subject": "Rover navigation drift",
                                           "description": "Heading error after 2 km.", "priority_id": 3,
                                           "status_id": 4, "category_id": c5,
                                           "fixed_version_id": v6, "assigned_to_id": 6, "done_ratio": 20,
                                           "start_date": "2027-03-01", "due_date": "2027-03-15",
                                           "estimated_hours": 6})
    get(f"/issues/{i8}.json")
    update("/issues/4.json", "issue", {"status_id": 5})    # closed: the default list drops it
    get("/issues/4.json")
    get("/issues.json")
    update("/issues/5.json", "issue", {"subject": "Thruster stuck open"})   # the value it already has
    get("/issues/5.json")

    update("/projects/skylab.json", "project", {"description": "Orbital workshop, 1973."})
    get(f"/projects/{p4}.json")
    update("/projects/2.json", "project", {"name": "Gemini II", "is_public": False})
    get("/projects/gemini.json")
    get("/projects.json")

    update("/versions/1.json", "version", {"status": "locked"})
    get("/versions/1.json")
    update(f"/versions/{v5}.json", "version", {"name": "SL-2 crew", "due_date": "2027-06-22",
                                               "description": "Conrad, Kerwin, Weitz"})
    get(f"/versions/{v5}.json")
    get("/projects/skylab/versions.json")

    update("/issue_categories/2.json", "issue_category", {"name": "User interface"})
    get("/issue_categories/2.json")
    get("/projects/apollo/issue_categories.json")
    update(f"/memberships/{m5}.json", "membership", {"role_ids": [3]})
    get(f"/memberships/{m5}.json")
    update("/time_entries/1.json", "time_entry", {"hours": 3, "comments": "Alarm triage and fix"})
    get("/time_entries/1.json")
    get("/issues/1.json")
    update("/users/6.json", "user", {"firstname": "Augusta Ada"})
    get("/users/6.json")
    update(f"/users/{u7}.json", "user", {"lastname": "Kranz Jr", "mail": "gene@example.net"})
    get(f"/users/{u7}.json")
    get("/users.json")

    # ---- d. deletes (204), each followed by a 404 item read and a list read
    call("DELETE", "/time_entries/2.json", expect=204)
    get("/time_entries/2.json", 404)
    get("/time_entries.json")
    call("DELETE", "/issue_categories/3.json", expect=204)   # issue 4 is in it: the category is cleared there
    get("/issue_categories/3.json", 404)
    get("/projects/gemini/issue_categories.json")
    get("/issues/4.json")
    call("DELETE", f"/memberships/{m4}.json", expect=204)
    get(f"/memberships/{m4}.json", 404)
    get("/projects/skylab/memberships.json")
    call("DELETE", f"/versions/{v6}.json", expect=422)       # issue i8 targets it: refused
    get(f"/versions/{v6}.json")
    call("DELETE", f"/versions/{v5}.json", expect=204)
    get(f"/versions/{v5}.json", 404)
    get("/projects/skylab/versions.json")
    call("DELETE", f"/issues/{i9}.json", expect=204)
    get(f"/issues/{i9}.json", 404)
    get("/issues.json", project_id=2, status_id="*")
    call("DELETE", f"/projects/{p5}.json", expect=204)
    get(f"/projects/{p5}.json", 404)
    get("/projects/artemis.json", 404)
    get("/projects.json")
    call("DELETE", f"/users/{u7}.json", expect=204)
    get(f"/users/{u7}.json", 404)
    get("/users.json")

    # ---- e. refusals and absences of writes
    call("POST", "/issues.json", {"issue": {"project_id": 1, "tracker_id": 1}}, expect=422)   # no subject
    call("POST", "/issues.json", {"issue": {"project_id": 1, "subject": "Backwards", "start_date": "2027-04-02",
                                            "due_date": "2027-04-01"}}, expect=422)
    call("POST", "/issues.json", raw='{"issue": {"project_id": 1', expect=400)          # broken JSON
    call("POST", "/issues.json", {"issue": {"project_id": NEVER, "subject": "Nowhere"}}, expect=422)
    call("POST", "/projects.json", {"project": {"name": "Apollo again", "identifier": "apollo"}}, expect=422)
    call("POST", "/projects.json", {"project": {"identifier": "nameless"}}, expect=422)
    call("POST", "/projects.json", {"project": {"name": "Bad id", "identifier": "Has Spaces"}}, expect=422)
    call("POST", "/projects/apollo/versions.json", {"version": {"name": "1.0"}}, expect=422)   # taken
    call("POST", "/projects/vostok/versions.json", {"version": {"name": "V1"}}, expect=404)
    call("POST", "/time_entries.json", {"time_entry": {"issue_id": 3, "activity_id": 9}}, expect=422)
    call("POST", "/users.json", {"user": {"login": "jsmith", "firstname": "J", "lastname": "S",
                                          "mail": "other@example.net", "generate_password": True}},
         expect=422)
    update("/issues/3.json", "issue", {"subject": ""}, expect=422)
    update("/projects/apollo.json", "project", {"name": ""}, expect=422)
    update(f"/issues/{NEVER}.json", "issue", {"subject": "Ghost"}, expect=404)
    update(f"/versions/{NEVER}.json", "version", {"name": "Ghost"}, expect=404)
    call("DELETE", f"/issues/{NEVER}.json", expect=404)
    call("DELETE", f"/issue_categories/{NEVER}.json", expect=404)
    call("DELETE", f"/time_entries/{i9}.json", expect=404)   # a deleted issue's id, never a time entry's

    # ---- f. filters, sorts and paging
    get("/issues.json", project_id="apollo")                 # with its subproject's (mercury) issues
    get("/issues.json", project_id=1, status_id="*")
    get("/issues.json", status_id="closed")
    get("/issues.json", status_id=2)
    get("/issues.json", status_id="*", tracker_id=1)
    get("/issues.json", status_id="*", assigned_to_id=5)
    get("/issues.json", status_id="*", fixed_version_id=1)
    get("/issues.json", status_id="*", sort="id")
    get("/issues.json", status_id="*", sort="priority:desc,id")
    get("/issues.json", status_id="*", sort="subject")
    get("/issues.json", status_id="*", offset=2, limit=3)
    get("/issues.json", status_id="*", offset=6, limit=3)
    get("/issues.json", limit=1)
    get("/projects.json", limit=2)
    get("/projects.json", offset=2, limit=2)
    get("/time_entries.json", project_id="apollo")
    get("/time_entries.json", issue_id=i7)
    get("/time_entries.json", limit=1, offset=1)
    get("/users.json", name="smith")
    get("/users.json", limit=1, offset=1)
    get("/projects/apollo/memberships.json", limit=1)

    # ---- g. final state: every list and the items written
    get("/projects.json")
    get("/issues.json", status_id="*")
    for issue in (1, 3, 4, i7, i8):
        get(f"/issues/{issue}.json")
    for project in ("apollo", "gemini", "skylab", "skylab-ground"):
        get(f"/projects/{project}.json")
    for project in ("apollo", "gemini", "skylab"):
        get(f"/projects/{project}/versions.json")
        get(f"/projects/{project}/issue_categories.json")
        get(f"/projects/{project}/memberships.json")
    get("/time_entries.json")
    get("/users.json")
    check("new project ids", (p4, p5, p6), (4, 5, 6))


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42701")
