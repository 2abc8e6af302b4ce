"""The client of a fleet (``capenv serve --http … --instances``) for training and evaluation
loops, sync and async, and what ``capenv fleet`` runs (``capenv.fleet`` is its public name).

    with Fleet(url, token).create() as env:      # a fresh instance, deleted on exit
        run_agent(env.mcp_url)
        score(env.grader.get())

``url`` is the grader's base URL (the data plane's listener, as ``capenv serve`` prints it);
``token`` its bearer token. Every failure is a ``FleetError`` with a one-line message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx2

DEFAULT_TIMEOUT_SECONDS = 120.0
ROUTE = "/_capenv/instances"
SNAPSHOTS = "/_capenv/snapshots/"


class FleetError(Exception):
    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _options(url: str, token: str | None, timeout: float) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    # trust_env off: no proxy from the environment between the grader and its server
    return {"base_url": url.strip().rstrip("/"), "headers": headers, "timeout": timeout, "trust_env": False}


def _answer(response: httpx2.Response, what: str) -> Any:
    if response.is_success:
        return response
    try:
        message = json.loads(response.content).get("message")
    except (ValueError, AttributeError):
        message = None
    raise FleetError(f"{what} refused ({response.status_code}): {message or response.text[:300]}",
                     status=response.status_code)


def _create_body(from_snapshot: str | None) -> bytes:
    return json.dumps({"from_snapshot": from_snapshot} if from_snapshot else {}).encode()


JSON = {"content-type": "application/json"}


def _failure(exc: httpx2.HTTPError, url: str) -> FleetError:
    return FleetError(f"cannot reach the fleet at {url}: {' '.join(str(exc).split()) or type(exc).__name__}")


# --- sync ---------------------------------------------------------------------------------


class Grader:
    """One instance's data plane."""

    def __init__(self, fleet: Fleet, instance_id: str) -> None:
        self._fleet, self._base = fleet, f"{ROUTE}/{instance_id}/data/"

    def get_bytes(self) -> bytes:
        return self._fleet._request("GET", self._base + "get", "data/get").content

    def get(self) -> dict[str, Any]:
        """data/get: the instance's whole state as one document."""
        return json.loads(self.get_bytes())

    def reset(self) -> None:
        self._fleet._request("POST", self._base + "reset", "data/reset", content=b"")

    def add(self, document: bytes) -> None:
        self._fleet._request("POST", self._base + "add", "data/add", content=bytes(document), headers=JSON)


@dataclass
class Instance:
    """An instance: ``mcp_url`` for the agent, ``http_base`` for the application's paths, and
    ``grader`` for its state. As a context manager it is deleted on exit."""

    id: str
    mcp_url: str
    http_base: str
    fleet: Any

    @property
    def grader(self) -> Any:
        return self.fleet.grader(self.id)

    def snapshot(self) -> str:
        return self.fleet.snapshot(self.id)

    def __enter__(self) -> Instance:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.fleet.delete(self.id)

    async def __aenter__(self) -> Instance:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.fleet.delete(self.id)


class Fleet:
    def __init__(self, url: str, token: str | None = None, *, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
        self.url = url
        self._client = httpx2.Client(**_options(url, token, timeout))

    def create(self, from_snapshot: str | None = None) -> Instance:
        """A new instance (from the initial state, or from a snapshot); use it with ``with``."""
        made = self._request("POST", ROUTE, "create", content=_create_body(from_snapshot), headers=JSON).json()
        return Instance(made["id"], made["mcp_url"], made["http_base"], self)

    def list(self) -> list[dict[str, Any]]:
        return self._request("GET", ROUTE, "list").json()["instances"]

    def snapshot(self, instance_id: str) -> str:
        return self._request("POST", f"{ROUTE}/{instance_id}/snapshot", "snapshot", content=b"").json()["snapshot_id"]

    def delete(self, instance_id: str) -> None:
        self._request("DELETE", f"{ROUTE}/{instance_id}", "delete")

    def delete_snapshot(self, snapshot_id: str) -> None:
        self._request("DELETE", f"{SNAPSHOTS}{snapshot_id}", "delete snapshot")

    def grader(self, instance_id: str) -> Grader:
        return Grader(self, instance_id)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Fleet:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _request(self, method: str, path: str, what: str, **options: Any) -> httpx2.Response:
        try:
            response = self._client.request(method, path, **options)
        except httpx2.HTTPError as exc:
            raise _failure(exc, self.url) from exc
        return _answer(response, what)


# --- async --------------------------------------------------------------------------------


class AsyncGrader:
    def __init__(self, fleet: AsyncFleet, instance_id: str) -> None:
        self._fleet, self._base = fleet, f"{ROUTE}/{instance_id}/data/"

    async def get_bytes(self) -> bytes:
        return (await self._fleet._request("GET", self._base + "get", "data/get")).content

    async def get(self) -> dict[str, Any]:
        return json.loads(await self.get_bytes())

    async def reset(self) -> None:
        await self._fleet._request("POST", self._base + "reset", "data/reset", content=b"")

    async def add(self, document: bytes) -> None:
        await self._fleet._request("POST", self._base + "add", "data/add", content=bytes(document), headers=JSON)


class AsyncFleet:
    """``Fleet`` for asyncio loops: ``async with fleet.create() as env`` (deleted on exit), or
    ``env = await fleet.create()``."""

    def __init__(self, url: str, token: str | None = None, *, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
        self.url = url
        self._client = httpx2.AsyncClient(**_options(url, token, timeout))

    def create(self, from_snapshot: str | None = None) -> _Creating:
        """A new instance: awaited, or used with ``async with`` (then deleted on exit)."""
        return _Creating(self, from_snapshot)

    async def _create(self, from_snapshot: str | None) -> Instance:
        made = (await self._request("POST", ROUTE, "create", content=_create_body(from_snapshot),
                                    headers=JSON)).json()
        return Instance(made["id"], made["mcp_url"], made["http_base"], self)

    async def list(self) -> list[dict[str, Any]]:
        return (await self._request("GET", ROUTE, "list")).json()["instances"]

    async def snapshot(self, instance_id: str) -> str:
        return (await self._request("POST", f"{ROUTE}/{instance_id}/snapshot", "snapshot",
                                    content=b"")).json()["snapshot_id"]

    async def delete(self, instance_id: str) -> None:
        await self._request("DELETE", f"{ROUTE}/{instance_id}", "delete")

    async def delete_snapshot(self, snapshot_id: str) -> None:
        await self._request("DELETE", f"{SNAPSHOTS}{snapshot_id}", "delete snapshot")

    def grader(self, instance_id: str) -> AsyncGrader:
        return AsyncGrader(self, instance_id)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> AsyncFleet:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _request(self, method: str, path: str, what: str, **options: Any) -> httpx2.Response:
        try:
            response = await self._client.request(method, path, **options)
        except httpx2.HTTPError as exc:
            raise _failure(exc, self.url) from exc
        return _answer(response, what)


class _Creating:
    def __init__(self, fleet: AsyncFleet, from_snapshot: str | None) -> None:
        self._fleet, self._from = fleet, from_snapshot
        self._made: Instance | None = None

    def __await__(self):
        return self._fleet._create(self._from).__await__()

    async def __aenter__(self) -> Instance:
        self._made = await self._fleet._create(self._from)
        return self._made

    async def __aexit__(self, *exc_info: object) -> None:
        if self._made is not None:
            await self._fleet.delete(self._made.id)
