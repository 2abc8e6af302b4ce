"""OpenEnv's simulation API on a fleet (issue 14): the WebSocket session protocol of the ``openenv``
package's ``EnvClient`` (``{base_url}/ws``; messages ``{"type": "reset" | "step" | "state" |
"close", "data": …}``, answers ``{"type": "observation" | "state" | "error", "data": …}``), so a
training stack that runs OpenEnv environments runs a capenv fleet unchanged.

It is the grader's side (it creates instances and reads their state), so it lives under the data
plane, ``/_capenv/openenv/ws``, behind the same listener policy and bearer token
(``EnvClient(base_url=".../_capenv/openenv", headers={"Authorization": "Bearer T"})``).

One connection is one episode at a time: ``reset`` deletes the connection's instance (if any) and
creates a fresh one from the initial state (``data.from_snapshot`` names a snapshot instead), and
its observation names the instance (its ``mcp_url`` too, for an agent that talks MCP itself);
``step`` runs an MCP action on it (OpenEnv's ``{"type": "list_tools"}`` or ``{"type":
"call_tool", "tool_name", "arguments"}``); ``state`` answers ``{episode_id, step_count, data}``,
``data`` being the instance's data/get document; ``close`` (or the connection ending) deletes it.
Rewards are the grader's to compute from the state: ``reward`` is always null.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from capenv.serving.instances.fleet import InstanceFleet, UnknownInstance
from capenv.serving.runtime_api import DataPlaneRefusal
from capenv.serving.transport.http_guard import ListenerPolicy
from capenv.serving.transport.runtime_worker import RuntimeWorker

logger = logging.getLogger(__name__)

OPENENV_PATH = "/_capenv/openenv/ws"
POLICY_VIOLATION = 1008
ACTIONS = '{"type": "list_tools"} or {"type": "call_tool", "tool_name": NAME, "arguments": {…}}'


class OpenEnvSession:
    def __init__(self, fleet: InstanceFleet, worker: RuntimeWorker, urls: Any) -> None:
        self.fleet, self.worker, self.urls = fleet, worker, urls
        self.instance: str | None = None
        self.steps = 0

    async def answer(self, message: Any) -> dict[str, Any]:
        kind = message.get("type") if isinstance(message, dict) else None
        data = message.get("data") if isinstance(message, dict) else None
        data = data if isinstance(data, dict) else {}
        if kind == "reset":
            return await self._reset(data)
        if self.instance is None and kind in ("step", "state"):
            return error("send reset first: it creates this episode's environment", "NO_EPISODE")
        if kind == "step":
            return await self._step(data)
        if kind == "state":
            runtime = await self.worker.call(self.fleet.runtime, self.instance)
            document = await self.worker.call(runtime.data_get)
            return {"type": "state", "data": {"episode_id": self.instance, "step_count": self.steps,
                                              "data": json.loads(document)}}
        return error(f"unknown message type {kind!r}; send reset, step, state or close", "UNKNOWN_TYPE")

    async def _reset(self, data: dict[str, Any]) -> dict[str, Any]:
        await self.end()
        snapshot = data.get("from_snapshot")
        if snapshot is not None and not isinstance(snapshot, str):
            return error("from_snapshot is a snapshot id (a string)", "VALIDATION_ERROR")
        try:
            self.instance = await self.worker.call(self.fleet.create, snapshot)
        except (UnknownInstance, DataPlaneRefusal) as refused:
            return error(getattr(refused, "message", str(refused)), "VALIDATION_ERROR")
        self.steps = 0
        return observation({"episode_id": self.instance, **self.urls(self.instance)})

    async def _step(self, action: dict[str, Any]) -> dict[str, Any]:
        runtime = await self.worker.call(self.fleet.runtime, self.instance)
        kind = action.get("type")
        if kind == "list_tools":
            specs = await self.worker.call(runtime.tools)
            self.steps += 1
            return observation({"tools": [{"name": s.name, "description": s.description,
                                           "input_schema": s.input_schema} for s in specs]})
        name, arguments = action.get("tool_name"), action.get("arguments", {})
        if kind != "call_tool" or not isinstance(name, str) or not isinstance(arguments, dict):
            return error(f"an action is {ACTIONS}", "VALIDATION_ERROR")
        answer = await self.worker.call(runtime.call_tool, name, arguments)
        self.steps += 1
        return observation({"tool_name": name, "result": answer.structured,
                            "error": answer.structured.get("message") if answer.is_error else None})

    async def end(self) -> None:
        if self.instance is not None:
            instance, self.instance = self.instance, None
            try:
                await self.worker.call(self.fleet.delete, instance)
            except UnknownInstance:
                pass  # expired or deleted by the grader meanwhile


async def serve_openenv(fleet: InstanceFleet, worker: RuntimeWorker, policy: ListenerPolicy, urls: Any,
                        scope: Scope, receive: Receive, send: Send) -> None:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    socket = WebSocket(scope, receive, send)
    refusal = policy.check_host(headers) or policy.check_origin(headers) or policy.check_data_token(headers)
    if refusal is not None:
        await socket.close(POLICY_VIOLATION, refusal.message[:120])
        return
    await socket.accept()
    session = OpenEnvSession(fleet, worker, urls)
    try:
        while True:
            text = await socket.receive_text()
            try:
                message = json.loads(text)
            except ValueError as exc:
                await socket.send_text(json.dumps(error(f"invalid JSON: {exc}", "INVALID_JSON")))
                continue
            if isinstance(message, dict) and message.get("type") == "close":
                break
            try:
                answer = await session.answer(message)
            except UnknownInstance as gone:
                session.instance = None
                answer = error(gone.message, "NO_EPISODE")
            except Exception:
                logger.exception("an OpenEnv message failed inside the runtime")
                answer = error("internal error", "EXECUTION_ERROR")
            await socket.send_text(json.dumps(answer))
    except WebSocketDisconnect:
        pass
    finally:
        await session.end()
    try:
        await socket.close()
    except (RuntimeError, WebSocketDisconnect):
        pass  # already closed by the client


def observation(fields: dict[str, Any]) -> dict[str, Any]:
    return {"type": "observation", "data": {"observation": fields, "reward": None, "done": False, "metadata": {}}}


def error(message: str, code: str) -> dict[str, Any]:
    return {"type": "error", "data": {"message": message, "code": code}}
