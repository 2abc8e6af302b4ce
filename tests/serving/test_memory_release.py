"""``memory_release.release_freed_memory`` after a replaced state is freed (issue 11's soak).

CPython's method cache keeps the name of each attribute looked up on a type; C code that looks a
method up by a C string makes the name afresh each time (``datetime.utcoffset`` of an aware
datetime, called by every ``isoformat``), so a name made while a large state is built stays, and
pins the 1 MiB arena of Python's allocator it sits in once the state is freed: resident memory
then rose every data/add and data/reset cycle. Counted in arenas (``sys._debugmallocstats``), not
timed."""

from __future__ import annotations

import gc
import os
import re
import sys
import tempfile
from datetime import datetime, timezone

import pytest

from capenv.serving.memory_release import release_freed_memory

CYCLES = 6
STRAY_ARENAS = 2
"""Arenas another thread of the test process may take while the cycles run (far below CYCLES)."""


def arenas() -> int:
    """The arenas Python's allocator holds now."""
    with tempfile.TemporaryFile() as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        found = re.search(rb"# arenas allocated current\s+=\s+([\d,]+)", out.read())
    if found is None:
        pytest.skip("Python's own allocator is not in use (PYTHONMALLOC)")
    return int(found.group(1).replace(b",", b""))


def a_state_built_and_freed(aware: datetime) -> None:
    """Tens of thousands of small objects, an aware datetime spelled among them, then freed."""
    state = [{"id": str(n), "values": [n, n + 1]} for n in range(80_000)]
    state.append({"clock": aware.isoformat()})
    del state
    gc.collect()


@pytest.mark.skipif(not hasattr(sys, "_debugmallocstats"), reason="CPython's allocator statistics")
def test_a_freed_state_leaves_no_arena_pinned_by_an_attribute_name_the_method_cache_kept() -> None:
    aware = datetime(2026, 11, 30, 13, 0, 17, tzinfo=timezone.utc)
    a_state_built_and_freed(aware)
    release_freed_memory()
    held = arenas()
    for _ in range(CYCLES):
        a_state_built_and_freed(aware)
        release_freed_memory()
    # Kept by the method cache, each cycle's name pinned one more arena (CYCLES more in all). The
    # suite's other threads (a server's, a releasing thread) may hold one arena more meanwhile.
    assert arenas() <= held + STRAY_ARENAS
