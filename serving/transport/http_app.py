"""The one ASGI app behind ``capenv serve --http HOST:PORT [--data HOST:PORT]``.

Three surfaces share one runtime (and one runtime worker thread, so one state):

* MCP over streamable HTTP at ``runtime.reserved_mcp_path()`` (the SDK's session manager);
* the grader's data plane under the reserved prefix ``/_capenv/``:
  ``GET /_capenv/data/get``, ``POST /_capenv/data/reset``, ``POST /_capenv/data/add`` (and any
  grader path the runtime claims, such as the AgentEnv JSON-RPC data plane);
* every other path and method: the application's own surface, ``runtime.http``.

Which listener serves which surface, and to whom, is ``http_guard``'s: the agent's listener
serves the data plane only with the grader's bearer token; a ``--data`` listener serves only
the data plane.

Routing compares the raw path as sent, so a percent-encoded spelling of a reserved
path is the application's, as it would have been on the live application.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import ClientDisconnect
from starlette.types import Message, Receive, Scope, Send

from capenv.serving.memory_release import release_replaced
from capenv.serving.runtime_api import DATA_PLANE_PREFIX, DataPlaneRefusal, HttpAnswer, Runtime
from capenv.serving.transport.http_exchange import (
    BodyTooLarge,
    ClientDisconnected,
    answer_messages,
    raw_target,
    read_body,
    request_from_scope,
    scope_headers,
    send_answer,
    send_json,
)
from capenv.serving.transport.http_deadline import deadline_protocol
from capenv.serving.transport.http_guard import (
    Listener, ListenerPolicy, Refusal, allowed_hosts, check_json_body, policy_for_server,
)
from capenv.serving.transport.mcp_server import INTERNAL_ERROR_MESSAGE, build_mcp_server
from capenv.serving.transport.agent_limits import AgentLimits, explained_refusal, opens_a_session
from capenv.serving.transport.request_log import RequestLog
from capenv.serving.transport.runtime_worker import RuntimeWorker

logger = logging.getLogger(__name__)

FIRST_HEADERS_KEY = "capenv.first_headers"
"""Where ``_first_headers`` keeps a request's headers in its scope."""
RESERVED_PREFIX = "/_capenv/"
OPENAPI_PATH = RESERVED_PREFIX + "openapi.json"
"""The OpenAPI description of the application's surface: open to the agent like the MCP tool
list it mirrors (not the grader's data); also at ``/openapi.json`` unless the application
answers that path itself."""


def is_reserved(path: str) -> bool:
    """Paths under ``/_capenv/`` belong to capenv, never to the application."""
    return path.startswith(RESERVED_PREFIX) or path == RESERVED_PREFIX.rstrip("/")


@dataclass(frozen=True, slots=True)
class DataRoute:
    method: str
    run: Callable[[CapenvHttpApp, Scope, Receive, Send], Awaitable[None]]


def mcp_transport_security(policies: list[ListenerPolicy]) -> TransportSecuritySettings:
    """The SDK's own Host/Origin check, on the same names as ours (ours runs first)."""
    hosts = sorted({h for p in policies for h in p.hosts})
    origins = sorted({o for p in policies for o in p.origins()})
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


def _validated_mcp_path(path: str) -> str:
    if not path.startswith("/") or "?" in path or path == "/":
        raise ValueError(f"the MCP path must be an absolute path other than '/', not {path!r}")
    if is_reserved(path):
        raise ValueError(f"the MCP path {path!r} lies under the reserved prefix {RESERVED_PREFIX}")
    return path


def _internal_error() -> dict[str, str]:
    return {"error": "internal", "message": INTERNAL_ERROR_MESSAGE}


