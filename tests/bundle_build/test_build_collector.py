"""The cyclic garbage collector and a build: what a build makes is freed by reference counting
(no cycle holds the capture's records), and what it keeps is not walked when the collector resumes."""

from __future__ import annotations

import gc
from pathlib import Path

from capenv.interpreter.bundle.collector import collector_paused
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.plans.context import PlanContext
from capenv.interpreter.plans.timeline import Timeline

CAPTURE = Path(__file__).resolve().parents[2] / "captures" / "json-server" / "capture.har"


def test_a_build_leaves_no_cycle_holding_its_records() -> None:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        bundle = build_bundle(CAPTURE)
        assert bundle.view.writes  # the plans (and their context) were made
        del bundle
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kept = [type(o).__name__ for o in gc.garbage if isinstance(o, (Record, PlanContext, Timeline))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert kept == []


def test_what_a_paused_stretch_keeps_joins_the_oldest_generation() -> None:
    class Kept:
        pass

    enabled = gc.isenabled()
    gc.enable()
    try:
        with collector_paused():
            kept = [Kept() for _ in range(5000)]
        oldest = {id(o) for o in gc.get_objects(generation=2)}
        assert all(id(o) in oldest for o in kept)
        assert gc.isenabled()
    finally:
        if not enabled:
            gc.disable()
