#!/usr/bin/env python3
"""Scenario driver for an MLflow 3.17.2 tracking server (talks to the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:25311 --mode capture   # ~200 calls

No auth (the server runs without --app-name basic-auth). The seed (seed.py, not recorded) holds
experiments 1-3 (+ MLflow's own "0" Default), runs baseline/tuned (exp 1) and xgb-v1 (exp 2),
registered models iris-model (versions 1, 2; alias champion -> 2) and churn-predictor (version 1).
Run ids are random per start: the driver reads them from the first runs/search answers.
Every call is sequential, with a random 50-150 ms sleep before it. Client-side timestamps
(start_time, end_time, metric timestamps) are fixed, so only server clocks and run ids vary.
"""
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/2.0/mlflow/"
T1 = 1764100000000   # client clock for the runs the driver makes (epoch ms)
MISSING_RUN = "0123456789abcdef0123456789abcdef"


def tags(**kv):
    return [{"key": k, "value": v} for k, v in kv.items()]


class MlflowDriver(Driver):
    """MLflow's calls: paths under API, queries quoted with %20, expect 200 unless told, the body alone."""

    def call(self, method, path, body=None, query=None, raw=None, expect=200):
        if query:
            path += "?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)
        return super().call(method, API + path, body=body, raw=raw, expect=expect)[1]

    def get(self, path, expect=200, **query):
        return self.call("GET", path, query=query or None, expect=expect)

    def post(self, path, body, expect=200):
        return self.call("POST", path, body, expect=expect)


def runs_by_name(answer):
    return {r["info"]["run_name"]: r["info"]["run_id"] for r in answer.get("runs", [])}


