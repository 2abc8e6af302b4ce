"""A document view the state backs at some paths (settings per user, read before any write) does
not replay a recording of another path made after the capture's writes: that recording shows the
document as the writes left it (Synapse's room topic read after the PUT that set it, a profile read
after an admin API write renamed the user), not as the environment starts."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def settings_app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/settings/ann", response={"theme": "dark", "density": "compact"})
            .call("GET", "/settings/bo", response={"theme": "light", "density": "cosy"})
            .call("PUT", "/admin/users/cy", body={"theme": "blue"}, response={"name": "cy"})
            .call("PUT", "/settings/cy", body={"theme": "green", "density": "cosy"}, response={})
            .call("GET", "/settings/cy", response={"theme": "green", "density": "cosy"}))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_path_the_state_holds_answers_from_it():
    runtime = EnvironmentRuntime(build_from(settings_app()))
    answer = get(runtime, "/settings/ann")
    assert answer.status == 200 and b"dark" in answer.body


def test_a_path_recorded_only_after_the_writes_is_refused_not_replayed():
    runtime = EnvironmentRuntime(build_from(settings_app()))
    answer = get(runtime, "/settings/cy")
    assert answer.status == 409 and b"made after the capture's own writes" in answer.body, answer.body


def overview_app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/settings/ann", response={"theme": "light"})
            .call("PUT", "/settings/ann", body={"theme": "midnight"}, response={})
            .call("GET", "/admin/overview", response={"users": [{"name": "ann", "theme": "midnight"}]})
            .call("GET", "/version", response={"version": "1.2.3"}))


def test_a_later_recording_showing_a_value_a_write_sent_is_refused_not_replayed():
    """Synapse's admin API answered the account data a client API PUT had set: replaying it would
    show a state this environment never made."""
    runtime = EnvironmentRuntime(build_from(overview_app()))
    answer = get(runtime, "/admin/overview")
    assert answer.status == 409 and b"shows a value one of them sent" in answer.body, answer.body


def test_a_later_recording_showing_nothing_a_write_sent_still_replays():
    runtime = EnvironmentRuntime(build_from(overview_app()))
    answer = get(runtime, "/version")
    assert answer.status == 200 and b"1.2.3" in answer.body
