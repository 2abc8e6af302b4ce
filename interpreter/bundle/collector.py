"""The cyclic garbage collector paused around work that makes many small objects and no cycles
worth collecting (a build, writing a bundle): there collections cost a sixth of the time."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            _age_survivors()
            gc.enable()


def _age_survivors() -> None:
    """What the paused work made and kept is moved to the oldest generation at once (a list splice):
    left in the youngest, the first collection after the pause would walk every object the whole
    build made (~0.3 s of a large capture's build) only to promote them there anyway. Cycles among
    them are still found by the next full collection. Skipped while anything else is frozen
    (``serving.runtime.settle_for_serving``), whose objects ``unfreeze`` would release too."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