def capture(d):
    get, post, call, check = d.get, d.post, d.call, d.check

    # ---- a. reads before any write: every list, then every item
    get("experiments/search", max_results="100")
    get("experiments/get", experiment_id="0")
    get("experiments/get", experiment_id="1")
    get("experiments/get", experiment_id="2")
    get("experiments/get", experiment_id="3")
    get("experiments/get-by-name", experiment_name="churn-model")
    seeded = runs_by_name(post("runs/search", {"experiment_ids": ["1"]}))
    seeded.update(runs_by_name(post("runs/search", {"experiment_ids": ["2"]})))
    post("runs/search", {"experiment_ids": ["3"]})                       # no runs: answers {}
    check("seeded runs", sorted(seeded), ["baseline", "tuned", "xgb-v1"])
    baseline, tuned, xgb = seeded["baseline"], seeded["tuned"], seeded["xgb-v1"]
    for r in (baseline, tuned, xgb):
        get("runs/get", run_id=r)
    get("metrics/get-history", run_id=baseline, metric_key="acc")
    get("registered-models/search")
    get("registered-models/get", name="iris-model")
    get("registered-models/get", name="churn-predictor")
    get("model-versions/search", filter="name='iris-model'")
    get("model-versions/get", name="iris-model", version="1")
    get("model-versions/get", name="iris-model", version="2")
    get("model-versions/get", name="churn-predictor", version="1")
    get("registered-models/alias", name="iris-model", alias="champion")
    # ids that never existed
    get("experiments/get", expect=404, experiment_id="999")
    get("experiments/get-by-name", expect=404, experiment_name="no-such-experiment")
    get("runs/get", expect=404, run_id=MISSING_RUN)
    get("registered-models/get", expect=404, name="no-such-model")
    get("model-versions/get", expect=404, name="iris-model", version="99")

    # ---- b. creates, each followed by item and list reads
    e = post("experiments/create", {"name": "fraud-detection",
                                    "tags": tags(team="risk", priority="high")})
    check("experiment id", e.get("experiment_id"), "4")
    get("experiments/get", experiment_id="4")
    get("experiments/search", max_results="100")
    e = post("experiments/create", {"name": "sandbox"})                # minimal body
    check("experiment id", e.get("experiment_id"), "5")
    get("experiments/get", experiment_id="5")
    get("experiments/get-by-name", experiment_name="sandbox")
    get("experiments/search", max_results="100")

    r = post("runs/create", {"experiment_id": "4", "run_name": "rf-200", "start_time": T1,
                             "tags": tags(model="random-forest")})
    rf = r["run"]["info"]["run_id"]
    get("runs/get", run_id=rf)
    post("runs/search", {"experiment_ids": ["4"]})
    r = post("runs/create", {"experiment_id": "1", "run_name": "tuned-v2",
                             "start_time": T1 + 60000})
    tv2 = r["run"]["info"]["run_id"]
    get("runs/get", run_id=tv2)
    post("runs/search", {"experiment_ids": ["1"]})
    r = post("runs/create", {"experiment_id": "5"})                     # no name, no start_time
    anon = r["run"]["info"]["run_id"]
    get("runs/get", run_id=anon)
    post("runs/search", {"experiment_ids": ["5"]})

    # metrics, params, tags on the new runs
    post("runs/log-metric", {"run_id": rf, "key": "precision", "value": 0.81,
                             "timestamp": T1 + 1000, "step": 0})
    get("runs/get", run_id=rf)
    post("runs/log-metric", {"run_id": rf, "key": "precision", "value": 0.86,
                             "timestamp": T1 + 2000, "step": 1})
    get("runs/get", run_id=rf)
    get("metrics/get-history", run_id=rf, metric_key="precision")
    post("runs/log-parameter", {"run_id": rf, "key": "n_estimators", "value": "200"})
    get("runs/get", run_id=rf)
    post("runs/set-tag", {"run_id": rf, "key": "dataset", "value": "transactions-2025"})
    get("runs/get", run_id=rf)
    post("runs/log-batch", {"run_id": tv2,
                            "metrics": [{"key": "acc", "value": 0.96, "timestamp": T1 + 61000,
                                         "step": 0}],
                            "params": [{"key": "lr", "value": "0.0005"},
                                       {"key": "C", "value": "0.25"}],
                            "tags": tags(model="logreg", note="warm start")})
    get("runs/get", run_id=tv2)
    get("metrics/get-history", run_id=tv2, metric_key="acc")
    post("experiments/set-experiment-tag", {"experiment_id": "4", "key": "quarter",
                                            "value": "Q4"})
    get("experiments/get", experiment_id="4")

    # registered models and versions
    m = post("registered-models/create", {"name": "fraud-model",
                                          "description": "Flags suspicious transactions",
                                          "tags": tags(owner="risk-team")})
    check("model name", m.get("registered_model", {}).get("name"), "fraud-model")
    get("registered-models/get", name="fraud-model")
    get("registered-models/search")
    mv = post("model-versions/create", {"name": "fraud-model",
                                        "source": f"mlflow-artifacts:/4/{rf}/artifacts/model",
                                        "run_id": rf, "description": "first forest"})
    check("version", mv.get("model_version", {}).get("version"), "1")
    get("model-versions/get", name="fraud-model", version="1")
    get("model-versions/search", filter="name='fraud-model'")
    get("registered-models/get", name="fraud-model")
    mv = post("model-versions/create", {"name": "iris-model",
                                        "source": f"mlflow-artifacts:/1/{tv2}/artifacts/model",
                                        "run_id": tv2})
    check("version", mv.get("model_version", {}).get("version"), "3")
    get("model-versions/get", name="iris-model", version="3")
    get("registered-models/get", name="iris-model")
    post("registered-models/alias", {"name": "fraud-model", "alias": "candidate",
                                     "version": "1"})
    get("registered-models/alias", name="fraud-model", alias="candidate")
    get("registered-models/get", name="fraud-model")

    # ---- c. updates, each followed by item reads
    post("experiments/update", {"experiment_id": "5", "new_name": "sandbox-2"})
    get("experiments/get", experiment_id="5")
    get("experiments/get-by-name", expect=404, experiment_name="sandbox")
    get("experiments/search", max_results="100")
    post("experiments/set-experiment-tag", {"experiment_id": "1", "key": "team",
                                            "value": "vision-core"})   # overwrite a seeded tag
    get("experiments/get", experiment_id="1")
    post("experiments/delete-experiment-tag", {"experiment_id": "2", "key": "owner"})
    get("experiments/get", experiment_id="2")
    r = post("runs/update", {"run_id": rf, "status": "FINISHED", "end_time": T1 + 300000})
    get("runs/get", run_id=rf)
    post("runs/search", {"experiment_ids": ["4"]})
    post("runs/update", {"run_id": tv2, "run_name": "tuned-v2-warm"})   # rename only
    get("runs/get", run_id=tv2)
    post("runs/update", {"run_id": xgb, "status": "FAILED", "end_time": T1 + 400000})
    get("runs/get", run_id=xgb)
    post("runs/set-tag", {"run_id": baseline, "key": "model", "value": "logreg-l2"})
    get("runs/get", run_id=baseline)
    post("runs/delete-tag", {"run_id": tv2, "key": "note"})
    get("runs/get", run_id=tv2)
    call("PATCH", "registered-models/update", {"name": "churn-predictor",
                                               "description": "Predicts churn in 30 days"})
    get("registered-models/get", name="churn-predictor")
    post("registered-models/set-tag", {"name": "iris-model", "key": "reviewed", "value": "yes"})
    get("registered-models/get", name="iris-model")
    call("DELETE", "registered-models/delete-tag", {"name": "fraud-model", "key": "owner"})
    get("registered-models/get", name="fraud-model")
    call("PATCH", "model-versions/update", {"name": "iris-model", "version": "3",
                                            "description": "warm-started logreg"})
    get("model-versions/get", name="iris-model", version="3")
    post("model-versions/set-tag", {"name": "iris-model", "version": "3", "key": "validated",
                                    "value": "true"})
    get("model-versions/get", name="iris-model", version="3")
    post("model-versions/transition-stage", {"name": "iris-model", "version": "3",
                                             "stage": "Production",
                                             "archive_existing_versions": False})
    get("model-versions/get", name="iris-model", version="3")
    get("registered-models/get", name="iris-model")
    # archive_existing_versions: version 2 (Staging) is archived when 1 goes to Staging
    post("model-versions/transition-stage", {"name": "iris-model", "version": "1",
                                             "stage": "Staging",
                                             "archive_existing_versions": True})
    get("model-versions/get", name="iris-model", version="2")
    get("model-versions/search", filter="name='iris-model'")
    post("registered-models/alias", {"name": "iris-model", "alias": "champion",
                                     "version": "3"})                  # move an alias
    get("registered-models/alias", name="iris-model", alias="champion")
    get("model-versions/get", name="iris-model", version="2")
    post("registered-models/rename", {"name": "fraud-model", "new_name": "fraud-model-v2"})
    get("registered-models/get", name="fraud-model-v2")
    get("registered-models/get", expect=404, name="fraud-model")
    get("model-versions/get", name="fraud-model-v2", version="1")
    get("registered-models/search")

    # ---- d. deletes and restores, each followed by item and list reads
    post("runs/delete", {"run_id": tv2})
    get("runs/get", run_id=tv2)                                         # still 200, "deleted"
    post("runs/search", {"experiment_ids": ["1"]})
    post("runs/search", {"experiment_ids": ["1"], "run_view_type": "DELETED_ONLY"})
    post("runs/restore", {"run_id": tv2})
    get("runs/get", run_id=tv2)
    post("runs/search", {"experiment_ids": ["1"]})
    post("runs/delete", {"run_id": anon})
    get("runs/get", run_id=anon)
    post("runs/search", {"experiment_ids": ["5"]})                      # no active run: {}
    post("experiments/delete", {"experiment_id": "3"})
    get("experiments/get", experiment_id="3")                           # still 200, "deleted"
    get("experiments/search", max_results="100")
    get("experiments/search", max_results="100", view_type="DELETED_ONLY")
    post("experiments/restore", {"experiment_id": "3"})
    get("experiments/get", experiment_id="3")
    get("experiments/search", max_results="100")
    # experiment 5 holds the deleted run anon: a restore revives every run of the experiment,
    # a delete marks every run deleted
    post("experiments/delete", {"experiment_id": "5"})
    get("experiments/get", experiment_id="5")
    get("experiments/search", max_results="100", view_type="ALL")
    post("experiments/restore", {"experiment_id": "5"})
    get("experiments/get", experiment_id="5")
    get("runs/get", run_id=anon)                                        # active again
    post("runs/search", {"experiment_ids": ["5"]})
    post("experiments/delete", {"experiment_id": "5"})
    get("runs/get", run_id=anon)                                        # deleted with it
    post("runs/search", {"experiment_ids": ["5"], "run_view_type": "ALL"})
    get("experiments/search", max_results="100")
    post("experiments/create", {"name": "sandbox-2"}, expect=400)      # name held by a deleted one
    e = post("experiments/create", {"name": "sandbox-3"})
    check("experiment id", e.get("experiment_id"), "6")                 # ids not reused
    get("experiments/get", experiment_id="6")
    call("DELETE", "registered-models/alias", {"name": "fraud-model-v2", "alias": "candidate"})
    get("registered-models/alias", expect=400, name="fraud-model-v2", alias="candidate")
    get("registered-models/get", name="fraud-model-v2")
    call("DELETE", "model-versions/delete-tag", {"name": "iris-model", "version": "3",
                                                 "key": "validated"})
    get("model-versions/get", name="iris-model", version="3")
    call("DELETE", "model-versions/delete", {"name": "iris-model", "version": "1"})
    get("model-versions/get", expect=404, name="iris-model", version="1")
    get("model-versions/search", filter="name='iris-model'")
    get("registered-models/get", name="iris-model")
    mv = post("model-versions/create", {"name": "iris-model",
                                        "source": f"mlflow-artifacts:/1/{baseline}/artifacts/model",
                                        "run_id": baseline, "description": "re-registered"})
    check("version", mv.get("model_version", {}).get("version"), "4")  # versions not reused
    get("model-versions/get", name="iris-model", version="4")
    call("DELETE", "registered-models/delete", {"name": "fraud-model-v2"})   # with its version
    get("registered-models/get", expect=404, name="fraud-model-v2")
    get("model-versions/get", expect=404, name="fraud-model-v2", version="1")
    get("registered-models/search")
    get("runs/get", run_id=rf)                                          # the run stays
    m = post("registered-models/create", {"name": "fraud-model"})      # a freed name again
    get("registered-models/get", name="fraud-model")

    # ---- e. failing calls
    post("experiments/create", {}, expect=400)                          # name missing
    post("experiments/create", {"name": "iris-classifier"}, expect=400) # duplicate name
    call("POST", "experiments/create", raw='{"name": "broken json', expect=400)
    post("experiments/update", {"experiment_id": "999", "new_name": "x"}, expect=404)
    post("experiments/delete", {"experiment_id": "999"}, expect=404)
    get("experiments/get", expect=400, experiment_id="abc")
    get("experiments/get", expect=400)                                  # no experiment_id
    post("runs/create", {"experiment_id": "999", "run_name": "orphan"}, expect=404)
    post("runs/log-metric", {"run_id": rf, "key": "precision"}, expect=400)  # no value
    post("runs/log-parameter", {"run_id": rf, "key": "n_estimators", "value": "300"},
         expect=400)                                                    # params are immutable
    post("runs/log-metric", {"run_id": MISSING_RUN, "key": "a", "value": 1.0,
                             "timestamp": T1}, expect=404)
    post("runs/update", {"run_id": MISSING_RUN, "status": "FINISHED"}, expect=404)
    post("runs/delete", {"run_id": MISSING_RUN}, expect=404)
    post("runs/update", {"run_id": rf, "status": "DONE"})               # unknown status: ignored
    get("runs/get", run_id=rf)
    post("registered-models/create", {"name": "iris-model"}, expect=400)   # duplicate
    call("PATCH", "registered-models/update", {"name": "no-such-model", "description": "x"},
         expect=404)
    post("model-versions/create", {"name": "no-such-model", "run_id": rf,
                                   "source": f"mlflow-artifacts:/4/{rf}/artifacts/model"},
         expect=404)
    post("model-versions/create", {"name": "iris-model", "source": "mlflow-artifacts:/x"},
         expect=400)                                                    # source not under a run
    post("model-versions/transition-stage", {"name": "iris-model", "version": "2",
                                             "stage": "Nowhere",
                                             "archive_existing_versions": False}, expect=400)
    call("DELETE", "model-versions/delete", {"name": "iris-model", "version": "1"}, expect=404)
    get("model-versions/get", expect=404, name="iris-model", version="1")   # just deleted
    get("registered-models/alias", expect=400, name="iris-model", alias="no-such-alias")
    get("runs/get", expect=400)                                         # no run_id

    # ---- f. filters, sorts, paging
    p1 = get("experiments/search", max_results="2")
    tok = p1.get("next_page_token") if isinstance(p1, dict) else None
    check("experiments page 1 has a token", bool(tok), True)
    p2 = get("experiments/search", max_results="2", page_token=tok or "")
    tok2 = p2.get("next_page_token") if isinstance(p2, dict) else None
    get("experiments/search", max_results="2", page_token=tok2 or "")
    get("experiments/search", expect=400, filter="name LIKE 'iris%'")  # GET needs max_results
    get("experiments/search", filter="name LIKE 'iris%'", max_results="100")
    get("experiments/search", filter="tags.team = 'risk'", max_results="100")
    get("experiments/search", order_by="name ASC", max_results="100")
    post("experiments/search", {"max_results": 3, "order_by": ["creation_time DESC"]})
    post("experiments/search", {"filter": "name != 'Default'", "view_type": "ALL",
                                "max_results": 100})
    post("runs/search", {"experiment_ids": ["1", "2", "4"],
                         "order_by": ["attributes.start_time DESC"]})
    post("runs/search", {"experiment_ids": ["1"], "filter": "metrics.acc > 0.93"})
    post("runs/search", {"experiment_ids": ["1"], "filter": "params.lr = '0.01'"})
    post("runs/search", {"experiment_ids": ["1", "2", "4"],
                         "filter": "attributes.status = 'FINISHED'",
                         "order_by": ["attributes.run_name ASC"]})
    post("runs/search", {"experiment_ids": ["1", "2"], "filter": "tags.model LIKE 'logreg%'"})
    a = post("runs/search", {"experiment_ids": ["1", "2", "4"], "max_results": 2,
                             "order_by": ["attributes.run_name ASC"]})
    tok = a.get("next_page_token") if isinstance(a, dict) else None
    post("runs/search", {"experiment_ids": ["1", "2", "4"], "max_results": 2,
                         "order_by": ["attributes.run_name ASC"], "page_token": tok or ""})
    post("runs/search", {"experiment_ids": ["1"], "filter": "metrics.acc >"}, expect=400)
    get("registered-models/search", filter="name LIKE 'iris%'")
    get("registered-models/search", order_by="name DESC")
    a = get("registered-models/search", max_results="1")
    tok = a.get("next_page_token") if isinstance(a, dict) else None
    get("registered-models/search", max_results="1", page_token=tok or "")
    get("model-versions/search", filter=f"run_id = '{tuned}'")
    get("model-versions/search", filter="name = 'iris-model'", order_by="version_number DESC")
    get("metrics/get-history", run_id=rf, metric_key="no-such-metric")
    post("registered-models/get-latest-versions", {"name": "iris-model"})
    post("registered-models/get-latest-versions", {"name": "iris-model", "stages": ["Production"]})

    # ---- g. final reads
    get("experiments/search", max_results="100")
    post("runs/search", {"experiment_ids": ["1", "2", "4"]})
    get("registered-models/search")
    get("model-versions/search")



if __name__ == "__main__":
    drive({"capture": capture}, MlflowDriver, default_base="http://127.0.0.1:25311")