class CapenvHttpApp:
    """ASGI app: MCP, data plane and the application's paths over one runtime.

    Build one per server run (the MCP session manager runs once, inside this app's
    lifespan, which also closes the runtime worker).
    """

    def __init__(self, runtime: Runtime, policies: dict[Listener, ListenerPolicy], *,
                 body_limit: int | None = None, log: RequestLog | None = None,
                 worker: RuntimeWorker | None = None) -> None:
        """``body_limit``: request bodies past it are refused with 413 before the runtime sees them
        (by default the budgets' data plane intake, ``AgentLimits.data_request_bytes``: a state
        document just past ``max_state_bytes`` still reaches the runtime, which refuses it with its
        own, more precise message). ``worker``: one shared with other apps (a fleet's instances); by
        default its own."""
        self.limits = AgentLimits.of(runtime)
        if body_limit is None:
            body_limit = self.limits.data_request_bytes
        if body_limit <= 0:
            raise ValueError("body_limit must be a positive number of bytes")
        if not policies:
            raise ValueError("at least one listener policy")
        self.runtime = runtime
        self.body_limit = body_limit
        self.policies = policies
        self.grader_paths = frozenset(runtime.grader_paths())
        self.mcp_path = _validated_mcp_path(runtime.reserved_mcp_path())
        self.worker = worker or RuntimeWorker.for_runtime(runtime)
        self.log = log
        self.openapi_paths = frozenset({OPENAPI_PATH} | (
            set() if runtime.tool_for("GET", "/openapi.json") is not None else {"/openapi.json"}))
        self.mcp_body_limit = min(body_limit, self.limits.mcp_request_bytes())
        self._sessions = StreamableHTTPSessionManager(
            app=build_mcp_server(runtime, worker=self.worker, log=log),
            security_settings=mcp_transport_security(list(policies.values())),
            max_request_body_size=self.mcp_body_limit,
            max_sessions=self.limits.sessions,
            session_idle_timeout=self.limits.idle_timeout(),
            # Nothing is sent to the client while a call runs (no progress, log or request of the
            # server's), so each POST is answered with its one JSON-RPC message as application/json,
            # which the transport spec lets a server choose: the SDK's event stream around it (a
            # task group, a memory stream, a watch for the client's disconnect) cost ~45% of a call.
            json_response=True,
        )

    def run_sessions(self) -> contextlib.AbstractAsyncContextManager[None]:
        """The MCP session manager's run (the app's lifespan enters it; a fleet, per instance)."""
        return self._sessions.run()

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One HTTP request, with no request log (a fleet's instance: the fleet's app logs)."""
        await self._http(scope, receive, send)

    def policy_for(self, scope: Scope) -> ListenerPolicy:
        """The policy of the socket the request arrived on (by its local address and port)."""
        return policy_for_server(self.policies, scope.get("server"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            path = raw_target(scope)[0]
            if self.log is None or path == self.mcp_path:  # MCP's own exchanges: its tool calls are logged
                await self._http(scope, receive, send)
            else:
                await self.log.http(scope, receive, send, self._tool_label(scope["method"], path), self._http)
        elif scope["type"] == "websocket":  # nothing here speaks websocket
            await receive()
            await send({"type": "websocket.close", "code": 1000})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        await receive()  # lifespan.startup
        started = False
        try:
            async with self._sessions.run():
                await send({"type": "lifespan.startup.complete"})
                started = True
                await receive()  # lifespan.shutdown
        except Exception as exc:
            logger.exception("the MCP session manager failed")
            await send({"type": f"lifespan.{'shutdown' if started else 'startup'}.failed", "message": str(exc)})
            return
        finally:
            self.worker.close()
        await send({"type": "lifespan.shutdown.complete"})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, _ = raw_target(scope)
        policy = self.policy_for(scope)
        headers = _first_headers(scope)
        try:
            refusal = policy.check_host(headers) or policy.check_origin(headers)
            if refusal is not None:
                await _refuse(send, refusal)
                return
            preflight = policy.preflight(scope["method"], headers)
            if preflight is not None:
                await send_answer(send, HttpAnswer(204, preflight, b""))
                return
            send = _with_headers(send, policy.cors_headers(headers))
            if path in self.openapi_paths and policy.serves_application:
                await self._openapi(scope, send)
            elif is_reserved(path) or path in self.grader_paths:
                refusal = policy.check_data_token(headers)
                if refusal is not None:
                    await _refuse(send, refusal)
                elif is_reserved(path):
                    await self._data_plane(path, scope, receive, send)
                else:
                    await self._application(scope, receive, send, headers)
            elif not policy.serves_application:
                await send_json(send, 404, {"error": "not_found", "message": (
                    f"this listener serves only the grader's data plane ({DATA_PLANE_PREFIX}get | reset | add)")})
            elif path == self.mcp_path:
                send = explained_refusal(send, 413, self.limits.body_too_large(
                    self.mcp_body_limit, "over MCP", "agent_request_bytes + mcp_envelope_bytes"))
                if opens_a_session(scope):
                    # The path as the agent sent it: a fleet's instance is reached under /i/{id} (its root path).
                    send = explained_refusal(send, 503, self.limits.sessions_full(scope.get("root_path", "") + self.mcp_path))
                await self._sessions.handle_request(scope, receive, send)
            else:
                await self._application(scope, receive, send, headers)
        except (ClientDisconnected, ClientDisconnect):  # ours, or the MCP SDK's reading its body
            logger.debug("%s %s: the client closed the connection before its request was read", scope["method"], path)

    def _tool_label(self, method: str, path: str) -> str | None:
        """What the request log names: the application's tool, or capenv's own route."""
        if path in self.openapi_paths:
            return "openapi"
        if is_reserved(path):
            return path[len(RESERVED_PREFIX):]
        return self.runtime.tool_for(method, path)

    async def _openapi(self, scope: Scope, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await send_json(send, 405, {"error": "method_not_allowed", "message": f"{OPENAPI_PATH} takes GET"},
                            (("allow", "GET, HEAD"),))
            return
        document = await self.worker.call(self.runtime.openapi)
        if document is None:
            await send_json(send, 404, {"error": "not_found", "message": "this server has no OpenAPI description"})
            return
        answer = HttpAnswer(200, (("content-type", "application/json"),), bytes(document))
        for message in answer_messages(answer, head=scope["method"] == "HEAD"):
            await send(message)

    async def _data_plane(self, path: str, scope: Scope, receive: Receive, send: Send) -> None:
        route = DATA_ROUTES.get(path)
        if route is None:
            known = ", ".join(f"{r.method} {p}" for p, r in DATA_ROUTES.items())
            message = f"no data plane route {path}; routes: {known}"
            await send_json(send, 404, {"error": "not_found", "message": message})
            return
        if scope["method"] != route.method:
            message = f"{path} takes {route.method}, not {scope['method']}"
            await send_json(send, 405, {"error": "method_not_allowed", "message": message}, (("allow", route.method),))
            return
        try:
            await route.run(self, scope, receive, send)
        except ClientDisconnected:
            raise
        except Exception:
            logger.exception("data plane %s failed inside the runtime", path)
            await send_json(send, 500, _internal_error())

    async def _data_get(self, scope: Scope, receive: Receive, send: Send) -> None:
        document = await self.worker.call(self.runtime.data_get)
        if not isinstance(document, bytes | bytearray):
            raise TypeError(f"data_get returned {type(document).__name__}, not bytes")
        await send_json(send, 200, bytes(document))

    async def _data_reset(self, scope: Scope, receive: Receive, send: Send) -> None:
        prepare = getattr(self.runtime, "prepare_reset", None)
        if prepare is None:
            await self.worker.call(self.runtime.data_reset)
        else:
            await self._in_steps(await self.worker.aside(prepare))
        await send_json(send, 200, {"ok": True})

    async def _in_steps(self, install: Callable[[], None]) -> None:
        """The last steps of a prepared data/add or data/reset: its commit aside where the store
        allows it (``install.aside``), then the install, with the other calls."""
        commit = getattr(install, "aside", None)
        if commit is not None:
            await self.worker.aside(commit)
        await self.worker.call(install)
        await self.worker.aside(release_replaced, install)  # the state replaced: freed here, its pages back

    def _intake_too_large(self, what: str, limit: int) -> str:
        """A grader's request past the intake: which budget made the limit, and what to do."""
        source = ("budgets max_state_bytes + data_envelope_bytes, rules/budgets.yaml"
                  if limit == self.limits.data_request_bytes else "the body limit this server was started with")
        return (f"{what} is larger than {limit} bytes, the most the grader's data plane takes ({source}): "
                "send a smaller one (a data/add of fewer entities, or several)")

    async def _data_add(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            document = await read_body(scope, receive, self.body_limit, self.limits.drain_bytes)
        except BodyTooLarge as exc:
            await send_json(send, 413, {"error": DataPlaneRefusal.RESOURCE_CONSTRAINT, "limit_bytes": exc.limit,
                                        "message": self._intake_too_large("the document", exc.limit)})
            return
        refusal = check_json_body("POST", _first_headers(scope), document or b" ")
        if refusal is not None:
            await _refuse(send, refusal)
            return
        try:
            # Parsed and checked aside; only the install waits its turn with the other calls.
            await self._in_steps(await self.worker.aside(self.runtime.prepare_add, document))
        except DataPlaneRefusal as refusal:
            status = 413 if refusal.kind == DataPlaneRefusal.RESOURCE_CONSTRAINT else 400
            await send_json(send, status, {"error": refusal.kind, "message": refusal.message})
            return
        await send_json(send, 200, {"ok": True})

    async def _application(self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]) -> None:
        """``headers``: the request's first values (``_first_headers``), worked out by ``_http``."""
        grader = raw_target(scope)[0] in self.grader_paths  # a data plane of another protocol: its own intake
        limit = self.body_limit if grader else min(self.body_limit, self.limits.request_bytes)
        try:
            body = await read_body(scope, receive, limit, self.limits.drain_bytes)
        except BodyTooLarge as exc:
            message = self._intake_too_large("the request body", exc.limit) if grader else \
                self.limits.body_too_large(exc.limit, "on the application's paths")
            await send_json(send, 413, {"error": DataPlaneRefusal.RESOURCE_CONSTRAINT, "message": message,
                                        "limit_bytes": exc.limit})
            return
        refusal = check_json_body(scope["method"], headers, body)
        if refusal is not None:
            await _refuse(send, refusal)
            return
        request = request_from_scope(scope, body)
        try:
            prepare = getattr(self.runtime, "prepare_http", None) if grader else None
            # A grader's data/add of another protocol is prepared aside, as /_capenv/data/add is.
            answer_it = await self.worker.aside(prepare, request) if prepare is not None else None
            if answer_it is not None:
                answer = await self.worker.call(answer_it)
            elif grader:  # a data plane of another protocol: a whole state may be read or written
                answer = await self.worker.call(self.runtime.http, request)
            else:  # the application's own path: one call, answered on the loop where the runtime allows
                answer = await self.worker.quick(self.runtime.http, request, on_loop=self.runtime.http_on_loop)
            if answer_it is not None:  # a data/add or data/reset of another protocol
                await self.worker.aside(release_replaced, answer_it)
            messages = answer_messages(answer, head=request.method == "HEAD")
        except Exception:
            logger.exception("%s %s failed inside the runtime", request.method, request.path)
            await send_json(send, 500, _internal_error())
            return
        for message in messages:
            await send(message)


