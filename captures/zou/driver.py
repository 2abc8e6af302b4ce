#!/usr/bin/env python3
"""Scenario driver for Zou 1.0.97's JSON API (Kitsu's API server; talks to the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:18401 --mode capture [-v]

The seed (seed.py, run by start.sh, not recorded; the same ids on every start): `zou init-data`'s
task types, task statuses, asset types, departments and project statuses; the admin
(admin@example.com), Alice (user, Modeling), Bob (supervisor, Animation) and Eve (a freelancer); the production
"Seed Film" with assets Hero (Character) and Lantern (Prop), sequence SQ01 with shots SH010 and
SH020, a Modeling task per asset (Hero's assigned to Alice, Work In Progress, one comment). Every
call but the login sends ``Authorization: Bearer <TOKEN>``: a JWT for the admin signed with
start.sh's throwaway SECRET_KEY (valid until 2031), so probes can use the same one. Answers are
bare JSON: lists are arrays, items objects with `id` (UUID), `type`, `created_at`, `updated_at`;
errors `{"message": ...}` (some with `"error": true`). Every call is sequential, with a random
50-150 ms sleep before it.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJmcmVzaCI6ZmFsc2UsImlhdCI6MTc2NDU3OTYwMCwianRpIjoiYzBmZmVlMDAtMDAw"
         "MC00MDAwLTgwMDAtMDAwMDAwMDAwMDAxIiwidHlwZSI6ImFjY2VzcyIsInN1YiI6IjE2OWQ3ZWViLWVlZGQtNGNjOS1iMmU2LTRhM2I2Mzk4"
         "ZDAzMyIsIm5iZiI6MTc2NDU3OTYwMCwiZXhwIjoxOTI0OTkyMDAwLCJpZGVudGl0eV90eXBlIjoicGVyc29uIn0.kOzBia9hJcvdtBuouNXZx"
         "Lcd9GgK-M3O4gAaeKMU9BM")
ADMIN = "169d7eeb-eedd-4cc9-b2e6-4a3b6398d033"
ALICE = "49912db1-365a-48d5-9f47-e045ee4c8531"
BOB = "bc6d7c2c-6035-447b-abc7-4e7a48498751"
FILM = "905b0587-e5d1-47bd-9499-830813ad6914"
HERO = "212ac859-99b8-432f-9a49-1c24cd60e874"
LANTERN = "0843bda0-3b64-449c-bcfd-66872821f59b"
SQ01 = "087571a0-18dd-4355-959e-aa4c6035fe35"
SH010 = "60f1cdd7-e624-46aa-be1e-d6620dc026a6"
GHOST = "00000000-0000-4000-8000-0000000000aa"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200):
        return call(method, path, body, expect=expect)[1]

    def named(items, name):
        return next(item for item in items if item["name"] == name)

    # ---- a. login (the token it answers is not used: every other call sends the fixed one) and reads of the seed
    call("POST", "/auth/login", {"email": "admin@example.com", "password": "capenv-throwaway"}, token=None, expect=200)
    call("POST", "/auth/login", {"email": "admin@example.com", "password": "wrong-password"}, token=None, expect=400)
    get("/data/persons")
    for person in (ADMIN, ALICE, BOB):
        get(f"/data/persons/{person}")
    departments = get("/data/departments")
    task_types = get("/data/task-types")
    statuses = get("/data/task-status")
    asset_types = get("/data/asset-types")
    get("/data/project-status")
    get("/data/projects")
    get(f"/data/projects/{FILM}")
    get(f"/data/projects/{FILM}/asset-types")
    get(f"/data/projects/{FILM}/assets")
    get(f"/data/assets/{HERO}")
    get(f"/data/assets/{LANTERN}")
    get(f"/data/projects/{FILM}/sequences")
    get(f"/data/projects/{FILM}/shots")
    get(f"/data/shots/{SH010}")
    get(f"/data/sequences/{SQ01}")
    tasks = get(f"/data/projects/{FILM}/tasks")
    hero_task = next(task for task in tasks if task["entity_id"] == HERO)
    get(f"/data/tasks/{hero_task['id']}")
    get(f"/data/tasks/{hero_task['id']}/comments")
    get(f"/data/assets/{HERO}/tasks")
    modeling = next(t for t in task_types if t["name"] == "Modeling" and t["for_entity"] == "Asset")
    shot_animation = next(t for t in task_types if t["name"] == "Animation" and t["for_entity"] == "Shot")
    get(f"/data/task-types/{modeling['id']}")
    wip = named(statuses, "Work In Progress")
    get(f"/data/task-status/{wip['id']}")
    character = named(asset_types, "Character")
    get(f"/data/asset-types/{character['id']}")
    animation_department = named(departments, "Animation")
    get(f"/data/departments/{animation_department['id']}")
    # filters and paging the generic collections take
    get("/data/task-types", name="Modeling")
    get("/data/task-types", for_entity="Shot")
    get("/data/persons", role="supervisor")
    get("/data/entities", project_id=FILM)
    get("/data/tasks", entity_id=HERO)
    get("/data/task-status", page="1", limit="3")
    get("/data/departments", page="2", limit="2")

    # ---- b. departments: create, update, delete
    lighting = send("POST", "/data/departments", {"name": "Lighting", "color": "#FFB300"}, expect=201)
    get(f"/data/departments/{lighting['id']}")
    send("PUT", f"/data/departments/{lighting['id']}", {"color": "#FF6F00"})
    get(f"/data/departments/{lighting['id']}")
    time.sleep(1.1)  # Zou's clocks are whole seconds: a later update shows whether updated_at moves
    send("PUT", f"/data/departments/{lighting['id']}", {"name": "Lighting & Look"})
    get("/data/departments")
    send("POST", "/data/departments", {"name": "Lighting & Look", "color": "#000000"}, expect=400)  # taken name
    send("POST", "/data/departments", {"color": "#000000"}, expect=400)  # no name
    rigging = send("POST", "/data/departments", {"name": "Rigging", "color": "#5E35B1"}, expect=201)
    send("DELETE", f"/data/departments/{rigging['id']}", expect=204)
    get(f"/data/departments/{rigging['id']}", expect=404)
    send("DELETE", f"/data/departments/{rigging['id']}", expect=404)
    send("PUT", f"/data/departments/{GHOST}", {"color": "#111111"}, expect=404)
    get("/data/departments")

    # ---- c. task statuses and task types
    review = send("POST", "/data/task-status", {"name": "Client Review", "short_name": "crev", "color": "#8E24AA",
                                                "is_done": False, "is_retake": False}, expect=201)
    get(f"/data/task-status/{review['id']}")
    send("PUT", f"/data/task-status/{review['id']}", {"color": "#6A1B9A", "is_feedback_request": True})
    get(f"/data/task-status/{review['id']}")
    time.sleep(1.1)
    send("PUT", f"/data/task-status/{review['id']}", {"description": "Waiting for the client's notes"})
    get(f"/data/task-status/{review['id']}")
    send("POST", "/data/task-status", {"name": "Client Review", "short_name": "crev", "color": "#000000"}, expect=400)
    send("POST", "/data/task-status", {"short_name": "nona"}, expect=400)
    get("/data/task-status")
    lookdev = send("POST", "/data/task-types", {"name": "Lookdev", "short_name": "look", "color": "#00897B",
                                                "for_entity": "Asset", "department_id": lighting["id"]}, expect=201)
    get(f"/data/task-types/{lookdev['id']}")
    send("PUT", f"/data/task-types/{lookdev['id']}", {"priority": 4, "color": "#00695C"})
    get(f"/data/task-types/{lookdev['id']}")
    time.sleep(1.1)
    send("PUT", f"/data/task-types/{lookdev['id']}", {"short_name": "lkd"})
    get(f"/data/task-types/{lookdev['id']}")
    send("POST", "/data/task-types", {"name": "Lookdev", "for_entity": "Asset"}, expect=400)
    get("/data/task-types", for_entity="Asset")
    scratch_type = send("POST", "/data/task-types", {"name": "Scratch", "for_entity": "Shot", "color": "#9E9E9E"},
                        expect=201)
    send("DELETE", f"/data/task-types/{scratch_type['id']}", expect=204)
    get(f"/data/task-types/{scratch_type['id']}", expect=404)
    get(f"/data/task-types/{GHOST}", expect=404)

    # ---- d. asset types
    # asset types are written as entity types (/data/entity-types) and read at both paths
    vehicle = send("POST", "/data/entity-types", {"name": "Vehicle"}, expect=201)
    get(f"/data/asset-types/{vehicle['id']}")
    get(f"/data/entity-types/{vehicle['id']}")
    send("PUT", f"/data/entity-types/{vehicle['id']}", {"name": "Vehicles", "short_name": "veh"})
    get(f"/data/asset-types/{vehicle['id']}")
    get("/data/asset-types")
    send("POST", "/data/asset-types", {"name": "Boats"}, expect=405)  # the asset-type path is read-only
    send("POST", "/data/entity-types", {"name": "Vehicles"}, expect=400)
    creature = send("POST", "/data/entity-types", {"name": "Creature"}, expect=201)
    send("DELETE", f"/data/entity-types/{creature['id']}", expect=204)
    get(f"/data/asset-types/{creature['id']}", expect=404)
    get(f"/data/entity-types/{creature['id']}", expect=404)
    get("/data/asset-types")

    # ---- e. persons
    carol = send("POST", "/data/persons", {"first_name": "Carol", "last_name": "Lee", "email": "carol@studio.example",
                                           "role": "user", "departments": [lighting["id"]]}, expect=201)
    get(f"/data/persons/{carol['id']}")
    send("PUT", f"/data/persons/{carol['id']}", {"phone": "+33 1 23 45 67 89", "position": "lead"})
    get(f"/data/persons/{carol['id']}")
    send("PUT", f"/data/persons/{carol['id']}", {"role": "supervisor"})
    get(f"/data/persons/{carol['id']}")
    send("POST", "/data/persons", {"first_name": "Carol", "last_name": "Again", "email": "carol@studio.example"},
         expect=400)  # the email is taken
    send("POST", "/data/persons", {"first_name": "NoMail"}, expect=400)
    send("POST", "/data/persons", {"first_name": "Bad", "last_name": "Mail", "email": "not-an-email"}, expect=400)
    get("/data/persons")
    get("/data/persons", role="supervisor")
    dave = send("POST", "/data/persons", {"first_name": "Dave", "last_name": "Temp", "email": "dave@studio.example"},
                expect=201)
    send("DELETE", f"/data/persons/{dave['id']}", expect=204)
    get(f"/data/persons/{dave['id']}", expect=404)
    get(f"/data/persons/{GHOST}", expect=404)
    get("/data/persons")
    # the seeded freelancer leaves
    eve = next(person for person in get("/data/persons") if person["first_name"] == "Eve")
    send("DELETE", f"/data/persons/{eve['id']}", expect=204)
    get(f"/data/persons/{eve['id']}", expect=404)
    get("/data/persons")

    # ---- f. projects
    open_status = named(get("/data/project-status"), "Open")
    closed_status = named(get("/data/project-status"), "Closed")
    comet = send("POST", "/data/projects", {"name": "Comet", "production_type": "tvshow", "fps": "25",
                                            "resolution": "1920x1080", "project_status_id": open_status["id"]},
                 expect=201)
    get(f"/data/projects/{comet['id']}")
    send("PUT", f"/data/projects/{comet['id']}", {"description": "A comet crosses the sky", "fps": "24"})
    get(f"/data/projects/{comet['id']}")
    get("/data/projects")
    get("/data/projects", name="Comet")
    send("POST", "/data/projects", {"name": "Comet"}, expect=400)
    send("POST", "/data/projects", {"production_type": "short"}, expect=400)
    get(f"/data/projects/{GHOST}", expect=404)
    send("PUT", f"/data/projects/{GHOST}", {"fps": "30"}, expect=404)
    # a production's settings: task types and statuses linked to it
    send("POST", f"/data/projects/{comet['id']}/settings/task-types", {"task_type_id": lookdev["id"]}, expect=201)
    send("POST", f"/data/projects/{comet['id']}/settings/task-types", {"task_type_id": modeling["id"]}, expect=201)
    get(f"/data/projects/{comet['id']}")
    send("POST", f"/data/projects/{comet['id']}/settings/task-status", {"task_status_id": wip["id"]}, expect=201)
    get(f"/data/projects/{comet['id']}")

    # ---- g. assets of the new production
    tail = send("POST", f"/data/projects/{comet['id']}/asset-types/{vehicle['id']}/assets/new",
                {"name": "Comet Tail", "description": "The glowing tail"}, expect=201)
    get(f"/data/assets/{tail['id']}")
    get(f"/data/projects/{comet['id']}/assets")
    get(f"/data/projects/{comet['id']}/asset-types")
    send("PUT", f"/data/entities/{tail['id']}", {"description": "The glowing tail, two layers"})
    get(f"/data/assets/{tail['id']}")
    rock = send("POST", f"/data/projects/{comet['id']}/asset-types/{character['id']}/assets/new",
                {"name": "Rock", "description": "A talking rock"}, expect=201)
    send("POST", f"/data/projects/{comet['id']}/asset-types/{character['id']}/assets/new",
         {"description": "no name"}, expect=400)
    send("POST", f"/data/projects/{GHOST}/asset-types/{character['id']}/assets/new", {"name": "Lost"}, expect=404)
    get(f"/data/projects/{comet['id']}/assets")
    get("/data/assets", project_id=comet["id"])
    get(f"/data/projects/{comet['id']}/asset-types/{character['id']}/assets")
    send("DELETE", f"/data/assets/{rock['id']}", expect=204)
    get(f"/data/assets/{rock['id']}", expect=404)
    get(f"/data/projects/{comet['id']}/assets")
    get(f"/data/assets/{GHOST}", expect=404)

    # ---- h. sequences and shots
    sq = send("POST", f"/data/projects/{comet['id']}/sequences", {"name": "SQ10"}, expect=201)
    get(f"/data/sequences/{sq['id']}")
    get(f"/data/projects/{comet['id']}/sequences")
    sh = send("POST", f"/data/projects/{comet['id']}/shots", {"name": "SH100", "sequence_id": sq["id"],
                                                              "nb_frames": 96}, expect=201)
    get(f"/data/shots/{sh['id']}")
    send("POST", f"/data/projects/{comet['id']}/shots", {"name": "SH110", "sequence_id": sq["id"]}, expect=201)
    get(f"/data/projects/{comet['id']}/shots")
    get(f"/data/sequences/{sq['id']}/shots")
    send("PUT", f"/data/entities/{sh['id']}", {"nb_frames": 120, "description": "The comet appears"})
    get(f"/data/shots/{sh['id']}")
    # a taken shot name in the sequence: the existing shot is answered, nothing is made
    send("POST", f"/data/projects/{comet['id']}/shots", {"name": "SH100", "sequence_id": sq["id"]}, expect=201)
    get(f"/data/projects/{comet['id']}/shots")
    get(f"/data/shots/{GHOST}", expect=404)

    # ---- i. tasks: made for every asset of a type, assigned, commented (status changes), updated, deleted
    made = send("POST", f"/actions/projects/{comet['id']}/task-types/{lookdev['id']}/assets/create-tasks",
                expect=201)
    get(f"/data/projects/{comet['id']}/tasks")
    tail_task = next(task for task in made if task["entity_id"] == tail["id"])
    get(f"/data/tasks/{tail_task['id']}")
    get(f"/data/assets/{tail['id']}/tasks")
    send("PUT", f"/actions/tasks/{tail_task['id']}/assign", {"person_id": carol["id"]})
    get(f"/data/tasks/{tail_task['id']}")
    comment = send("POST", f"/actions/tasks/{tail_task['id']}/comment",
                   {"task_status_id": wip["id"], "comment": "First lookdev pass"}, expect=201)
    get(f"/data/tasks/{tail_task['id']}")
    get(f"/data/tasks/{tail_task['id']}/comments")
    get(f"/data/tasks/{tail_task['id']}/comments/{comment['id']}")
    send("POST", f"/actions/tasks/{tail_task['id']}/comment",
         {"task_status_id": review["id"], "comment": "Ready for the client"}, expect=201)
    get(f"/data/tasks/{tail_task['id']}")
    get(f"/data/tasks/{tail_task['id']}/comments")
    send("POST", f"/actions/tasks/{tail_task['id']}/comment", {"comment": "no status"}, expect=400)
    send("POST", f"/actions/tasks/{GHOST}/comment", {"task_status_id": wip["id"], "comment": "x"}, expect=404)
    send("PUT", f"/data/tasks/{tail_task['id']}", {"priority": 2, "estimation": 3, "description": "Two passes"})
    get(f"/data/tasks/{tail_task['id']}")
    shot_task = send("POST", "/data/tasks", {"name": "main", "project_id": comet["id"], "task_type_id": shot_animation["id"],
                                             "task_status_id": wip["id"], "entity_id": sh["id"]}, expect=201)
    get(f"/data/tasks/{shot_task['id']}")
    get("/data/tasks", entity_id=sh["id"])
    send("POST", "/data/tasks", {"name": "main", "project_id": comet["id"], "task_type_id": modeling["id"],
                                 "task_status_id": wip["id"], "entity_id": sh["id"]}, expect=400)  # an asset type
    send("DELETE", f"/data/tasks/{shot_task['id']}", expect=204)
    get(f"/data/tasks/{shot_task['id']}", expect=404)
    get(f"/data/tasks/{GHOST}", expect=404)
    get(f"/data/projects/{comet['id']}/tasks")

    # ---- j. deletes with dependants
    send("DELETE", f"/data/task-status/{review['id']}", expect=400)  # a task holds it
    get(f"/data/task-status/{review['id']}")
    send("DELETE", f"/data/departments/{lighting['id']}", expect=400)  # Lookdev and Carol name it
    get(f"/data/departments/{lighting['id']}")
    send("DELETE", f"/data/assets/{tail['id']}", expect=204)  # it has tasks: canceled, not removed
    get(f"/data/assets/{tail['id']}")
    get(f"/data/projects/{comet['id']}/assets")
    call("DELETE", f"/data/assets/{tail['id']}", params={"force": "true"}, expect=204)
    get(f"/data/assets/{tail['id']}", expect=404)
    get(f"/data/projects/{comet['id']}/tasks")
    send("DELETE", f"/data/projects/{comet['id']}", expect=400)  # open productions are not deleted
    get(f"/data/projects/{comet['id']}")
    send("PUT", f"/data/projects/{comet['id']}", {"project_status_id": closed_status["id"]})
    get(f"/data/projects/{comet['id']}")
    call("DELETE", f"/data/projects/{comet['id']}", params={"force": "true"}, expect=204)
    get(f"/data/projects/{comet['id']}", expect=404)
    get(f"/data/shots/{sh['id']}")  # still answered: the shot read is memoized in the worker
    get("/data/projects")
    send("DELETE", f"/data/projects/{GHOST}", expect=404)
    send("DELETE", f"/data/task-types/{lookdev['id']}", expect=204)
    get("/data/task-types", for_entity="Asset")
    send("DELETE", f"/data/task-status/{review['id']}", expect=204)
    get("/data/task-status")

    # ---- k. writes on the seeded production, read back
    send("PUT", f"/data/projects/{FILM}", {"description": "The seeded short", "max_retakes": 3})
    get(f"/data/projects/{FILM}")
    send("PUT", f"/data/entities/{LANTERN}", {"description": "An old oil lantern, lit"})
    get(f"/data/assets/{LANTERN}")
    send("PUT", f"/data/persons/{BOB}", {"first_name": "Robert"})
    get(f"/data/persons/{BOB}")
    get("/data/persons")
    check("calls", d.n > 150, True)


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18401")
