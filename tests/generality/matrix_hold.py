"""Hold one style of the convention matrix: record its session, build (a crash is a finding, not
an error of the harness), serve the application on loopback HTTP, compare the model with it on the
probes, and count what the model served and answered wrongly."""

from __future__ import annotations

import os
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlsplit

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import compare
from capenv.serving.compare.sides import Outgoing

from support.judging import wrong_answers
from support.loopback_server import on_loopback as serve_on_loopback
from .convention_app import ConventionApp, Conventions
from .scenario import probes, record

@dataclass
class Outcome:
    style: str
    crash: str | None = None
    wrong: list[str] = field(default_factory=list)
    served: list[str] = field(default_factory=list)
    """The write tools the model serves."""
    unserved: dict[str, str] = field(default_factory=dict)
    """The write tools it does not serve, with the build's reason."""

    @property
    def tools(self) -> int:
        return len(self.served) + len(self.unserved)

    def line(self) -> str:
        if self.crash:
            return f"CRASH  {self.style}: {self.crash.splitlines()[-1]}"
        mark = "WRONG " if self.wrong else "ok    "
        return (f"{mark} {self.style}: {len(self.wrong)} wrong, write tools served {len(self.served)}/{self.tools}"
                + (f" (unserved: {', '.join(f'{t} {r}' for t, r in sorted(self.unserved.items()))})"
                   if self.unserved else ""))


def _handler(app: ConventionApp) -> type[BaseHTTPRequestHandler]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            target = urlsplit(self.path)
            request = Outgoing(self.command, target.path, tuple(parse_qsl(target.query, keep_blank_values=True)),
                               tuple(self.headers.items()), self.rfile.read(length) if length else None)
            with lock:
                answer = app.send(request)
            self.send_response(answer.status)
            for name, value in answer.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

        def log_message(self, *args: Any) -> None:  # quiet tests
            pass

    return Handler


@contextmanager
def on_loopback(app: ConventionApp) -> Iterator[str]:
    """Serve ``app`` over HTTP on loopback; yields its base URL. ``CAPENV_MATRIX_PORT`` names the
    port (a machine whose ports are shared out), else a free one is taken."""
    with serve_on_loopback(_handler(app), int(os.environ.get("CAPENV_MATRIX_PORT", "0"))) as url:
        yield url


def hold_style(conventions: Conventions, folder: Path, live: ConventionApp | None = None) -> Outcome:
    """``live``: the application the probes go to (a fresh one of the conventions unless given)."""
    outcome = Outcome(conventions.name)
    try:
        har = record(conventions).write(folder / "capture.har")
        bundle = build_bundle(har)
    except Exception:  # noqa: BLE001  (the crash is what the matrix reports)
        outcome.crash = traceback.format_exc()
        return outcome
    with on_loopback(live or ConventionApp(conventions)) as url:
        results = compare(bundle, probes(conventions, lenient=True), url)
    outcome.wrong = wrong_answers(results)
    outcome.served = sorted(plan.tool for plan in bundle.view.writes if plan.served)
    outcome.unserved = {plan.tool: plan.reason for plan in bundle.view.writes if not plan.served}
    return outcome
