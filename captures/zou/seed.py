#!/usr/bin/env python3
"""Seed Zou 1.0.97 for capenv's capture (run by start.sh before the API serves, never recorded).

Usage: seed.py    (in start.sh's environment: the database settings, SECRET_KEY, ...)

One process makes the whole starting state (each Python start of Zou costs ~20 s on a busy
machine): the schema (`zou init-db`), Kitsu's defaults (`zou init-data`, the 3d preset: task
types, statuses, asset types, departments), the admin (`zou create-admin`: admin@example.com with a
throwaway password, the one address Zou takes without checking it), then through Zou's own API, in process (Flask's test client on the application gunicorn will serve, so
fixed_ids draws the same ids on every start): three people (one a freelancer with no department), a production with its
task types and statuses linked, two assets, a sequence with two shots, tasks on them and a comment.
Then every created_at/updated_at (and the other clocks the seed set) is fixed in PostgreSQL, so
every start answers alike.
"""
import sys

import in_memory_kv  # noqa: F401  (before zou: patches redis)
import fixed_ids  # noqa: F401  (before zou: reproducible ids)
from sqlalchemy import text  # noqa: E402
from zou import cli  # noqa: E402
from zou.app import create_app, db  # noqa: E402

cli.init_db.callback()
cli.init_data.callback(domain="3d")
cli.create_admin.callback("admin@example.com", "capenv-throwaway")
app = create_app()
client = app.test_client()
TOKEN = None


def send(method, path, body=None):
    headers = {"Authorization": f"Bearer {TOKEN}"} if TOKEN else {}
    response = client.open(path, method=method, json=body, headers=headers)
    if response.status_code >= 300:
        sys.exit(f"seed: {method} {path} -> {response.status_code} {response.get_data()[:300]!r}")
    return response.get_json()


def by_name(path, name):
    return next(item for item in send("GET", path) if item["name"] == name)


TOKEN = send("POST", "/auth/login", {"email": "admin@example.com", "password": "capenv-throwaway"})["access_token"]
animation = by_name("/data/departments", "Animation")
modeling = by_name("/data/departments", "Modeling")
alice = send("POST", "/data/persons", {"first_name": "Alice", "last_name": "Martin", "email": "alice@studio.example",
                                        "role": "user", "departments": [modeling["id"]]})
send("POST", "/data/persons", {"first_name": "Bob", "last_name": "Durand", "email": "bob@studio.example",
                               "role": "supervisor", "departments": [animation["id"]]})
open_status = by_name("/data/project-status", "Open")
film = send("POST", "/data/projects", {"name": "Seed Film", "production_type": "short", "fps": "24",
                                       "resolution": "1920x1080", "project_status_id": open_status["id"]})
task_type_modeling = by_name("/data/task-types", "Modeling")
task_type_animation = by_name("/data/task-types", "Animation")
for task_type in (task_type_modeling, task_type_animation):
    send("POST", f"/data/projects/{film['id']}/settings/task-types", {"task_type_id": task_type["id"]})
for status in send("GET", "/data/task-status"):
    send("POST", f"/data/projects/{film['id']}/settings/task-status", {"task_status_id": status["id"]})
character = by_name("/data/asset-types", "Character")
prop = by_name("/data/asset-types", "Prop")
hero = send("POST", f"/data/projects/{film['id']}/asset-types/{character['id']}/assets/new",
            {"name": "Hero", "description": "The main character"})
send("POST", f"/data/projects/{film['id']}/asset-types/{prop['id']}/assets/new",
     {"name": "Lantern", "description": "An old oil lantern"})
sequence = send("POST", f"/data/projects/{film['id']}/sequences", {"name": "SQ01"})
for shot in ("SH010", "SH020"):
    send("POST", f"/data/projects/{film['id']}/shots", {"name": shot, "sequence_id": sequence["id"], "nb_frames": 48})
tasks = send("POST", f"/actions/projects/{film['id']}/task-types/{task_type_modeling['id']}/assets/create-tasks")
hero_modeling = next(task for task in tasks if task["entity_id"] == hero["id"])
send("PUT", f"/actions/tasks/{hero_modeling['id']}/assign", {"person_id": alice["id"]})
wip = by_name("/data/task-status", "Work In Progress")
send("POST", f"/actions/tasks/{hero_modeling['id']}/comment",
     {"task_status_id": wip["id"], "comment": "Blocking done, starting the details"})
# last, so the ids drawn before it stay those of earlier starts
send("POST", "/data/persons", {"first_name": "Eve", "last_name": "Roux", "email": "eve@studio.example",
                               "role": "user", "contract_type": "freelance"})

with app.app_context():
    # Every clock the seed made, to one instant: the same answers on every start.
    db.session.execute(text("""
        DO $$
        DECLARE column_row record;
        BEGIN
          FOR column_row IN
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND data_type LIKE 'timestamp%'
              AND table_name <> 'alembic_version'
          LOOP
            EXECUTE format('UPDATE %I SET %I = %L WHERE %I IS NOT NULL', column_row.table_name,
                           column_row.column_name, '2026-12-01 09:00:00', column_row.column_name);
          END LOOP;
        END $$;
    """))
    db.session.commit()
print("seeded")
