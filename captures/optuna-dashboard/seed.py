#!/usr/bin/env python3
"""Seed a fresh optuna-dashboard 0.21.0 storage (SQLite) with Optuna's own API, before the server starts.

Usage: python3 seed.py SQLITE_FILE   (run with the optuna-dashboard venv's python; nothing reaches the network)

Every trial is added whole (params, values, fixed start and completion times), in this order, so that every
seed gives the same study and trial ids (trial ids are numbered across the whole storage):
  study 1 quadratic (minimize; user attrs owner=alice, budget=20): trials 1-3 Complete (x, y),
      trial 4 Running (no value: the dashboard's tell completes it), trial 5 Fail
  study 2 pareto (minimize, maximize): trials 6-8 Complete, each with two values
  study 3 learning-rate (maximize; user attr dataset=mnist): trials 9-10 Complete (lr log-scale, optimizer
      categorical), trial 11 Pruned with intermediate values, trial 12 Running
  study 4 colors (preferential, n_generate 3, random sampler): trials 13-15 Running (r, g)
Trial 1 has user attrs and a note saved by the dashboard's save_note (version 1); study 1 has a note (version 1).
"""
import sys
from datetime import datetime, timedelta

import optuna
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution
from optuna.trial import TrialState, create_trial
from optuna_dashboard import save_note
from optuna_dashboard.preferential import create_study as create_preferential_study

T0 = datetime(2026, 11, 2, 9, 0, 0)
XY = {"x": FloatDistribution(-10, 10), "y": IntDistribution(0, 5)}
LR = {"lr": FloatDistribution(1e-5, 1e-1, log=True), "optimizer": CategoricalDistribution(["adam", "sgd"])}
RG = {"r": IntDistribution(0, 255), "g": IntDistribution(0, 255)}


def trial(n, params, dists, state=TrialState.COMPLETE, values=None, user_attrs=None, steps=None):
    made = create_trial(state=state, params=params, distributions=dists, values=values,
                        user_attrs=user_attrs or {}, intermediate_values=steps or {})
    made.datetime_start = T0 + timedelta(minutes=n)
    made.datetime_complete = None if state == TrialState.RUNNING else T0 + timedelta(minutes=n, seconds=30)
    return made


def main(path):
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(f"sqlite:///{path}")
    quadratic = optuna.create_study(storage=storage, study_name="quadratic", direction="minimize")
    quadratic.set_user_attr("owner", "alice")
    quadratic.set_user_attr("budget", 20)
    quadratic.add_trial(trial(1, {"x": 2.5, "y": 1}, XY, values=[1.25], user_attrs={"gpu": "a100"}))
    quadratic.add_trial(trial(2, {"x": -1.0, "y": 3}, XY, values=[18.0]))
    quadratic.add_trial(trial(3, {"x": 4.0, "y": 0}, XY, values=[4.0]))
    quadratic.add_trial(trial(4, {"x": 1.5, "y": 2}, XY, state=TrialState.RUNNING))
    quadratic.add_trial(trial(5, {"x": 9.0, "y": 5}, XY, state=TrialState.FAIL))
    save_note(quadratic, "## quadratic\nMinimise (x - 2)^2 + y.")
    first = optuna.trial.Trial(quadratic, quadratic.trials[0]._trial_id)
    save_note(first, "best so far")

    pareto = optuna.create_study(storage=storage, study_name="pareto", directions=["minimize", "maximize"])
    pareto.add_trial(trial(6, {"x": 1.0, "y": 1}, XY, values=[2.0, 5.0]))
    pareto.add_trial(trial(7, {"x": 3.0, "y": 2}, XY, values=[1.0, 3.0]))
    pareto.add_trial(trial(8, {"x": 5.0, "y": 4}, XY, values=[4.0, 4.0]))

    learning = optuna.create_study(storage=storage, study_name="learning-rate", direction="maximize")
    learning.set_user_attr("dataset", "mnist")
    learning.add_trial(trial(9, {"lr": 0.001, "optimizer": "adam"}, LR, values=[0.91]))
    learning.add_trial(trial(10, {"lr": 0.01, "optimizer": "sgd"}, LR, values=[0.87]))
    learning.add_trial(trial(11, {"lr": 0.05, "optimizer": "sgd"}, LR, state=TrialState.PRUNED,
                             steps={0: 0.4, 1: 0.45}))
    learning.add_trial(trial(12, {"lr": 0.0001, "optimizer": "adam"}, LR, state=TrialState.RUNNING))

    colors = create_preferential_study(n_generate=3, storage=storage, study_name="colors",
                                       sampler=optuna.samplers.RandomSampler(seed=0))
    for n, (r, g) in enumerate([(200, 30), (40, 180), (90, 90)]):
        colors.add_trial(trial(13 + n, {"r": r, "g": g}, RG, state=TrialState.RUNNING))


if __name__ == "__main__":
    main(sys.argv[1])
