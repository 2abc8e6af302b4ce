"""A document whose answer holds the application's own now (a diagnostics report's time, a
health check's heartbeat) is computed at each read: serving refuses its reads, saying why,
rather than answer an old now (view-live-reports). A document holding older clocks, and an
entity whose clock a write stamped just before the read, are answered as before."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

START = datetime(2026, 12, 3, 13, 0, 0, tzinfo=timezone.utc)


def at(seconds: float) -> str:
    return (START + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


def DATED(seconds: float) -> list[tuple[str, str]]:
    """The Date header an HTTP server stamps its answer with (whole seconds)."""
    return [("Date", format_datetime(START + timedelta(seconds=seconds), usegmt=True))]


def app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/report", started=START + timedelta(seconds=1), response_headers=DATED(1),
                  response={"report": "diagnostics", "time": {"utc": at(1)}, "memory": {"rss": 123456}})
            .call("GET", "/settings", started=START + timedelta(seconds=2), response_headers=DATED(2),
                  response={"version": "4.1", "installed": "2026-11-01T09:00:00Z"})
            .call("GET", "/started", started=START + timedelta(seconds=2.5),
                  response={"started": at(2.5)})  # no Date header: nothing dates the answer
            .call("GET", "/notes", started=START + timedelta(seconds=3), response=[{"id": 1, "title": "a"}])
            .call("POST", "/notes", started=START + timedelta(seconds=4), body={"title": "b"},
                  response={"id": 2, "title": "b", "updated": at(4.01)})
            .call("GET", "/notes/2", started=START + timedelta(seconds=4.2),
                  response={"id": 2, "title": "b", "updated": at(4.01)}))


def http_get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_report_of_its_own_read_time_is_refused_saying_why():
    bundle = build_from(app())
    assert set(bundle.replay.live_reports) == {"get_report"}
    assert "/time/utc" in bundle.replay.live_reports["get_report"]
    runtime = EnvironmentRuntime(bundle)
    refused = http_get(runtime, "/report")
    assert refused.status == 409 and b"time of the read itself" in refused.body and b"rss" not in refused.body
    assert runtime.call_tool("get_report", {}).is_error


def test_older_clocks_and_a_clock_a_write_stamped_are_answered():
    runtime = EnvironmentRuntime(build_from(app()))
    assert http_get(runtime, "/settings").status == 200
    assert http_get(runtime, "/started").status == 200
    assert b"time of the read itself" not in http_get(runtime, "/notes/2").body  # the write stamped it
