"""The one ASGI app behind ``capenv serve --http HOST:PORT``.

Three surfaces share one runtime (and one runtime worker thread, so one state):

* MCP over streamable HTTP at ``runtime.reserved_mcp_path()`` (the SDK's session manager);
* the data plane under the reserved prefix ``/_capenv/``:
  ``GET /_capenv/data/get``, ``POST /_capenv/data/reset``, ``POST /_capenv/data/add``;
* every other path and method: the application's own surface, ``runtime.http``.

Routing compares the raw path as sent, so a percent-encoded spelling of a reserved
path is the application's, as it would have been on the live application.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import Receive, Scope, Send

from capenv.serving.runtime_api import DATA_PLANE_PREFIX, DataPlaneRefusal, Runtime
from capenv.serving.transport.http_exchange import (
    BodyTooLarge,
    ClientDisconnected,
    answer_messages,
    raw_target,
    read_body,
    request_from_scope,
    send_json,
)
from capenv.serving.transport.mcp_server import INTERNAL_ERROR_MESSAGE, build_mcp_server
from capenv.serving.transport.runtime_worker import RuntimeWorker

logger = logging.getLogger(__name__)

MiB = 1024 * 1024
DEFAULT_BODY_LIMIT = 33 * MiB
"""Request bodies past this are refused with 413 before the runtime sees them: the data
plane accepts documents up to 32 MiB, and the slack lets the runtime itself refuse a
document just past that with its own, more precise message."""

RESERVED_PREFIX = "/_capenv/"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def is_reserved(path: str) -> bool:
    """Paths under ``/_capenv/`` belong to capenv, never to the application."""
    return path.startswith(RESERVED_PREFIX) or path == RESERVED_PREFIX.rstrip("/")


@dataclass(frozen=True, slots=True)
class DataRoute:
    method: str
    run: Callable[[CapenvHttpApp, Scope, Receive, Send], Awaitable[None]]


def mcp_transport_security(host: str) -> TransportSecuritySettings | None:
    """Host/Origin checks against DNS rebinding when bound to loopback (as the SDK does)."""
    if host not in LOOPBACK_HOSTS:
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


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

    def __init__(self, runtime: Runtime, *, host: str = "127.0.0.1", body_limit: int = DEFAULT_BODY_LIMIT) -> None:
        if body_limit <= 0:
            raise ValueError("body_limit must be a positive number of bytes")
        self.runtime = runtime
        self.body_limit = body_limit
        self.mcp_path = _validated_mcp_path(runtime.reserved_mcp_path())
        self.worker = RuntimeWorker()
        self._sessions = StreamableHTTPSessionManager(
            app=build_mcp_server(runtime, worker=self.worker),
            security_settings=mcp_transport_security(host),
            max_request_body_size=body_limit,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
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
        try:
            if path == self.mcp_path:
                await self._sessions.handle_request(scope, receive, send)
            elif is_reserved(path):
                await self._data_plane(path, scope, receive, send)
            else:
                await self._application(scope, receive, send)
        except ClientDisconnected:
            return

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
        await self.worker.call(self.runtime.data_reset)
        await send_json(send, 200, {"ok": True})

    async def _data_add(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            document = await read_body(scope, receive, self.body_limit)
        except BodyTooLarge as exc:
            message = f"the document is larger than {exc.limit} bytes"
            await send_json(send, 413, {"error": DataPlaneRefusal.RESOURCE_CONSTRAINT, "message": message})
            return
        try:
            await self.worker.call(self.runtime.data_add, document)
        except DataPlaneRefusal as refusal:
            status = 413 if refusal.kind == DataPlaneRefusal.RESOURCE_CONSTRAINT else 400
            await send_json(send, status, {"error": refusal.kind, "message": refusal.message})
            return
        await send_json(send, 200, {"ok": True})

    async def _application(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            body = await read_body(scope, receive, self.body_limit)
        except BodyTooLarge as exc:
            message = f"the request body is larger than {exc.limit} bytes"
            await send_json(send, 413, {"error": DataPlaneRefusal.RESOURCE_CONSTRAINT, "message": message})
            return
        request = request_from_scope(scope, body)
        try:
            answer = await self.worker.call(self.runtime.http, request)
            messages = answer_messages(answer, head=request.method == "HEAD")
        except Exception:
            logger.exception("%s %s failed inside the runtime", request.method, request.path)
            await send_json(send, 500, _internal_error())
            return
        for message in messages:
            await send(message)


DATA_ROUTES: dict[str, DataRoute] = {
    DATA_PLANE_PREFIX + "get": DataRoute("GET", CapenvHttpApp._data_get),
    DATA_PLANE_PREFIX + "reset": DataRoute("POST", CapenvHttpApp._data_reset),
    DATA_PLANE_PREFIX + "add": DataRoute("POST", CapenvHttpApp._data_add),
}


# --- running it -------------------------------------------------------------------

GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long a stop waits for open connections (an idle MCP event stream never ends by itself)."""


@dataclass(frozen=True)
class HttpServing:
    """Where a running server answers; handed to ``run_http``'s ``ready`` callback."""

    host: str
    port: int
    stop: Callable[[], None]
    """Ask the server to shut down gracefully (thread-safe; ``run_http`` then returns)."""

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + path


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    # create_server leaves the socket's protocol 0, so asyncio never sets TCP_NODELAY on accepted
    # connections and each kept-alive answer waits ~40 ms for the client's delayed ACK.
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, fileno=listener.detach())


def announce(serving: HttpServing, mcp_path: str) -> None:
    print(f"capenv serving on {serving.base_url}", flush=True)
    print(f"  MCP (streamable HTTP): {serving.url(mcp_path)}", flush=True)
    print(f"  data plane: {serving.url(DATA_PLANE_PREFIX)}get | reset | add", flush=True)
    print("  every other path: the application's own surface", flush=True)


def run_http(
    runtime: Runtime,
    host: str = "127.0.0.1",
    port: int = 0,
    ready: Callable[[HttpServing], None] | None = None,
    *,
    body_limit: int = DEFAULT_BODY_LIMIT,
    print_urls: bool = True,
) -> None:
    """Serve ``runtime`` over HTTP until SIGINT/SIGTERM (or ``HttpServing.stop``), then return.

    Binds ``host:port`` before anything else (``port=0`` picks a free port), raising
    ``OSError`` with a one-line message when it cannot. Once the server accepts
    connections it prints its URLs to stdout (unless ``print_urls`` is false) and calls
    ``ready`` on the server's own thread (keep it short). On a signal, in-flight
    requests finish (at most ``GRACEFUL_SHUTDOWN_SECONDS``) and the function returns
    normally. Signals are only caught when called on the main thread.
    """
    import uvicorn  # here, so importing the app does not import the server

    app = CapenvHttpApp(runtime, host=host, body_limit=body_limit)
    sock = _bind(host, port)
    config = uvicorn.Config(
        app,
        lifespan="on",
        log_level="warning",
        access_log=False,
        # The runtime's answer is the application's answer: no headers of our own.
        server_header=False,
        date_header=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )

    class _Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.started:
                return
            serving = HttpServing(host=host, port=sock.getsockname()[1], stop=self._stop)
            if print_urls:
                announce(serving, app.mcp_path)
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
        _Server(config).run(sockets=[sock])
    finally:
        sock.close()
