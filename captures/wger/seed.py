"""Seed a fresh wger 2.1 site (run by start.sh after the migrations and fixtures, DJANGO_SETTINGS_MODULE set).

In one process, before the server starts: users alice and bob (plain users), each with a fixed throwaway
API token (TOKENS; wger would make random ones); then, through wger's own REST API (Django's test client
with alice's or bob's token), so every object is made as the API makes it:
  alice: weight entries on 2026-01-05, -12, -19 (82.5, 81.9, 81.2 kg); workouts "Strength A" (days
    "Upper body" on Monday and Thursday, "Lower body" on Tuesday) and "Cardio" (no days);
    nutrition plan "Cutting" (meals "Breakfast" 07:30 with two items, "Lunch" 12:30 with one) and
    "Maintenance" (no meals); measurement categories "Biceps" (cm, two measurements) and "Body fat" (%,
    one); her profile's height, birthdate and a few settings.
  bob: one weight entry, workout "Bob's plan", measurement category "Waist" (cm) with one measurement.
Then every creation date the seed stamped (workouts, nutrition plans; users joined) is moved to 2026-01-05.
"""
import datetime
import json

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from wger.manager.models import Workout  # noqa: E402
from wger.nutrition.models import NutritionPlan  # noqa: E402

TOKENS = {"alice": "capenvwgerthrowawayalice000000000000001",
          "bob": "capenvwgerthrowawaybob00000000000000001"}
FIXED = datetime.date(2026, 1, 5)

users = {}
for name in TOKENS:
    users[name] = User.objects.create_user(name, f"{name}@example.com", f"capenv-{name}-pass")
    Token.objects.filter(user=users[name]).delete()
    Token.objects.create(user=users[name], key=TOKENS[name])


def client(user):
    return Client(HTTP_AUTHORIZATION=f"Token {TOKENS[user]}")


def call(user, method, path, body=None, expect=(200, 201)):
    response = getattr(client(user), method)(f"/api/v2/{path}", json.dumps(body), content_type="application/json") \
        if body is not None else getattr(client(user), method)(f"/api/v2/{path}")
    if response.status_code not in expect:
        raise SystemExit(f"seed: {method.upper()} {path} -> {response.status_code} {response.content[:500]!r}")
    return response.json()


for date, weight in (("2026-01-05", "82.5"), ("2026-01-12", "81.9"), ("2026-01-19", "81.2")):
    call("alice", "post", "weightentry/", {"date": date, "weight": weight})
strength = call("alice", "post", "workout/", {"name": "Strength A", "description": "Three days of lifting"})
call("alice", "post", "day/", {"training": strength["id"], "description": "Upper body", "day": [1, 4]})
call("alice", "post", "day/", {"training": strength["id"], "description": "Lower body", "day": [2]})
call("alice", "post", "workout/", {"name": "Cardio", "description": "Runs and rides"})
cutting = call("alice", "post", "nutritionplan/", {"description": "Cutting", "only_logging": False})
breakfast = call("alice", "post", "meal/", {"plan": cutting["id"], "name": "Breakfast", "time": "07:30"})
lunch = call("alice", "post", "meal/", {"plan": cutting["id"], "name": "Lunch", "time": "12:30"})
call("alice", "post", "mealitem/", {"meal": breakfast["id"], "ingredient": 1, "amount": "120.00"})
call("alice", "post", "mealitem/", {"meal": breakfast["id"], "ingredient": 2, "amount": "40.00"})
call("alice", "post", "mealitem/", {"meal": lunch["id"], "ingredient": 3, "amount": "200.00"})
call("alice", "post", "nutritionplan/", {"description": "Maintenance", "only_logging": True})
biceps = call("alice", "post", "measurement-category/", {"name": "Biceps", "unit": "cm"})
call("alice", "post", "measurement/", {"category": biceps["id"], "date": "2026-01-05", "value": "35.50",
                                         "notes": "left arm"})
call("alice", "post", "measurement/", {"category": biceps["id"], "date": "2026-01-19", "value": "36.00",
                                         "notes": ""})
fat = call("alice", "post", "measurement-category/", {"name": "Body fat", "unit": "%"})
call("alice", "post", "measurement/", {"category": fat["id"], "date": "2026-01-05", "value": "18.20", "notes": ""})

call("bob", "post", "weightentry/", {"date": "2026-01-06", "weight": "90.0"})
call("bob", "post", "workout/", {"name": "Bob's plan", "description": ""})
waist = call("bob", "post", "measurement-category/", {"name": "Waist", "unit": "cm"})
call("bob", "post", "measurement/", {"category": waist["id"], "date": "2026-01-06", "value": "94.00", "notes": ""})

User.objects.update(date_joined=datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.timezone.utc))
Workout.objects.update(creation_date=FIXED)
NutritionPlan.objects.update(creation_date=FIXED)
print("seeded")