def _first_headers(scope: Scope) -> dict[str, str]:
    """Header name (lower case) -> its first value (worked out once per request, kept in the scope)."""
    kept = scope.get(FIRST_HEADERS_KEY)
    if kept is not None and kept[0] is scope["headers"]:  # a copied scope with other headers reads them
        return kept[1]
    found = dict(reversed(scope_headers(scope)))  # the first value of a name is the last one set
    scope[FIRST_HEADERS_KEY] = (scope["headers"], found)
    return found


async def _refuse(send: Send, refusal: Refusal) -> None:
    await send_json(send, refusal.status, {"error": refusal.error, "message": refusal.message}, refusal.headers)


def _with_headers(send: Send, extra: tuple[tuple[str, str], ...]) -> Send:
    if not extra:
        return send
    encoded = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in extra]

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *encoded]}
        await send(message)

    return sending


DATA_ROUTES: dict[str, DataRoute] = {
    DATA_PLANE_PREFIX + "get": DataRoute("GET", CapenvHttpApp._data_get),
    DATA_PLANE_PREFIX + "reset": DataRoute("POST", CapenvHttpApp._data_reset),
    DATA_PLANE_PREFIX + "add": DataRoute("POST", CapenvHttpApp._data_add),
}


# --- running it -------------------------------------------------------------------

