"""The ASGI app of ``capenv serve BUNDLE --http HOST:PORT --instances``: many environments of one
bundle behind one listener (``serving/instances``, ``docs/instances.md``).

* the agent reaches an instance at ``/i/{id}/mcp`` (MCP) and ``/i/{id}/<the application's
  paths>``: the request goes to that instance's own ``CapenvHttpApp`` with ``/i/{id}`` taken off
  its path, so within an instance everything is as in a single environment;
* the grader's data plane (token or its own listener, as ``http_guard`` decides) manages them:
  ``POST /_capenv/instances`` (``{"from_snapshot": id}`` optional) creates one,
  ``GET /_capenv/instances`` lists them, ``POST /_capenv/instances/{id}/snapshot`` snapshots one,
  ``DELETE /_capenv/instances/{id}`` deletes one, and ``/_capenv/instances/{id}/data/get|reset|add``
  is that instance's data plane, ``DELETE /_capenv/snapshots/{id}`` deletes a snapshot; ``/_capenv/openenv/ws`` speaks OpenEnv's session protocol
  (``openenv_ws``).

An id is the right to reach an instance (it is unguessable); an unknown one is a 404 that says so.
Every instance's calls run on one runtime worker thread, the fleet's too.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import anyio
from anyio.abc import TaskGroup
from starlette.types import Receive, Scope, Send

from capenv.serving.instances.fleet import InstanceFleet, UnknownInstance
from capenv.serving.runtime_api import DATA_PLANE_PREFIX, DataPlaneRefusal
from capenv.serving.transport.http_app import CapenvHttpApp, _first_headers, _refuse, is_reserved
from capenv.serving.transport.http_exchange import (
    BodyTooLarge, ClientDisconnected, raw_target, read_body, send_json,
)
from capenv.serving.transport.agent_limits import AgentLimits
from capenv.serving.transport.http_guard import Listener, ListenerPolicy, check_json_body, policy_for_server
from capenv.serving.transport.openenv_ws import OPENENV_PATH, serve_openenv
from capenv.serving.transport.request_log import RequestLog
from capenv.serving.transport.runtime_worker import RuntimeWorker

logger = logging.getLogger(__name__)

INSTANCES = "/_capenv/instances"
SNAPSHOTS = "/_capenv/snapshots/"
INSTANCE_PREFIX = "/i/"
_MANAGED = re.compile(r"^/_capenv/instances/([^/]+)(/snapshot|/data/[^/]*)?$")


class FleetHttpApp:
    def __init__(self, fleet: InstanceFleet, policies: dict[Listener, ListenerPolicy], *, body_limit: int | None,
                 log: RequestLog | None = None, base_url: str = "") -> None:
        """``body_limit``: each instance's (None: its budgets' data plane intake, ``CapenvHttpApp``)."""
        self.fleet = fleet
        self.policies = policies
        self.body_limit = body_limit
        template = AgentLimits.of(fleet.template)  # every instance shares its budgets
        self.create_limit, self.drain_bytes = template.fleet_create_bytes, template.drain_bytes
        self.log = log
        self.base_url = base_url
        self.worker = RuntimeWorker()
        self.instance_mcp_path = fleet.template.reserved_mcp_path()
        self.mcp_path = INSTANCE_PREFIX + "{id}" + self.instance_mcp_path  # what the banner shows
        self.data_routes = f"{INSTANCES} (POST creates an instance), {INSTANCES}/{{id}}/data/get | reset | add"
        self.app_paths = INSTANCE_PREFIX + "{id}/<every other path>"
        self._apps: dict[str, _Served] = {}
        self._group: TaskGroup | None = None

    # --- ASGI -------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            try:
                await self._http(scope, receive, send)
            except ClientDisconnected:
                return
        elif scope["type"] == "websocket":
            if raw_target(scope)[0] == OPENENV_PATH:
                await serve_openenv(self.fleet, self.worker, self._policy(scope), self._urls, scope, receive, send)
            else:
                await receive()
                await send({"type": "websocket.close", "code": 1000})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        await receive()
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                await send({"type": "lifespan.startup.complete"})
                await receive()
                group.cancel_scope.cancel()
        finally:
            self._group = None
            self.worker.close()
        await send({"type": "lifespan.shutdown.complete"})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = raw_target(scope)[0]
        if path.startswith(INSTANCE_PREFIX):
            instance_id, _, rest = path[len(INSTANCE_PREFIX):].partition("/")
            await self._to_instance(instance_id, "/" + rest, scope, receive, send)
            return
        if path == INSTANCES or path.startswith(INSTANCES + "/") or path.startswith(SNAPSHOTS):
            policy = self._policy(scope)
            headers = _first_headers(scope)
            refusal = policy.check_host(headers) or policy.check_origin(headers) or policy.check_data_token(headers)
            if refusal is not None:
                await _refuse(send, refusal)
            else:
                await self._manage(path, scope, receive, send)
            return
        if is_reserved(path) and path.startswith(DATA_PLANE_PREFIX):
            message = (f"this server holds many environments: each one's data plane is "
                       f"{INSTANCES}/{{id}}/data/get | reset | add")
        else:
            message = (f"this server holds many environments: each is reached at {INSTANCE_PREFIX}{{id}}"
                       f"{self.instance_mcp_path} (MCP) and {INSTANCE_PREFIX}{{id}}/<the application's paths>; "
                       f"the grader creates one with POST {INSTANCES}")
        await send_json(send, 404, {"error": "not_found", "message": message})

    def _policy(self, scope: Scope) -> ListenerPolicy:
        return policy_for_server(self.policies, scope.get("server"))

    # --- an instance's own surfaces -----------------------------------------------------------

    async def _to_instance(self, instance_id: str, path: str, scope: Scope, receive: Receive, send: Send) -> None:
        app = await self._instance_app(instance_id)
        if app is None:
            await send_json(send, 404, {"error": "not_found", "message": UnknownInstance("instance", instance_id).message})
            return
        prefix = len(INSTANCE_PREFIX) + len(instance_id)
        raw = scope.get("raw_path") or path.encode("ascii")
        inner = {**scope, "path": scope["path"][prefix:] or "/", "raw_path": raw[prefix:] or b"/",
                 "root_path": scope.get("root_path", "") + INSTANCE_PREFIX + instance_id}
        if self.log is not None and path != self.instance_mcp_path:
            label = app.runtime.tool_for(scope["method"], path)
            await self.log.http(inner, receive, send, label, app.serve)
        else:
            await app.serve(inner, receive, send)

    async def _instance_app(self, instance_id: str) -> CapenvHttpApp | None:
        try:
            runtime = await self.worker.call(self.fleet.runtime, instance_id)
        except UnknownInstance:
            await self._stop(instance_id)
            return None
        held = self._apps.get(instance_id)
        if held is None:  # set before the first await below: a concurrent first request finds it
            app = CapenvHttpApp(runtime, self.policies, body_limit=self.body_limit, log=self.log, worker=self.worker)
            held = self._apps[instance_id] = _Served(app, anyio.Event(), anyio.Event())
            assert self._group is not None, "the fleet app serves inside its lifespan"
            try:
                await self._group.start(_run_sessions, app, held.stop)
            except BaseException:
                if self._apps.get(instance_id) is held:
                    del self._apps[instance_id]
                raise
            finally:
                held.ready.set()
            if self._apps.get(instance_id) is not held:
                return None
        await held.ready.wait()  # its MCP session manager runs
        return held.app

    async def _stop(self, instance_id: str) -> None:
        held = self._apps.pop(instance_id, None)
        if held is not None:
            held.stop.set()

    async def _sweep(self) -> None:
        """Stop the MCP sessions of instances the fleet no longer holds (deleted, expired)."""
        live = set(await self.worker.call(self.fleet.live_ids))
        for instance_id in [i for i in self._apps if i not in live]:
            await self._stop(instance_id)

    # --- the grader's management routes ---------------------------------------------------------

    async def _manage(self, path: str, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"]
        if path.startswith(SNAPSHOTS):
            await self._delete_snapshot(path[len(SNAPSHOTS):], method, send)
            return
        if path == INSTANCES:
            if method == "POST":
                await self._create(scope, receive, send)
            elif method == "GET":
                listed = await self.worker.call(self.fleet.instances)
                await self._sweep()
                await send_json(send, 200, {"instances": [{**i, **self._urls(i["id"])} for i in listed]})
            else:
                await _not_allowed(send, path, "GET, POST")
            return
        found = _MANAGED.match(path)
        if found is None:
            await send_json(send, 404, {"error": "not_found", "message": (
                f"no fleet route {path}; routes: POST|GET {INSTANCES}, DELETE {INSTANCES}/{{id}}, "
                f"POST {INSTANCES}/{{id}}/snapshot, {INSTANCES}/{{id}}/data/get|reset|add")})
            return
        instance_id, tail = found.group(1), found.group(2) or ""
        try:
            if tail.startswith("/data/"):
                await self._instance_data(instance_id, tail, scope, receive, send)
            elif tail == "/snapshot":
                if method != "POST":
                    await _not_allowed(send, path, "POST")
                    return
                snapshot_id = await self.worker.call(self.fleet.snapshot, instance_id)
                await send_json(send, 201, {"snapshot_id": snapshot_id, "instance": instance_id})
            elif method == "DELETE":
                await self.worker.call(self.fleet.delete, instance_id)
                await self._stop(instance_id)
                await send_json(send, 200, {"ok": True, "deleted": instance_id})
            elif method == "GET":
                await self.worker.call(self.fleet.runtime, instance_id)
                await send_json(send, 200, {"id": instance_id, **self._urls(instance_id)})
            else:
                await _not_allowed(send, path, "GET, DELETE")
        except UnknownInstance as unknown:
            await self._stop(instance_id)
            await send_json(send, 404, {"error": "not_found", "message": unknown.message})

    async def _delete_snapshot(self, snapshot_id: str, method: str, send: Send) -> None:
        if method != "DELETE" or not snapshot_id or "/" in snapshot_id:
            await _not_allowed(send, f"{SNAPSHOTS}{{snapshot id}}", "DELETE")
            return
        try:
            await self.worker.call(self.fleet.delete_snapshot, snapshot_id)
        except UnknownInstance as unknown:
            await send_json(send, 404, {"error": "not_found", "message": unknown.message})
            return
        await send_json(send, 200, {"ok": True, "deleted": snapshot_id})

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            body = await read_body(scope, receive, self.create_limit, self.drain_bytes)
        except BodyTooLarge as exc:
            await send_json(send, 413, {"error": "resource_constraint", "message": str(exc)})
            return
        refusal = check_json_body("POST", _first_headers(scope), body)
        if refusal is not None:
            await _refuse(send, refusal)
            return
        try:
            request = json.loads(body) if body.strip() else {}
        except ValueError:
            request = None
        snapshot = request.get("from_snapshot") if isinstance(request, dict) else None
        if not isinstance(request, dict) or set(request) - {"from_snapshot"} or (
                snapshot is not None and not isinstance(snapshot, str)):
            await send_json(send, 400, {"error": "invalid_argument", "message": (
                'the body is empty or {"from_snapshot": "<snapshot id>"} (an id POST '
                f'{INSTANCES}/{{id}}/snapshot answered)')})
            return
        try:
            instance_id = await self.worker.call(self.fleet.create, snapshot)
        except UnknownInstance as unknown:
            await send_json(send, 404, {"error": "not_found", "message": unknown.message})
            return
        except DataPlaneRefusal as refused:
            await send_json(send, 400, {"error": refused.kind, "message": f"the snapshot did not install: {refused.message}"})
            return
        await self._sweep()
        await send_json(send, 201, {"id": instance_id, **self._urls(instance_id)})

    async def _instance_data(self, instance_id: str, tail: str, scope: Scope, receive: Receive, send: Send) -> None:
        app = await self._instance_app(instance_id)
        if app is None:
            raise UnknownInstance("instance", instance_id)
        inner_path = DATA_PLANE_PREFIX + tail[len("/data/"):]
        inner = {**scope, "path": inner_path, "raw_path": inner_path.encode("ascii")}
        await app.serve(inner, receive, send)

    def _urls(self, instance_id: str) -> dict[str, str]:
        http_path = INSTANCE_PREFIX + instance_id
        return {"mcp_url": self.base_url + http_path + self.instance_mcp_path, "http_base": self.base_url + http_path,
                "mcp_path": http_path + self.instance_mcp_path, "http_path": http_path}


@dataclass(frozen=True)
class _Served:
    """An instance's app as this server serves it: stopped by ``stop``, usable once ``ready``."""

    app: CapenvHttpApp
    stop: anyio.Event
    ready: anyio.Event


async def _run_sessions(app: CapenvHttpApp, stop: anyio.Event, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
    started = False
    try:
        async with app.run_sessions():
            task_status.started()
            started = True
            await stop.wait()
    except Exception:
        logger.exception("an instance's MCP session manager failed")
        if not started:
            raise


async def _not_allowed(send: Send, path: str, allow: str) -> None:
    await send_json(send, 405, {"error": "method_not_allowed", "message": f"{path} takes {allow}"},
                    (("allow", allow),))
