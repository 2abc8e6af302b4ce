#!/usr/bin/env python3
"""Scenario driver for Aim 3.29.1's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46351 --mode capture [-v]

FastAPI under /api/ with no auth. Every route answers with and without its trailing slash (Aim's own
router adds both); the driver sends both spellings. Experiments and tags: lists are bare arrays, items
at `/<collection>/<uuid>/`, POST creates answering `{id, status}`, PUT updates the members sent answering
`{id, status}`; a tag DELETE answers `null`, an experiment DELETE `{status}` (its runs go with it).
Runs are read at `/runs/<hash>/info/`, updated by PUT (`archived` unsent is stored null: the run reads
as not archived, and its experiment's run list answers 500 until it is set again), tagged by
`POST /runs/<hash>/tags/new/ {tag_name}` (a new name makes the tag), untagged by DELETE
`/runs/<hash>/tags/<tag uuid>/`, archived in bulk by `POST /runs/archive-batch/?archive=` with an array
of hashes, and deleted. Notes of a run or an experiment are numbered across both (`/note/<int>`).
Explore states (`/apps/`) and dashboards answer the whole entity on create (201) and PUT; their DELETE
archives (a later read is a 404) and answers `null`. Reports are deleted for good.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api"
RUNS = {"r1": "6f3b4ecf36cb4ca6902caa53", "r2": "3c23f737083f49a5897c5ffc",
        "r3": "3530a9b2a34443ae9e4388cf", "r4": "25be44960cd34f8ea58b6b62"}
MISSING_UUID = "0f0e0d0c-0b0a-4908-8706-050403020100"


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose)


def capture(d: Driver):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return d.get(API + path, expect=expect, **params)

    def write(method, path, body=None, expect=200, params=None):
        return call(method, API + path, body, params=params, expect=expect)[1]

    def named(items, name):
        return next(i["id"] for i in items if i["name"] == name)

    r1, r2, r3, r4 = (RUNS[k] for k in ("r1", "r2", "r3", "r4"))

    # ---- a. the seed: every collection and item, before any write
    get("/projects/")
    get("/projects/params/")
    experiments = get("/experiments/")
    check("experiments", sorted(e["name"] for e in experiments), ["ablation", "baseline", "default", "tuning"])
    baseline, tuning = named(experiments, "baseline"), named(experiments, "tuning")
    ablation, default = named(experiments, "ablation"), named(experiments, "default")
    for i, experiment in enumerate(experiments):
        get(f"/experiments/{experiment['id']}" + ("/" if i % 2 == 0 else ""))
    get(f"/experiments/{baseline}/runs/")
    get(f"/experiments/{tuning}/runs")
    get(f"/experiments/{tuning}/runs/", limit=1)
    get(f"/experiments/{tuning}/runs/", limit=1, offset=r3)
    get(f"/experiments/{ablation}/runs/")
    get("/experiments/search/", q="base")
    get("/experiments/search/", q="zzz")
    get(f"/experiments/{baseline}/note/")
    get(f"/experiments/{baseline}/note/1")
    get(f"/experiments/{tuning}/note")
    tags = get("/tags/")
    check("tags", sorted(t["name"] for t in tags), ["best", "gpu", "legacy"])
    best, gpu, legacy = named(tags, "best"), named(tags, "gpu"), named(tags, "legacy")
    for i, tag in enumerate(tags):
        get(f"/tags/{tag['id']}" + ("/" if i % 2 == 0 else ""))
    get(f"/tags/{best}/runs/")
    get(f"/tags/{gpu}/runs")
    get("/tags/search/", q="g")
    for i, run in enumerate((r1, r2, r3, r4)):
        get(f"/runs/{run}/info" + ("/" if i % 2 == 0 else ""))
    get(f"/runs/{r1}/info/", skip_system="true")
    get(f"/runs/{r1}/note/")
    get(f"/runs/{r1}/note/2")
    get(f"/runs/{r3}/note")
    apps = get("/apps/")
    for app in apps:
        get(f"/apps/{app['id']}/")
    dashboards = get("/dashboards/")
    for i, dashboard in enumerate(dashboards):
        get(f"/dashboards/{dashboard['id']}" + ("/" if i % 2 == 0 else ""))
    get("/reports/")
    # absences and bad ids
    get(f"/experiments/{MISSING_UUID}/", expect=404)
    get(f"/tags/{MISSING_UUID}/", expect=404)
    get("/runs/0123456789abcdef01234567/info/", expect=404)
    get(f"/apps/{MISSING_UUID}/", expect=404)
    get(f"/dashboards/{MISSING_UUID}", expect=404)
    get(f"/reports/{MISSING_UUID}/", expect=404)
    get(f"/experiments/{baseline}/note/99", expect=404)
    get(f"/experiments/{baseline}/note/first", expect=422)
    get(f"/runs/{r1}/note/1", expect=404)       # experiment baseline's note, not run r1's
    get(f"/experiments/{MISSING_UUID}/runs/", expect=404)

    # ---- b. creates, each read after
    made = write("POST", "/experiments/", {"name": "distillation"})
    distillation = made["id"]
    get(f"/experiments/{distillation}/")
    get("/experiments/")
    made = write("POST", "/experiments", {"name": "  pruning  "})     # stored stripped
    pruning = made["id"]
    get(f"/experiments/{pruning}")
    write("POST", "/experiments/", {"name": "baseline"}, expect=400)
    write("POST", "/experiments/", {}, expect=422)
    write("POST", "/experiments/", {"name": 5}, expect=422)
    get("/experiments/")

    made = write("POST", "/tags/", {"name": "candidate", "color": "#e67e22", "description": "to review"})
    candidate = made["id"]
    get(f"/tags/{candidate}/")
    get("/tags/")
    made = write("POST", "/tags", {"name": "nightly"})                  # color and description default ""
    nightly = made["id"]
    get(f"/tags/{nightly}")
    write("POST", "/tags/", {"name": "gpu"}, expect=400)
    write("POST", "/tags/", {"color": "#000000"}, expect=422)
    get("/tags/")

    made = write("POST", "/runs/" + r3 + "/tags/new/", {"tag_name": "gpu"})
    check("tag id of gpu", made.get("tag_id"), gpu)
    get(f"/runs/{r3}/info/")
    get(f"/tags/{gpu}/")
    get(f"/tags/{gpu}/runs/")
    made = write("POST", f"/runs/{r2}/tags/new", {"tag_name": "reviewed"})  # a new name makes the tag
    reviewed = made["tag_id"]
    get(f"/tags/{reviewed}/")
    get("/tags/")
    get(f"/runs/{r2}/info")
    write("POST", "/runs/0123456789abcdef01234567/tags/new/", {"tag_name": "gpu"}, expect=404)

    made = write("POST", f"/experiments/{tuning}/note/", {"content": "adam beats sgd below lr 0.01"}, expect=201)
    tuning_note = made["id"]
    get(f"/experiments/{tuning}/note/{tuning_note}")
    get(f"/experiments/{tuning}/note/")
    made = write("POST", f"/runs/{r2}/note/", {"content": "  loss plateaus after step 2  "}, expect=201)
    r2_note = made["id"]
    get(f"/runs/{r2}/note/{r2_note}")
    get(f"/runs/{r2}/note")
    get(f"/runs/{r2}/info/")
    write("POST", f"/runs/{r2}/note/", {}, expect=422)
    write("POST", f"/experiments/{MISSING_UUID}/note/", {"content": "x"}, expect=404)

    app = write("POST", "/apps/", {"type": "images", "state": {"select": {"query": "images"}, "grid": 3}},
                expect=201)
    images = app["id"]
    get(f"/apps/{images}/")
    get("/apps/")
    write("POST", "/apps/", {"type": "images"}, expect=422)
    board = write("POST", "/dashboards/", {"name": "Images board", "description": "sample grids",
                                           "app_id": images}, expect=201)
    images_board = board["id"]
    get(f"/dashboards/{images_board}/")
    get("/dashboards/")
    board = write("POST", "/dashboards", {"name": "Scratch"}, expect=201)
    scratch = board["id"]
    get(f"/dashboards/{scratch}")
    write("POST", "/dashboards/", {"description": "no name"}, expect=422)
    get("/dashboards/")

    report = write("POST", "/reports/", {"name": "Weekly", "code": "# Weekly\nloss is down",
                                         "description": "for the Monday sync"}, expect=201)
    weekly = report["id"]
    get(f"/reports/{weekly}/")
    get("/reports/")
    report = write("POST", "/reports", {"name": "Draft"}, expect=201)
    draft = report["id"]
    get(f"/reports/{draft}")
    write("POST", "/reports/", {"code": "x"}, expect=422)

    # ---- c. updates, each read after
    write("PUT", f"/experiments/{distillation}/", {"name": "distill", "description": "teacher-student"})
    get(f"/experiments/{distillation}/")
    write("PUT", f"/experiments/{distillation}", {"description": "teacher-student, 2 sizes"})
    get(f"/experiments/{distillation}")
    write("PUT", f"/experiments/{ablation}/", {"archived": True})
    get(f"/experiments/{ablation}/")
    get("/experiments/")
    write("PUT", f"/experiments/{ablation}/", {"archived": False})
    get(f"/experiments/{ablation}")
    write("PUT", f"/experiments/{baseline}/", {"archived": True}, expect=400)   # it has runs
    get(f"/experiments/{baseline}/")
    write("PUT", f"/experiments/{MISSING_UUID}/", {"description": "x"}, expect=404)
    write("PATCH", f"/experiments/{distillation}/", {"description": "x"}, expect=405)

    write("PUT", f"/tags/{candidate}/", {"color": "#c0392b"})
    get(f"/tags/{candidate}/")
    write("PUT", f"/tags/{candidate}", {"name": "candidate-2", "description": "  second look  "})
    get(f"/tags/{candidate}")
    write("PUT", f"/tags/{nightly}/", {"archived": True})
    get(f"/tags/{nightly}/")
    get("/tags/")
    write("PUT", f"/tags/{MISSING_UUID}/", {"color": "#000000"}, expect=404)
    write("PATCH", f"/tags/{candidate}/", {"color": "#000000"}, expect=405)

    write("PUT", f"/runs/{r2}/", {"name": "baseline-lr0.1-rerun", "description": "rerun", "archived": False})
    get(f"/runs/{r2}/info/")
    get(f"/experiments/{baseline}/runs/")
    write("PUT", f"/runs/{r1}", {"description": "  the reference run, seed 1  ", "archived": False})
    get(f"/runs/{r1}/info")
    write("PUT", f"/runs/{r4}/", {"name": "tuning-sgd-revived"})            # archived unsent: stored null
    get(f"/runs/{r4}/info/")
    get(f"/experiments/{tuning}/runs/", expect=500)                       # r4's archived is null now
    write("PUT", f"/runs/{r2}/", {"experiment": "distill", "archived": False})  # moved to another experiment
    get(f"/runs/{r2}/info")
    get(f"/experiments/{distillation}/")
    get(f"/experiments/{baseline}/")
    get(f"/experiments/{distillation}/runs/")
    write("PUT", "/runs/0123456789abcdef01234567/", {"name": "x"}, expect=404)

    write("POST", "/runs/archive-batch/", [r3], params={"archive": "true"})
    get(f"/runs/{r3}/info/")
    get(f"/experiments/{tuning}/runs", expect=500)
    write("POST", "/runs/archive-batch", [r3, r4], params={"archive": "false"})
    get(f"/runs/{r3}/info")
    get(f"/runs/{r4}/info/")

    write("PUT", f"/experiments/{tuning}/note/{tuning_note}", {"content": "adam beats sgd below lr 0.02"})
    get(f"/experiments/{tuning}/note/{tuning_note}")
    write("PUT", f"/runs/{r2}/note/{r2_note}", {"content": "plateau fixed by warmup"})
    get(f"/runs/{r2}/note/{r2_note}")
    get(f"/runs/{r2}/note/")
    write("PUT", f"/runs/{r2}/note/99", {"content": "x"}, expect=404)

    write("PUT", f"/apps/{images}/", {"state": {"select": {"query": "images"}, "grid": 4}})
    get(f"/apps/{images}/")
    write("PUT", f"/apps/{images}", {"type": "figures"})
    get(f"/apps/{images}")
    get(f"/dashboards/{images_board}/")
    write("PUT", f"/apps/{MISSING_UUID}/", {"type": "x"}, expect=404)
    write("PUT", f"/dashboards/{images_board}/", {"name": "Figures board"})
    get(f"/dashboards/{images_board}/")
    write("PUT", f"/dashboards/{scratch}", {"description": "to delete"})
    get(f"/dashboards/{scratch}")
    get("/dashboards/")
    write("PUT", f"/dashboards/{MISSING_UUID}/", {"name": "x"}, expect=404)
    write("PUT", f"/reports/{weekly}/", {"code": "# Weekly\nloss is down 12%"})
    get(f"/reports/{weekly}/")
    write("PUT", f"/reports/{draft}", {"name": "Draft 2", "description": "unfinished"})
    get(f"/reports/{draft}")
    get("/reports/")
    write("PUT", f"/reports/{MISSING_UUID}/", {"name": "x"}, expect=404)

    # ---- d. deletes, each read after
    made = write("DELETE", f"/runs/{r3}/tags/{gpu}/")
    check("removed", made.get("removed"), True)
    get(f"/runs/{r3}/info/")
    get(f"/tags/{gpu}/")
    write("DELETE", f"/runs/{r1}/tags/{best}")
    get(f"/runs/{r1}/info")
    get(f"/tags/{best}/runs/")

    write("DELETE", f"/experiments/{tuning}/note/{tuning_note}")
    get(f"/experiments/{tuning}/note/{tuning_note}", expect=404)
    get(f"/experiments/{tuning}/note/")
    write("DELETE", f"/experiments/{tuning}/note/{tuning_note}", expect=404)
    write("DELETE", f"/runs/{r2}/note/{r2_note}/")
    get(f"/runs/{r2}/note/{r2_note}", expect=404)
    get(f"/runs/{r2}/info/")

    write("DELETE", f"/tags/{nightly}/")
    get(f"/tags/{nightly}/", expect=404)
    get("/tags/")
    write("DELETE", f"/tags/{nightly}", expect=404)
    write("DELETE", f"/tags/{reviewed}/")                                   # a tag a run holds
    get(f"/runs/{r2}/info")
    get("/tags/")

    write("DELETE", f"/dashboards/{scratch}/")
    get(f"/dashboards/{scratch}/", expect=404)
    get("/dashboards/")
    write("DELETE", f"/dashboards/{scratch}/", expect=404)
    write("DELETE", f"/apps/{images}")
    get(f"/apps/{images}/", expect=404)
    get("/apps/")
    get(f"/dashboards/{images_board}/")                                    # its app archived
    write("DELETE", f"/apps/{images}/", expect=404)
    write("DELETE", f"/reports/{draft}/")
    get(f"/reports/{draft}/", expect=404)
    get("/reports/")
    write("DELETE", f"/reports/{draft}", expect=404)

    write("DELETE", f"/experiments/{pruning}/")                            # no runs
    get(f"/experiments/{pruning}/", expect=404)
    get("/experiments/")
    write("DELETE", f"/runs/{r4}/")
    get(f"/runs/{r4}/info/", expect=404)
    get(f"/experiments/{tuning}/")
    get(f"/experiments/{tuning}/runs/")
    write("DELETE", f"/experiments/{distillation}")                        # its run r2 with it
    get(f"/experiments/{distillation}", expect=404)
    get(f"/runs/{r2}/info", expect=404)
    get(f"/tags/{gpu}/")

    # ---- e. final reads of what is left
    for experiment in get("/experiments/"):
        get(f"/experiments/{experiment['id']}/")
        get(f"/experiments/{experiment['id']}/runs/")
    for tag in get("/tags/"):
        get(f"/tags/{tag['id']}/")
    for run in (r1, r3):
        get(f"/runs/{run}/info/")
        get(f"/runs/{run}/note/")
    for app in get("/apps/"):
        get(f"/apps/{app['id']}/")
    for dashboard in get("/dashboards/"):
        get(f"/dashboards/{dashboard['id']}/")
    for report in get("/reports/"):
        get(f"/reports/{report['id']}/")
    get("/projects/params/")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46351")