@dataclass(frozen=True)
class HttpServing:
    """Where a running server answers; handed to ``run_http``'s ``ready`` callback."""

    host: str
    port: int
    stop: Callable[[], None]
    """Ask the server to shut down gracefully (thread-safe; ``run_http`` then returns)."""
    data_host: str | None = None
    data_port: int | None = None
    """The grader's own listener (``--data``), when there is one."""
    data_token: str | None = None
    """The bearer token the data plane needs, when it needs one."""

    @property
    def base_url(self) -> str:
        return _base_url(self.host, self.port)

    @property
    def data_url(self) -> str:
        """The base URL the grader's data plane answers on (its own listener, or this one)."""
        if self.data_port is None:
            return self.base_url
        return _base_url(self.data_host or self.host, self.data_port)

    def url(self, path: str) -> str:
        return self.base_url + path


def _base_url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


@dataclass(frozen=True)
class Access:
    """Who reaches what (``capenv serve --data``, ``--data-token``, ``--allow-host``, ``--cors``)."""

    data_listen: tuple[str, int] | None = None
    """The grader's own listener; then the agent's listener never serves the data plane."""
    data_token: str | None = None
    """The data plane's bearer token; generated when neither this nor ``data_listen`` is given."""
    allow_hosts: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()

    def settled(self) -> Access:
        if self.data_listen is None and self.data_token is None:
            return Access(None, secrets.token_urlsafe(32), self.allow_hosts, self.cors_origins)
        return self


