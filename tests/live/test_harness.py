"""The live fixtures themselves: a missing application skips, or fails under CI=true."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest

from . import apps, conftest, test_compare_live


@pytest.fixture
def nothing_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(apps, "CACHE", tmp_path / "empty-cache")


@pytest.mark.parametrize("app", sorted(apps.APPS))
def test_a_missing_application_skips(nothing_installed, monkeypatch, tmp_path, app, request):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"not installed .*run `bash \.ci/live-apps\.sh install`"):
        next(conftest._live(app, tmp_path, request.node))


@pytest.mark.parametrize("app", sorted(apps.APPS))
def test_under_ci_a_missing_application_fails_with_the_install_command(nothing_installed, monkeypatch, tmp_path, app,
                                                                      request):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"run `bash \.ci/live-apps\.sh install`"):
        next(conftest._live(app, tmp_path, request.node))


def test_an_application_that_dies_at_start_fails_with_its_log(monkeypatch, tmp_path):
    spec = apps.AppSpec("dying", lambda: {}, lambda port, scratch, env: (["bash", "-c", "echo boom; exit 3"], None),
                        "/", 5.0)
    monkeypatch.setitem(apps.APPS, "dying", spec)
    with pytest.raises(apps.StartFailed, match=r"(?s)dying: start.sh exited with 3.*boom"):
        apps.start_app("dying", tmp_path)


def test_an_application_that_never_answers_times_out_and_is_stopped(monkeypatch, tmp_path):
    spec = apps.AppSpec("silent", lambda: {}, lambda port, scratch, env: (["sleep", "30"], None), "/", 0.5)
    monkeypatch.setitem(apps.APPS, "silent", spec)
    with pytest.raises(apps.StartFailed, match="silent: not ready after"):
        apps.start_app("silent", tmp_path)


def _answered(live: object, model: object) -> SimpleNamespace:
    return SimpleNamespace(answers={side: SimpleNamespace(body=orjson.dumps(body))
                                    for side, body in (("live", live), ("model", model))})


def test_an_application_ordering_a_list_anew_differs_only_in_that_order():
    recorded = {"node": {"dir": True, "nodes": [{"key": "/q/14", "value": "a"}, {"key": "/q/15", "value": "b"}]}}
    rotated = {"node": {"dir": True, "nodes": [{"key": "/q/15", "value": "b"}, {"key": "/q/14", "value": "a"}]}}
    assert test_compare_live._same_but_order(_answered(rotated, recorded), "/node/nodes")


@pytest.mark.parametrize("live", [
    {"node": {"dir": True, "nodes": [{"key": "/q/15", "value": "c"}, {"key": "/q/14", "value": "a"}]}},
    {"node": {"dir": True, "nodes": [{"key": "/q/14", "value": "a"}]}},
    {"node": {"dir": False, "nodes": [{"key": "/q/15", "value": "b"}, {"key": "/q/14", "value": "a"}]}},
    {"node": {"dir": True, "nodes": {"key": "/q/14"}}},
], ids=["a member changed", "a member missing", "a difference beside the list", "no list"])
def test_any_other_difference_of_an_unordered_list_is_still_judged(live):
    recorded = {"node": {"dir": True, "nodes": [{"key": "/q/14", "value": "a"}, {"key": "/q/15", "value": "b"}]}}
    assert not test_compare_live._same_but_order(_answered(live, recorded), "/node/nodes")
