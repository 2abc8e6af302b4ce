#!/usr/bin/env python3
"""Seed a fresh Aim 3.29.1 repository (not recorded), in three steps start.sh runs in turn.

Usage: python seed.py runs REPO_DIR        (before the server: runs, experiments and tags by the SDK)
       python seed.py web BASE_URL         (the server up: notes, explore states and dashboards by the API)
       python seed.py fix REPO_DIR         (the server stopped: the web ids made fixed)

Every identity is the same at each start, so that the live application beside the model holds the
ids the capture recorded: the SDK step draws its UUIDs and run hashes (uuid.uuid4 in this process
only) from a fixed sequence; notes are integers numbered by the database; explore states and
dashboards get time-based UUIDs (uuid.uuid1) from the server, replaced afterwards by fixed ones in its
own SQLite store (.aim/aim_db), references included. Clock values (creation_time, created_at,
updated_at) are the start's own. No system metrics are tracked (no CPU or memory samples).

Seed (experiment "default" is made by the repository itself):
  experiments baseline (runs r1, r2), tuning (r3, r4 archived), ablation (no runs)
  tags best (color, description), gpu, legacy (archived)
  runs r1 "baseline-lr0.01" (best, gpu), r2 "baseline-lr0.1" (gpu), r3 "tuning-adam" (best),
       r4 "tuning-sgd-old" (archived); hparams and loss/accuracy over 4 steps, train and val
  notes 1 on experiment baseline, 2 on run r1
  explore states (apps) metrics and params; dashboards "Loss overview" (the metrics app) and "Params"
Standard library plus the aim SDK for the first step.
"""
import hashlib
import json
import sqlite3
import sys
import urllib.request
import uuid
from pathlib import Path

RUNS = [  # hash key, name, experiment, tags, lr, optimizer, archived, description
    ("r1", "baseline-lr0.01", "baseline", ["best", "gpu"], 0.01, "sgd", False, "the reference run"),
    ("r2", "baseline-lr0.1", "baseline", ["gpu"], 0.1, "sgd", False, None),
    ("r3", "tuning-adam", "tuning", ["best"], 0.001, "adam", False, "adam with warmup"),
    ("r4", "tuning-sgd-old", "tuning", [], 0.05, "sgd", True, None),
]
EXPERIMENTS = {"baseline": "plain SGD baselines", "tuning": "learning-rate and optimizer search",
               "ablation": None}
TAGS = [("best", "#2ecc71", "best so far", False), ("gpu", "#3498db", None, False),
        ("legacy", None, "kept for history", True)]
APPS = [("metrics", {"chart": {"type": "line"}, "select": {"query": "metric.name == 'loss'"}}),
        ("params", {"select": {"query": "run.hparams.lr > 0"}})]
DASHBOARDS = [("Loss overview", "loss of every run", 0), ("Params", None, 1)]  # name, description, app


def fixed_uuid(label: str) -> uuid.UUID:
    return uuid.UUID(bytes=hashlib.sha256(f"capenv-aim-{label}".encode()).digest()[:16], version=4)


def seed_runs(repo_dir: str) -> None:
    drawn = iter(range(1000))
    uuid.uuid4 = lambda: fixed_uuid(f"sdk-{next(drawn)}")  # this process's draws only: the SDK's ids
    import aim
    from aim.sdk.repo import Repo

    repo = Repo.from_path(repo_dir)
    for name, description in EXPERIMENTS.items():
        experiment = repo.structured_db.create_experiment(name)
        if description:
            experiment.description = description
    for name, color, description, archived in TAGS:
        tag = repo.structured_db.create_tag(name)
        if color:
            tag.color = color
        if description:
            tag.description = description
        tag.archived = archived
    for key, name, experiment, tags, lr, optimizer, archived, description in RUNS:
        run = aim.Run(repo=repo_dir, experiment=experiment, system_tracking_interval=None,
                      log_system_params=False, capture_terminal_logs=False)
        run.name = name
        if description:
            run.description = description
        run["hparams"] = {"lr": lr, "batch_size": 32, "optimizer": optimizer}
        run["dataset"] = {"name": "mnist", "version": 2}
        for step in range(4):
            run.track(round(2.0 / (step + 1) * (1 + lr), 4), name="loss", step=step, context={"subset": "train"})
            run.track(round(0.5 + step * 0.1 - lr, 4), name="accuracy", step=step, context={"subset": "val"})
        for tag in tags:
            run.add_tag(tag)
        run.archived = archived
        print(key, run.hash)
        run.close()


def call(base: str, method: str, path: str, body: object) -> object:
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def seed_web(base: str) -> None:
    experiments = {e["name"]: e["id"] for e in json.loads(urllib.request.urlopen(base + "/api/experiments/").read())}
    call(base, "POST", f"/api/experiments/{experiments['baseline']}/note/", {"content": "SGD diverges above lr 0.5"})
    first = json.loads(urllib.request.urlopen(base + f"/api/experiments/{experiments['baseline']}/runs/").read())
    r1 = next(r["run_id"] for r in first["runs"] if r["name"] == "baseline-lr0.01")
    call(base, "POST", f"/api/runs/{r1}/note/", {"content": "rerun with seed 2 before publishing"})
    apps = [call(base, "POST", "/api/apps/", {"type": kind, "state": state})["id"] for kind, state in APPS]
    for name, description, app in DASHBOARDS:
        call(base, "POST", "/api/dashboards/", {"name": name, "description": description, "app_id": apps[app]})


def fix_web_ids(repo_dir: str) -> None:
    """The explore states' and dashboards' server-drawn ids replaced by fixed ones, references too."""
    db = sqlite3.connect(Path(repo_dir) / ".aim" / "aim_db")
    with db:
        for table, label in (("explore_states", "app"), ("dashboards", "dashboard")):
            for n, (old,) in enumerate(db.execute(f"SELECT uuid FROM {table} ORDER BY created_at").fetchall()):
                new = str(fixed_uuid(f"{label}-{n}"))
                db.execute(f"UPDATE {table} SET uuid = ? WHERE uuid = ?", (new, old))
                if table == "dashboards":  # an explore state names its dashboard; nothing names a state
                    db.execute("UPDATE explore_states SET dashboard_id = ? WHERE dashboard_id = ?", (new, old))
    db.close()


if __name__ == "__main__":
    {"runs": seed_runs, "web": seed_web, "fix": fix_web_ids}[sys.argv[1]](sys.argv[2])