def listener_policies(access: Access, agent: tuple[str, int], data: tuple[str, int] | None, *,
                      agent_socket: Listener | None = None,
                      data_socket: Listener | None = None) -> dict[Listener, ListenerPolicy]:
    """Each listener's policy under its socket's own address and port (``*_socket``, by default the
    host and port given: a name such as ``localhost`` is bound as the address it resolves to)."""
    cors = frozenset(o.rstrip("/").lower() for o in access.cors_origins)
    policies = {agent_socket or agent: ListenerPolicy(allowed_hosts(agent[0], agent[1], access.allow_hosts),
                                                      serves_application=True, serves_data=data is None,
                                                      data_token=access.data_token, cors_origins=cors)}
    if data is not None:
        policies[data_socket or data] = ListenerPolicy(allowed_hosts(data[0], data[1], access.allow_hosts),
                                                       serves_application=False, serves_data=True,
                                                       data_token=access.data_token, cors_origins=cors)
    return policies


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    # create_server leaves the socket's protocol 0, so asyncio never sets TCP_NODELAY on accepted
    # connections and each kept-alive answer waits ~40 ms for the client's delayed ACK.
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, fileno=listener.detach())


def _socket_name(listening: socket.socket) -> Listener:
    address, port = listening.getsockname()[:2]
    return str(address), int(port)


def announce(serving: HttpServing, mcp_path: str, *, quiet: bool = False, token_generated: bool = False,
             data_routes: str = f"{DATA_PLANE_PREFIX}get | reset | add", app_paths: str = "every other path",
             openapi_paths: frozenset[str] = frozenset()) -> None:
    print(f"capenv serving on {serving.base_url}", flush=True)
    if quiet:  # the address, and the token when one was generated (the grader cannot know it otherwise)
        if token_generated and serving.data_token is not None:
            print(f"  grader's token: {serving.data_token}", flush=True)
        return
    print(f"  MCP (streamable HTTP): {serving.url(mcp_path)}", flush=True)
    print(f"  {app_paths}: the application's own surface", flush=True)
    if openapi_paths:  # /openapi.json is left to the application when it answers that path itself
        shown = " and ".join(serving.url(p) for p in sorted(openapi_paths, key=lambda p: p != "/openapi.json"))
        print(f"  OpenAPI 3.1 of that surface: {shown}", flush=True)
    where = "its own listener" if serving.data_port is not None else "this listener, with the token"
    print(f"  grader's data plane ({where}): {serving.data_url}{data_routes}", flush=True)
    if serving.data_token is not None:
        # A token given is not echoed: the banner may land in a log the agent reads.
        shown = serving.data_token if token_generated else "the one given (--data-token or CAPENV_DATA_TOKEN)"
        print(f"  grader's token: {shown}  (capenv data --url {serving.data_url} reads it from "
              "CAPENV_DATA_TOKEN; keep it from the agent)", flush=True)


