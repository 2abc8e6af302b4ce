"""Seed a fresh ZenML 0.98.0 server (start.sh runs it directly on the app port; never recorded).

Usage: python seed.py BASE_URL TOKEN

What it makes, beside the defaults the server creates itself (user `default`, project `default`,
stack `default` with a local orchestrator, artifact store and deployer):
  project `research`; tags `staging` (yellow) and `legacy` (grey); user `bob`; service account
  `etl-bot`; secret `warehouse` (user, password); artifact store component `shared-store`;
  model `fraud-detector` with versions `v1` and `v2`.
Its ids are the same at every fresh start (serve.py draws uuid4 from a fixed seed until start.sh
says the seed is done), its clocks are not.
"""
import json
import sys
import urllib.request

BASE, TOKEN = sys.argv[1].rstrip("/") + "/api/v1", sys.argv[2]
DEFAULT_PROJECT = "c0feb0ee-7adf-4b74-9959-056946e745c4"


def post(path, body):
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {TOKEN}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


post("/projects", {"name": "research", "display_name": "Research",
                   "description": "Experiments that may never ship"})
post("/tags", {"name": "staging", "color": "yellow"})
post("/tags", {"name": "legacy", "color": "grey", "exclusive": False})
post("/users", {"name": "bob", "full_name": "Bob Builder", "is_admin": False, "active": True,
                "password": "capenv-bob-throwaway"})
post("/service_accounts", {"name": "etl-bot", "description": "Nightly ETL jobs", "active": True})
post("/secrets", {"name": "warehouse", "private": False,
                  "values": {"user": "loader", "password": "capenv-throwaway"}})
post("/components", {"name": "shared-store", "type": "artifact_store", "flavor": "local",
                     "configuration": {"path": "/srv/zenml/shared"}})
model = post("/models", {"name": "fraud-detector", "project": DEFAULT_PROJECT, "license": "Apache-2.0",
                         "description": "Flags card fraud", "tags": ["staging"]})
for name, description in (("v1", "baseline"), ("v2", "more features")):
    post("/model_versions", {"model": model["id"], "project": DEFAULT_PROJECT, "name": name,
                             "description": description})
print("seeded")
