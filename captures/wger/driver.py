#!/usr/bin/env python3
"""Scenario driver for wger 2.1 through its REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:19001 --mode capture [-v]

Django REST Framework under /api/v2/ with trailing slashes: lists are pages
`{count, next, previous, results}` (`?limit=&offset=`, 20 by default), filters by field (`?date=`,
`?plan=`), `?ordering=`; items at `/<resource>/<id>/`; POST to the list creates (201), PUT replaces,
PATCH merges (200 with the item), DELETE answers 204. What a user owns (weight entries, workouts and
their days, nutrition plans, meals, meal items, measurement categories and measurements) is read only
by its owner: another user's item is a 404. The profile is one document at `/userprofile/`, written by
POST (or PATCH/PUT at any id) with the whole profile. Every call sends alice's token
(`Authorization: Token ...`) unless it says bob's or none.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKENS = {"alice": "capenvwgerthrowawayalice000000000000001",
          "bob": "capenvwgerthrowawaybob00000000000000001"}
API = "/api/v2"


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose, token=TOKENS["alice"], scheme="Token")


def capture(d: Driver):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return d.get(API + path, expect=expect, **params)

    def post(path, body, expect=201, token=None):
        return call("POST", API + path, body, expect=expect, **({"token": token} if token else {}))

    def write(method, path, body=None, expect=200, token=None):
        return call(method, API + path, body, expect=expect, **({"token": token} if token else {}))

    def ids(page):
        return [r["id"] for r in page["results"]]

    # ---- a. the seed: every collection and item, the catalogues
    get("/")
    get("/version/")
    weights = get("/weightentry/")
    check("weight entries", [r["weight"] for r in weights["results"]], ["82.50", "81.90", "81.20"])
    for entry in weights["results"]:
        get(f"/weightentry/{entry['id']}/")
    get("/weightentry/", limit=2)
    get("/weightentry/", limit=2, offset=2)
    get("/weightentry/", ordering="-date")
    get("/weightentry/", date="2026-01-12")
    workouts = get("/workout/")
    for workout in workouts["results"]:
        get(f"/workout/{workout['id']}/")
    days = get("/day/")
    for day in days["results"]:
        get(f"/day/{day['id']}/")
    get("/day/", training=workouts["results"][0]["id"])
    plans = get("/nutritionplan/")
    for plan in plans["results"]:
        get(f"/nutritionplan/{plan['id']}/")
    cutting = plans["results"][0]["id"]
    meals = get("/meal/")
    for meal in meals["results"]:
        get(f"/meal/{meal['id']}/")
    get("/meal/", plan=cutting)
    items = get("/mealitem/")
    for item in items["results"]:
        get(f"/mealitem/{item['id']}/")
    breakfast = meals["results"][0]["id"]
    get("/mealitem/", meal=breakfast)
    categories = get("/measurement-category/")
    for category in categories["results"]:
        get(f"/measurement-category/{category['id']}/")
    biceps = [c["id"] for c in categories["results"] if c["name"] == "Biceps"][0]
    measurements = get("/measurement/")
    for measurement in measurements["results"]:
        get(f"/measurement/{measurement['id']}/")
    get("/measurement/", category=biceps)
    get("/userprofile/")
    for catalogue in ("exercisecategory", "equipment", "muscle", "language", "ingredient", "weightunit",
                      "license", "daysofweek", "setting-weightunit", "setting-repetitionunit"):
        get(f"/{catalogue}/")
    get("/exercisecategory/10/")
    get("/equipment/", limit=3)
    get("/equipment/", limit=3, offset=3)
    get("/muscle/", limit=5, offset=5)
    get("/muscle/1/")
    get("/language/2/")
    get("/language/", short_name="de")
    get("/ingredient/", limit=5)
    get("/ingredient/", limit=5, offset=5)
    get("/ingredient/1/")
    get("/ingredient/", name="Test ingredient 2")
    # absences, another user's entities, no token
    get("/weightentry/999/", expect=404)
    get("/workout/999/", expect=404)
    get("/nutritionplan/999/", expect=404)
    get("/measurement-category/999/", expect=404)
    get("/ingredient/99999/", expect=404)
    bob_weights = call("GET", API + "/weightentry/", token=TOKENS["bob"], expect=200)[1]
    bob_entry = bob_weights["results"][0]["id"]
    get(f"/weightentry/{bob_entry}/", expect=404)
    bob_workout = call("GET", API + "/workout/", token=TOKENS["bob"], expect=200)[1]["results"][0]["id"]
    get(f"/workout/{bob_workout}/", expect=404)
    bob_category = call("GET", API + "/measurement-category/", token=TOKENS["bob"], expect=200)[1]["results"][0]["id"]
    get(f"/measurement-category/{bob_category}/", expect=404)
    call("GET", API + "/weightentry/", token=None, expect=403)
    call("GET", API + "/userprofile/", token=TOKENS["bob"], expect=200)

    # ---- b. weight entries: create, read, update, delete, failures
    _, entry = post("/weightentry/", {"date": "2026-01-26", "weight": "80.8"})
    get(f"/weightentry/{entry['id']}/")
    check("after create", len(get("/weightentry/")["results"]), 4)
    get("/weightentry/", limit=2, offset=2)
    write("PATCH", f"/weightentry/{entry['id']}/", {"weight": "80.6"})
    get(f"/weightentry/{entry['id']}/")
    get("/weightentry/")
    write("PUT", f"/weightentry/{entry['id']}/", {"date": "2026-01-27", "weight": "80.4"})
    get(f"/weightentry/{entry['id']}/")
    get("/weightentry/", date="2026-01-27")
    _, second = post("/weightentry/", {"date": "2026-02-02", "weight": "80.1"})
    get(f"/weightentry/{second['id']}/")
    get("/weightentry/", ordering="-date")
    post("/weightentry/", {"date": "2026-01-05", "weight": "70.0"}, expect=400)  # a date already held
    post("/weightentry/", {"date": "2026-02-03"}, expect=400)
    post("/weightentry/", {"date": "not a date", "weight": "70"}, expect=400)
    write("PATCH", f"/weightentry/{entry['id']}/", {"weight": "heavy"}, expect=400)
    write("PATCH", "/weightentry/999/", {"weight": "70.0"}, expect=404)
    write("PATCH", f"/weightentry/{bob_entry}/", {"weight": "70.0"}, expect=404)
    write("DELETE", f"/weightentry/{second['id']}/", expect=204)
    get(f"/weightentry/{second['id']}/", expect=404)
    get("/weightentry/")
    write("DELETE", f"/weightentry/{second['id']}/", expect=404)
    write("DELETE", f"/weightentry/{bob_entry}/", expect=404)
    call("GET", API + f"/weightentry/{bob_entry}/", token=TOKENS["bob"], expect=200)

    # ---- c. workouts and their days
    _, push = post("/workout/", {"name": "Push day", "description": "Chest, shoulders, triceps"})
    get(f"/workout/{push['id']}/")
    get("/workout/")
    write("PATCH", f"/workout/{push['id']}/", {"description": "Chest and shoulders"})
    get(f"/workout/{push['id']}/")
    write("PUT", f"/workout/{push['id']}/", {"name": "Push", "description": "Chest, shoulders and arms"})
    get(f"/workout/{push['id']}/")
    get("/workout/", name="Push")
    _, day = post("/day/", {"training": push["id"], "description": "Heavy", "day": [3]})
    get(f"/day/{day['id']}/")
    get("/day/", training=push["id"])
    write("PATCH", f"/day/{day['id']}/", {"day": [3, 6]})
    get(f"/day/{day['id']}/")
    write("PUT", f"/day/{day['id']}/", {"training": push["id"], "description": "Heavy and long", "day": [5]})
    get(f"/day/{day['id']}/")
    post("/day/", {"training": push["id"], "description": "Bad weekday", "day": [9]}, expect=400)
    post("/day/", {"training": bob_workout, "description": "In Bob's plan", "day": [1]}, expect=403)
    post("/workout/", {"description": "no name"}, expect=201)  # wger names none: the name may be empty
    get("/workout/")
    write("DELETE", f"/day/{day['id']}/", expect=204)
    get(f"/day/{day['id']}/", expect=404)
    get("/day/", training=push["id"])
    _, day2 = post("/day/", {"training": push["id"], "description": "Light", "day": [7]})
    get(f"/day/{day2['id']}/")
    write("DELETE", f"/workout/{push['id']}/", expect=204)
    get(f"/workout/{push['id']}/", expect=404)
    get(f"/day/{day2['id']}/", expect=404)  # the workout's days go with it
    get("/day/")
    get("/workout/")
    write("PATCH", f"/workout/{bob_workout}/", {"name": "Mine now"}, expect=404)
    write("DELETE", f"/workout/{bob_workout}/", expect=404)

    # ---- d. nutrition plans, meals, meal items
    _, plan = post("/nutritionplan/", {"description": "Bulking", "only_logging": False})
    get(f"/nutritionplan/{plan['id']}/")
    get("/nutritionplan/")
    write("PATCH", f"/nutritionplan/{plan['id']}/", {"description": "Lean bulking"})
    get(f"/nutritionplan/{plan['id']}/")
    write("PATCH", f"/nutritionplan/{plan['id']}/", {"has_goal_calories": True})
    get(f"/nutritionplan/{plan['id']}/")
    _, meal = post("/meal/", {"plan": plan["id"], "name": "Snack", "time": "16:00"})
    get(f"/meal/{meal['id']}/")
    get("/meal/", plan=plan["id"])
    write("PATCH", f"/meal/{meal['id']}/", {"time": "16:30"})
    get(f"/meal/{meal['id']}/")
    write("PUT", f"/meal/{meal['id']}/", {"plan": plan["id"], "name": "Afternoon snack", "time": "17:00"})
    get(f"/meal/{meal['id']}/")
    _, item = post("/mealitem/", {"meal": meal["id"], "ingredient": 4, "amount": "30.00"})
    get(f"/mealitem/{item['id']}/")
    get("/mealitem/", meal=meal["id"])
    write("PATCH", f"/mealitem/{item['id']}/", {"amount": "45.00"})
    get(f"/mealitem/{item['id']}/")
    write("PUT", f"/mealitem/{item['id']}/", {"meal": meal["id"], "ingredient": 5, "amount": "50.00"})
    get(f"/mealitem/{item['id']}/")
    _, item2 = post("/mealitem/", {"meal": meal["id"], "ingredient": 1, "amount": "10.00"})
    get("/mealitem/", meal=meal["id"])
    post("/mealitem/", {"meal": meal["id"], "ingredient": 99999, "amount": "10.00"}, expect=400)
    post("/mealitem/", {"meal": meal["id"], "ingredient": 1}, expect=400)
    post("/meal/", {"plan": plan["id"], "name": "Bad time", "time": "25:99"}, expect=400)
    write("DELETE", f"/mealitem/{item2['id']}/", expect=204)
    get(f"/mealitem/{item2['id']}/", expect=404)
    get("/mealitem/", meal=meal["id"])
    write("DELETE", f"/meal/{meal['id']}/", expect=204)
    get(f"/meal/{meal['id']}/", expect=404)
    get(f"/mealitem/{item['id']}/", expect=404)  # the meal's items go with it
    get("/meal/", plan=plan["id"])
    _, meal2 = post("/meal/", {"plan": plan["id"], "name": "Dinner", "time": "19:00"})
    get(f"/meal/{meal2['id']}/")
    write("DELETE", f"/nutritionplan/{plan['id']}/", expect=204)
    get(f"/nutritionplan/{plan['id']}/", expect=404)
    get(f"/meal/{meal2['id']}/", expect=404)  # the plan's meals go with it
    get("/nutritionplan/")
    get("/meal/")
    get("/mealitem/")
    write("PATCH", "/nutritionplan/999/", {"description": "Nothing"}, expect=404)

    # ---- e. measurement categories and measurements
    _, chest = post("/measurement-category/", {"name": "Chest", "unit": "cm"})
    get(f"/measurement-category/{chest['id']}/")
    get("/measurement-category/")
    write("PATCH", f"/measurement-category/{chest['id']}/", {"name": "Chest (relaxed)"})
    get(f"/measurement-category/{chest['id']}/")
    write("PUT", f"/measurement-category/{chest['id']}/", {"name": "Chest girth", "unit": "in"})
    get(f"/measurement-category/{chest['id']}/")
    get("/measurement-category/", unit="in")
    _, m1 = post("/measurement/", {"category": chest["id"], "date": "2026-01-20", "value": "101.5", "notes": ""})
    get(f"/measurement/{m1['id']}/")
    get("/measurement/", category=chest["id"])
    write("PATCH", f"/measurement/{m1['id']}/", {"notes": "after breakfast"})
    get(f"/measurement/{m1['id']}/")
    write("PUT", f"/measurement/{m1['id']}/", {"category": chest["id"], "date": "2026-01-21", "value": "100.0",
                                                "notes": "before breakfast"})
    get(f"/measurement/{m1['id']}/")
    _, m2 = post("/measurement/", {"category": chest["id"], "date": "2026-01-28", "value": "99.5", "notes": ""})
    get(f"/measurement/{m2['id']}/")
    get("/measurement/")
    get("/measurement/", limit=2, offset=2)
    post("/measurement/", {"category": chest["id"], "date": "2026-01-28", "value": "99.0", "notes": ""}, expect=400)
    post("/measurement/", {"category": chest["id"], "date": "2026-01-29", "value": "-3", "notes": ""}, expect=400)
    post("/measurement-category/", {"name": "No unit"}, expect=400)
    write("DELETE", f"/measurement/{m2['id']}/", expect=204)
    get(f"/measurement/{m2['id']}/", expect=404)
    get("/measurement/", category=chest["id"])
    write("DELETE", f"/measurement-category/{chest['id']}/", expect=204)
    get(f"/measurement-category/{chest['id']}/", expect=404)
    get(f"/measurement/{m1['id']}/", expect=404)  # the category's measurements go with it
    get("/measurement-category/")
    get("/measurement/")
    write("DELETE", f"/measurement-category/{bob_category}/", expect=404)

    # ---- f. the profile
    post("/userprofile/", {"email": "alice@example.com", "height": 172, "birthdate": "1990-04-12",
                           "sleep_hours": 8}, expect=200)
    get("/userprofile/")
    write("PATCH", "/userprofile/1/", {"email": "alice@example.com", "calories": 2200}, expect=200)
    get("/userprofile/")
    write("PATCH", "/userprofile/", {"calories": 2100}, expect=405)
    post("/userprofile/", {"email": "alice@example.com", "height": "tall"}, expect=500)
    get("/userprofile/")
    call("GET", API + "/userprofile/", token=TOKENS["bob"], expect=200)

    # ---- g. what is left
    get("/weightentry/")
    get("/workout/")
    get("/day/")
    get("/nutritionplan/")
    get("/meal/")
    get("/mealitem/")
    get("/measurement-category/")
    get("/measurement/")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:19001")