def run_http(
    runtime: Runtime,
    host: str = "127.0.0.1",
    port: int = 0,
    ready: Callable[[HttpServing], None] | None = None,
    *,
    body_limit: int | None = None,
    print_urls: bool = True,
    access: Access | None = None,
    log: RequestLog | None = None,
    quiet: bool = False,
    make_app: Callable[..., Any] | None = None,
) -> None:
    """Serve ``runtime`` over HTTP until SIGINT/SIGTERM (or ``HttpServing.stop``), then return.

    Binds ``host:port`` (and the grader's ``access.data_listen``) before anything else
    (``port=0`` picks a free port), raising ``OSError`` with a one-line message when it cannot.
    Once the server accepts connections it prints its URLs to stdout (unless ``print_urls`` is
    false) and calls ``ready`` on the server's own thread (keep it short). On a signal, in-flight
    requests finish (at most the budget ``shutdown_grace_seconds``) and the function returns
    normally. Signals are only caught when called on the main thread. A connection that does
    not send a whole request within the budget ``request_deadline_seconds`` of its first byte (or
    of its opening), or stays idle ``keep_alive_seconds`` after an answer, is closed
    (``http_deadline``; the budgets of the bundle ``runtime`` serves, a fleet's template's).
    With ``log``, every request is a line of the request log; ``quiet`` prints only the address
    (and a generated token) and leaves uvicorn's warnings out. ``make_app(policies, body_limit=,
    log=, base_url=)`` builds another app than ``CapenvHttpApp(runtime, …)`` (a fleet's).
    """
    import uvicorn  # here, so importing the app does not import the server

    given = access or Access()
    access = given.settled()
    limits = AgentLimits.of(runtime)
    sock = _bind(host, port)
    sockets = [sock]
    data: tuple[str, int] | None = None
    if access.data_listen is not None:
        try:
            data_sock = _bind(*access.data_listen)
        except OSError:
            sock.close()
            raise
        sockets.append(data_sock)
        data = (access.data_listen[0], data_sock.getsockname()[1])
    agent = (host, sock.getsockname()[1])
    policies = listener_policies(access, agent, data, agent_socket=_socket_name(sock),
                                 data_socket=_socket_name(sockets[1]) if data is not None else None)
    app = CapenvHttpApp(runtime, policies, body_limit=body_limit, log=log) if make_app is None else \
        make_app(policies, body_limit=body_limit, log=log, base_url=_base_url(*agent))
    config = uvicorn.Config(
        app,
        lifespan="on",
        log_level="error" if quiet else "warning",
        access_log=False,
        # The runtime's answer is the application's answer: no headers of our own.
        server_header=False,
        date_header=False,
        timeout_graceful_shutdown=limits.shutdown_grace_seconds,
        http=deadline_protocol(limits.request_deadline_seconds, limits.listener_connections),
        timeout_keep_alive=limits.keep_alive_seconds,  # uvicorn hands it to call_later: a float is taken
        h11_max_incomplete_event_size=limits.request_head_bytes,
    )

    class _Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.started:
                return
            serving = HttpServing(host=host, port=agent[1], stop=self._stop,
                                  data_host=data[0] if data else None, data_port=data[1] if data else None,
                                  data_token=access.data_token)
            if print_urls:
                announce(serving, app.mcp_path, quiet=quiet, token_generated=access.data_token != given.data_token,
                         **{name: getattr(app, name) for name in ("data_routes", "app_paths", "openapi_paths")
                            if hasattr(app, name)})
            if ready is not None:
                ready(serving)

        def _stop(self) -> None:
            self.should_exit = True

        @contextlib.contextmanager
        def capture_signals(self) -> Generator[None, None, None]:
            # uvicorn re-raises a caught signal after shutting down (a SIGTERM would
            # then kill the process with cleanup unrun); here a signal only asks for
            # the graceful shutdown, after which run_http returns.
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    try:
        _Server(config).run(sockets=sockets)
    finally:
        for listening in sockets:
            listening.close()
