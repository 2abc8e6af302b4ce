"""What the fleet tests share (tests/instances)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx2

from capenv.serving.instances.fleet import InstanceFleet
from capenv.serving.store import Store, open_store
from capenv.serving.transport.fleet_app import FleetHttpApp
from capenv.serving.transport.http_app import Access, HttpServing

from .http_thread import http_in_thread

TOKEN = "fleet-test-token"

STORES = ("memory", "sqlite", "postgres")
"""The stores a fleet is tested on (``store_url`` fixture, indirect)."""


def open_fleet_store(url: str | None) -> Store | None:
    return None if url is None else open_store(url)


@contextmanager
def serving_fleet(template, store_url: str | None, **options) -> Iterator[tuple[InstanceFleet, HttpServing, httpx2.Client]]:
    """``options``: ``run_http``'s own (``make_app`` is the fleet's)."""
    fleet = InstanceFleet(template, open_fleet_store(store_url))
    make_app = lambda policies, **app_options: FleetHttpApp(fleet, policies, **app_options)  # noqa: E731
    try:
        with http_in_thread(template, access=Access(data_token=TOKEN), make_app=make_app, **options) as serving:
            with httpx2.Client(base_url=serving.base_url, trust_env=False, timeout=60,
                               headers={"authorization": f"Bearer {TOKEN}"}) as grader:
                yield fleet, serving, grader
    finally:
        fleet.close()
