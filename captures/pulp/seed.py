"""Seed Pulp 3 through its own API in one process (DRF's APIClient as the admin), with reproducible
ids and clocks: every pulp_id the seed makes is a fixed UUIDv7-shaped value (019b0000-0000-7000-8000-
00000000000N, N counting up) and every clock it stamps is 2026-01-01T00:00:00Z plus N seconds. Users and
groups are integer ids from PostgreSQL sequences (admin 1, then 2, 3, ... on a new database).
Run by start.sh with PULP_SETTINGS set, before the API process starts. Prints what it made.

Seed (README "Seed data"):
  users            alice (2), bob (3)
  groups           editors (1), alice in it
  file repositories web-assets (labels env=prod, team=web), docs-site (env=staging, team=docs),
                   legacy-mirror (retain_repo_versions 2, no labels); version 0 each
  file remotes     docs-upstream (url http://127.0.0.1:9/docs/PULP_MANIFEST, policy on_demand)
  header guards    token-guard (X-Token: s3cret)
  file distributions web (base_path web, repository web-assets)
"""
import datetime
import sys
import uuid

import django

django.setup()

from django.utils import timezone  # noqa: E402
import pulpcore.app.models.base as pulp_base  # noqa: E402

COUNTER = {"id": 0, "clock": 0}
EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def fixed_uuid():
    COUNTER["id"] += 1
    return uuid.UUID(f"019b0000-0000-7000-8000-{COUNTER['id']:012d}")


def fixed_now():
    COUNTER["clock"] += 1
    return EPOCH + datetime.timedelta(seconds=COUNTER["clock"])


pulp_base.uuid7 = fixed_uuid
timezone.now = fixed_now

from django.contrib.auth import get_user_model  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

API = "/pulp/api/v3"
admin = get_user_model().objects.get(username="admin")
client = APIClient()
client.force_authenticate(user=admin)


def post(path, body, want=201):
    r = client.post(API + path, body, format="json")
    if r.status_code != want:
        sys.exit(f"seed: POST {path} -> {r.status_code} {r.content[:400]!r}")
    return r.json()


alice = post("/users/", {"username": "alice", "first_name": "Alice", "last_name": "Archer",
                         "email": "alice@example.com", "password": "alice-Passw0rd!"})
bob = post("/users/", {"username": "bob", "first_name": "Bob", "last_name": "Baker",
                       "email": "bob@example.com", "password": "bob-Passw0rd!"})
editors = post("/groups/", {"name": "editors"})
post(editors["pulp_href"].removeprefix(API) + "users/", {"username": "alice"})
web = post("/repositories/file/file/", {"name": "web-assets", "description": "Static files of the web site",
                                        "pulp_labels": {"env": "prod", "team": "web"}})
post("/repositories/file/file/", {"name": "docs-site", "description": "Built documentation",
                                  "pulp_labels": {"env": "staging", "team": "docs"}})
post("/repositories/file/file/", {"name": "legacy-mirror", "retain_repo_versions": 2})
post("/remotes/file/file/", {"name": "docs-upstream", "url": "http://127.0.0.1:9/docs/PULP_MANIFEST",
                             "policy": "on_demand"})
post("/contentguards/core/header/", {"name": "token-guard", "header_name": "X-Token", "header_value": "s3cret",
                                     "description": "Needs the team token"})
# A distribution's create is a task (202); the seed makes it through the model the task would use.
from pulp_file.app.models import FileDistribution, FileRepository  # noqa: E402

FileDistribution.objects.create(name="web", base_path="web",
                                repository=FileRepository.objects.get(name="web-assets"))
# Django's User.date_joined default is the clock function bound at import: stamp every user (the admin
# reset-admin-password made included) with the seed's epoch instead.
get_user_model().objects.update(date_joined=EPOCH)
print("seeded:", alice["pulp_href"], bob["pulp_href"], editors["pulp_href"], web["pulp_href"])
