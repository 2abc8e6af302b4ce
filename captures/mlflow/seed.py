#!/usr/bin/env python3
"""Seed a fresh MLflow 3.17.2 tracking server with a fixed data set, talking DIRECTLY to the app
port (not through the recording proxy), so the seed is not part of the HAR. Standard library only.
Usage: python seed.py http://127.0.0.1:25310

On a fresh database the experiment ids are deterministic ("0" is MLflow's own "Default"):
  experiments 1 "iris-classifier" (tag team=vision), 2 "churn-model" (team=growth, owner=ana),
              3 "scratch" (no tags, no runs)
  runs (ids are random 32-hex UUIDs, made at every start; find them by run_name):
    exp 1: "baseline" FINISHED (params lr=0.01 C=1.0, metric acc 0.90@0 0.92@1, tag model=logreg)
           "tuned"    FINISHED (params lr=0.001 C=0.5, metric acc 0.95@0, tag model=logreg)
    exp 2: "xgb-v1"   RUNNING  (param max_depth=6, metric auc 0.81@0, tag model=xgboost)
  registered models (addressed by name):
    "iris-model" (description, tag task=classification): version 1 from baseline (stage None),
                 version 2 from tuned (stage Staging), alias champion -> 2
    "churn-predictor" (no description): version 1 from xgb-v1
Every client-side timestamp (start_time, end_time, metric timestamps) is fixed; only the
server's own clocks (creation_time, last_update_time, ...) and the run ids differ per start.
"""
import json
import sys
import urllib.request

BASE = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:25310").rstrip("/")
API = BASE + "/api/2.0/mlflow/"
T0 = 1764000000000  # 2025-11-24T16:00:00Z, epoch ms


def call(method, path, body=None):
    req = urllib.request.Request(API + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        assert r.status == 200, (method, path, r.status)
        return json.loads(r.read() or b"null")


def tags(**kv):
    return [{"key": k, "value": v} for k, v in kv.items()]


e1 = call("POST", "experiments/create", {"name": "iris-classifier", "tags": tags(team="vision")})
e2 = call("POST", "experiments/create", {"name": "churn-model",
                                         "tags": tags(team="growth", owner="ana")})
e3 = call("POST", "experiments/create", {"name": "scratch"})
ids = [e["experiment_id"] for e in (e1, e2, e3)]
assert ids == ["1", "2", "3"], ids


def run(exp, name, start, params, metrics, tag_kv, end=None):
    r = call("POST", "runs/create", {"experiment_id": exp, "run_name": name, "start_time": start,
                                     "tags": tags(**tag_kv)})["run"]["info"]["run_id"]
    call("POST", "runs/log-batch", {
        "run_id": r,
        "params": [{"key": k, "value": v} for k, v in params.items()],
        "metrics": [{"key": k, "value": v, "timestamp": start + 1000 * (s + 1), "step": s}
                    for k, v, s in metrics]})
    if end is not None:
        call("POST", "runs/update", {"run_id": r, "status": "FINISHED", "end_time": end})
    return r


baseline = run("1", "baseline", T0, {"lr": "0.01", "C": "1.0"},
               [("acc", 0.90, 0), ("acc", 0.92, 1)], {"model": "logreg"}, end=T0 + 60000)
tuned = run("1", "tuned", T0 + 120000, {"lr": "0.001", "C": "0.5"}, [("acc", 0.95, 0)],
            {"model": "logreg"}, end=T0 + 180000)
xgb = run("2", "xgb-v1", T0 + 240000, {"max_depth": "6"}, [("auc", 0.81, 0)], {"model": "xgboost"})

call("POST", "registered-models/create", {"name": "iris-model",
                                          "description": "Iris species classifier",
                                          "tags": tags(task="classification")})
for n, (r, exp) in enumerate([(baseline, "1"), (tuned, "1")], start=1):
    mv = call("POST", "model-versions/create", {
        "name": "iris-model", "source": f"mlflow-artifacts:/{exp}/{r}/artifacts/model",
        "run_id": r})["model_version"]
    assert mv["version"] == str(n), mv
call("POST", "model-versions/transition-stage", {"name": "iris-model", "version": "2",
                                                 "stage": "Staging",
                                                 "archive_existing_versions": False})
call("POST", "registered-models/alias", {"name": "iris-model", "alias": "champion", "version": "2"})
call("POST", "registered-models/create", {"name": "churn-predictor"})
mv = call("POST", "model-versions/create", {
    "name": "churn-predictor", "source": f"mlflow-artifacts:/2/{xgb}/artifacts/model",
    "run_id": xgb})["model_version"]
assert mv["version"] == "1", mv
print("seeded", file=sys.stderr)
