"""What the fleet tests share (tests/instances)."""

from __future__ import annotations

from capenv.serving.store import Store, open_store

STORES = ("memory", "sqlite", "postgres")
"""The stores a fleet is tested on (``store_url`` fixture, indirect)."""


def open_fleet_store(url: str | None) -> Store | None:
    return None if url is None else open_store(url)
