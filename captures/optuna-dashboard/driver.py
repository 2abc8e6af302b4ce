#!/usr/bin/env python3
"""Scenario driver for optuna-dashboard 0.21.0's JSON API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46341 --mode capture [-v]

The seed (seed.py, run by start.sh before the server, not recorded): studies 1 quadratic (trials 1-5: three
Complete, 4 Running, 5 Fail), 2 pareto (trials 6-8), 3 learning-rate (trials 9-12: 11 Pruned, 12 Running), 4
colors (preferential; trials 13-15 Running). No authentication. Every call is sequential, with a random
50-150 ms sleep before it. The dashboard keeps each study's trials in memory for 2 s after reading them, so a
read of a study after a write to its trials waits `settle()` (2.1 s) first, as a user reloading the page would.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api"
TRIAL_CACHE_SECONDS = 2.1


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def settle():
    time.sleep(TRIAL_CACHE_SECONDS)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body, expect):
        return call(method, API + path, body=body, expect=expect)[1]

    def trials_of(study_id):
        return [(t["trial_id"], t["state"], t.get("values")) for t in get(f"/studies/{study_id}")["trials"]]

    # ---- a. reads before any write: meta, the list, every study, paging of trials, absences
    get("/meta")
    studies = get("/studies")
    check("seeded studies", [s["study_name"] for s in studies["study_summaries"]],
          ["quadratic", "pareto", "learning-rate", "colors"])
    get("/studies/")
    for study_id in (1, 2, 3, 4):
        get(f"/studies/{study_id}")
    get("/studies/1/")
    get("/studies/3/")
    get("/studies/1", after=2)
    get("/studies/1", after=4)
    get("/studies/1", after=9)
    get("/studies/2", after=1)
    get("/studies/1", expect=400, after=-1)
    get("/studies/99", expect=404)
    get("/studies/99/", expect=404)
    get("/studies/5", expect=404)
    get("/studies/1/param_importances")
    get("/studies/2/param_importances")
    get("/studies/99/param_importances", expect=404)
    call("GET", "/csv/1", expect=200)
    call("GET", "/api/studies/abc", expect=404)

    # ---- b. study creates, refused creates, reads showing them
    made = send("POST", "/studies", {"study_name": "sphere", "directions": ["minimize"]}, 201)
    sphere = made["study_summary"]["study_id"]                         # 5
    get(f"/studies/{sphere}")
    get("/studies")
    made = send("POST", "/studies/", {"study_name": "tradeoff", "directions": ["MAXIMIZE", "minimize"]}, 201)
    tradeoff = made["study_summary"]["study_id"]                       # 6
    get(f"/studies/{tradeoff}/")
    made = send("POST", "/studies", {"study_name": "scratch", "directions": ["maximize"]}, 201)
    scratch = made["study_summary"]["study_id"]                        # 7
    get("/studies")
    send("POST", "/studies", {"study_name": "sphere", "directions": ["minimize"]}, 400)   # name taken
    send("POST", "/studies", {"study_name": "quadratic", "directions": ["maximize"]}, 400)
    send("POST", "/studies", {"directions": ["minimize"]}, 400)                             # no name
    send("POST", "/studies", {"study_name": "nodirs"}, 400)                                 # no directions
    send("POST", "/studies", {"study_name": "nodirs", "directions": []}, 400)
    send("POST", "/studies", {"study_name": "sideways", "directions": ["sideways"]}, 400)
    send("POST", "/studies", {"study_name": "mixed", "directions": ["minimize", "up"]}, 400)
    get("/studies")
    get("/studies/8", expect=404)

    # ---- c. study notes: versions, conflicts, refusals
    send("PUT", "/studies/1/note", {"version": 2, "body": "## quadratic\nSecond version."}, 204)
    check("study 1 note", get("/studies/1")["note"], {"version": 2, "body": "## quadratic\nSecond version."})
    send("PUT", "/studies/1/note", {"version": 2, "body": "a stale edit"}, 409)
    send("PUT", "/studies/1/note", {"version": 1, "body": "an older edit"}, 409)
    get("/studies/1")
    send("PUT", "/studies/1/note/", {"version": 3, "body": "third"}, 204)
    get("/studies/1/")
    send("PUT", "/studies/1/note", {"body": "no version"}, 400)
    send("PUT", "/studies/1/note", {"version": 4}, 400)
    send("PUT", f"/studies/{sphere}/note", {"version": 1, "body": "sphere: sum of squares"}, 204)
    get(f"/studies/{sphere}")
    send("PUT", f"/studies/{sphere}/note", {"version": 5, "body": "a version must follow the last one"}, 409)
    send("PUT", f"/studies/{sphere}/note", {"version": 2, "body": "sphere: sum of squares, 3-d"}, 204)
    get(f"/studies/{sphere}")
    send("PUT", f"/studies/{sphere}/note", {"version": 1, "body": "behind"}, 409)
    send("PUT", "/studies/2/note", {"version": 1, "body": "pareto: two objectives"}, 204)
    get("/studies/2")
    send("PUT", "/studies/99/note", {"version": 1, "body": "nobody"}, 500)

    # ---- d. trial notes
    send("PUT", "/studies/1/1/note", {"version": 2, "body": "best so far, confirmed"}, 204)
    check("trial 1 note", get("/studies/1")["trials"][0]["note"],
          {"version": 2, "body": "best so far, confirmed"})
    send("PUT", "/studies/1/1/note", {"version": 2, "body": "stale"}, 409)
    send("PUT", "/studies/1/2/note", {"version": 1, "body": "too far left"}, 204)
    send("PUT", "/studies/1/2/note/", {"version": 2, "body": "too far left (x=-1)"}, 204)
    get("/studies/1")
    send("PUT", "/studies/1/2/note", {"version": 1, "body": "old"}, 409)
    send("PUT", "/studies/3/9/note", {"version": 1, "body": "adam wins"}, 204)
    get("/studies/3")
    send("PUT", "/studies/3/9/note", {"body": "no version"}, 400)
    get("/studies/1")           # study 1's own note unchanged by its trials' notes

    # ---- e. trial user attributes (only a running trial takes them; a finished one answers 500)
    send("POST", "/trials/4/user-attrs", {"user_attrs": {"gpu": "h100", "seed": 7}}, 204)
    settle()
    get("/studies/1")
    send("POST", "/trials/4/user-attrs", {"user_attrs": {"gpu": "a100"}}, 204)
    send("POST", "/trials/12/user-attrs/", {"user_attrs": {"epochs": 10, "notes": "baseline"}}, 204)
    send("POST", "/trials/14/user-attrs", {"user_attrs": {"shade": "green"}}, 204)
    settle()
    get("/studies/1")
    get("/studies/3")
    get("/studies/4")
    send("POST", "/trials/4/user-attrs", {"user_attrs": {}}, 400)
    send("POST", "/trials/4/user-attrs", {}, 400)
    send("POST", "/trials/1/user-attrs", {"user_attrs": {"gpu": "v100"}}, 500)     # finished
    send("POST", "/trials/99/user-attrs", {"user_attrs": {"a": 1}}, 500)
    settle()
    get("/studies/1")

    # ---- f. tell: complete and fail running trials, refusals
    send("POST", "/trials/4/tell", {"state": "Complete", "values": [0.5]}, 204)
    settle()
    check("study 1 trials after tell", trials_of(1)[3], (4, "Complete", [0.5]))
    get("/studies/1", after=3)
    send("POST", "/trials/12/tell", {"state": "fail"}, 204)
    settle()
    get("/studies/3")
    send("POST", "/trials/4/tell", {"state": "Complete", "values": [0.1]}, 500)   # finished already
    send("POST", "/trials/13/tell", {"state": "Running"}, 400)
    send("POST", "/trials/13/tell", {"state": "Pruned"}, 400)
    send("POST", "/trials/13/tell", {"values": [1.0]}, 400)
    send("POST", "/trials/13/tell", {"state": "Complete"}, 400)
    send("POST", "/trials/13/tell", {"state": "Complete", "values": ["high"]}, 400)
    send("POST", "/trials/13/tell", {"state": "Complete", "values": 3}, 400)
    send("POST", "/trials/13/tell", {"state": 5}, 400)
    send("POST", "/trials/99/tell", {"state": "Complete", "values": [1.0]}, 500)
    settle()
    get("/studies/4")
    get("/studies/1")

    # ---- g. preferential feedback on study 4 (colors)
    send("POST", "/studies/4/preference", {"mode": "ChooseWorst", "candidates": [0, 1, 2], "clicked": 1}, 204)
    detail = get("/studies/4")
    history = [h["history"]["id"] for h in detail["preference_history"]]
    send("POST", "/studies/4/preference", {"mode": "ChooseWorst", "candidates": [0, 2], "clicked": 0}, 204)
    detail = get("/studies/4")
    history = [h["history"]["id"] for h in detail["preference_history"]]
    send("POST", "/studies/4/preference", {"mode": "ChooseBest", "candidates": [0, 2], "clicked": 0}, 400)
    send("POST", "/studies/4/preference", {"mode": "ChooseWorst", "candidates": [0, 2]}, 400)
    send("POST", "/studies/4/preference", {"mode": "ChooseWorst", "candidates": ["a"], "clicked": 0}, 400)
    if history:
        call("DELETE", f"{API}/studies/4/preference/{history[0]}", expect=204)
        get("/studies/4")
        call("POST", f"{API}/studies/4/preference/{history[0]}", expect=204)
        get("/studies/4/")
    call("DELETE", f"{API}/studies/4/preference/no-such-history", expect=404)
    call("POST", f"{API}/studies/4/preference/no-such-history", expect=404)
    send("PUT", "/studies/4/preference_feedback_component", {"output_type": "artifact", "artifact_key": "image"},
         204)
    get("/studies/4")
    send("PUT", "/studies/4/preference_feedback_component", {"output_type": "note"}, 204)
    get("/studies/4")
    send("PUT", "/studies/4/preference_feedback_component", {"output_type": "video"}, 400)
    send("POST", "/studies/4/15/skip", {}, 204)
    settle()
    get("/studies/4")
    send("POST", "/studies/1/3/skip", {}, 400)          # not preferential
    send("POST", "/studies/99/3/skip", {}, 404)
    send("PUT", "/studies/4/13/note", {"version": 1, "body": "too red"}, 204)
    get("/studies/4")

    # ---- h. no PATCH and no PUT of a study: the API has neither
    call("PATCH", f"{API}/studies/1", body={"study_name": "patched"}, expect=405)
    call("PUT", f"{API}/studies/1", body={"study_name": "put"}, expect=405)
    call("PATCH", f"{API}/studies/1/note", body={"version": 9, "body": "patched"}, expect=405)
    get("/studies/1")

    # ---- i. rename: a new study (new id, trials copied) replaces the old one
    send("POST", f"/studies/{sphere}/note", {"version": 9, "body": "x"}, 405)
    renamed = send("POST", f"/studies/{tradeoff}/rename", {"study_name": "tradeoff-v2"}, 201)
    tradeoff2 = renamed["study_id"]                                    # 8
    get("/studies")
    get(f"/studies/{tradeoff}", expect=404)
    get(f"/studies/{tradeoff2}")
    renamed = send("POST", "/studies/3/rename/", {"study_name": "learning-rate-v2"}, 201)
    learning2 = renamed["study_id"]                                    # 9
    get("/studies/3", expect=404)
    get(f"/studies/{learning2}")
    get("/studies")
    send("POST", "/studies/2/rename", {"study_name": "quadratic"}, 400)   # name taken
    send("POST", "/studies/2/rename", {}, 400)
    get("/studies/2")
    get("/studies")

    # ---- j. deletes
    call("DELETE", f"{API}/studies/{scratch}", expect=204)
    get(f"/studies/{scratch}", expect=404)
    get("/studies")
    call("DELETE", f"{API}/studies/{scratch}", expect=404)
    call("DELETE", f"{API}/studies/99/", expect=404)
    call("DELETE", f"{API}/studies/{sphere}/", expect=204)
    get(f"/studies/{sphere}", expect=404)
    get("/studies")
    send("PUT", f"/studies/{sphere}/note", {"version": 7, "body": "gone"}, 500)
    made = send("POST", "/studies", {"study_name": "sphere", "directions": ["maximize"]}, 201)
    sphere2 = made["study_summary"]["study_id"]
    get(f"/studies/{sphere2}")
    get("/studies")

    # ---- k. final reads of everything left
    settle()
    get("/studies")
    for study in get("/studies/")["study_summaries"]:
        get(f"/studies/{study['study_id']}")
        get(f"/studies/{study['study_id']}/", after=1)
    get("/studies/1/param_importances")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46341")
