#!/usr/bin/env python3
"""Run changedetection.io's own entry point (changedetection.py's main) with one change: the
datastore's folders are listed in name order.

changedetection.io loads its watches and tags with os.scandir over the datastore, and lists them
(GET /api/v1/watch, /api/v1/tags) in the order it loaded them: on ext4 that is the directory's hash
order, which differs from one file system to the next. Sorting the listing makes every start list
the seeded watches and tags in one order (their uuids'), recorded or live; entities created later
are listed after them in creation order, as the application keeps them.
"""
import os
import sys

_scandir = os.scandir


class _Sorted:
    def __init__(self, entries):
        self._entries = entries

    def __iter__(self):
        return iter(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


def _sorted_scandir(path="."):
    with _scandir(path) as it:
        return _Sorted(sorted(it, key=lambda entry: entry.name))


os.scandir = _sorted_scandir

from changedetectionio import main  # noqa: E402  (after the patch: the store imports os.scandir's module)

if __name__ == "__main__":
    sys.argv[0] = "changedetection.py"
    main()
