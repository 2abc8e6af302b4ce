"""A page size the application bounds (``view-page-size-bounds``): when a recorded read was refused
for a size beyond every size a successful read sent (a ``per_page=500`` answered 400), a page size
learned over the state is served only within the sizes the view's own reads sent, and refused
outside them, since the bound lies somewhere between; without such a refusal any size is served."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

A1, A2, A3 = ({"id": n, "title": t} for n, t in ((1, "alpha"), (2, "beta"), (3, "gamma")))
NEW = {"id": 4, "title": "delta"}
REFUSAL = {"code": "invalid_param", "message": "size must be between 1 and 100"}


def capture(*, refused: str | None) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/notes", response=[A1, A2, A3])
           .call("GET", "/notes/1", response=A1)
           .call("GET", "/notes", query="size=2", response=[A1, A2])
           .call("GET", "/notes", query="size=3", response=[A1, A2, A3]))
    if refused is not None:
        har.call("GET", "/notes", query=refused, status=400, response=REFUSAL)
    return (har.call("POST", "/notes", body={"title": "delta"}, status=201, response=NEW)
            .call("GET", "/notes/4", response=NEW)
            .call("GET", "/notes", response=[A1, A2, A3, NEW]))


def after_create(refused: str | None) -> EnvironmentRuntime:
    runtime = EnvironmentRuntime(build_from(capture(refused=refused)))
    created = runtime.call_tool("post_notes", {"body": {"title": "delta"}})
    assert not created.is_error, created.structured
    return runtime


def sized(runtime: EnvironmentRuntime, size: str):
    return runtime.call_tool("get_notes", {"query": {"size": size}})


def test_a_refused_size_beyond_the_answered_ones_bounds_the_served_sizes():
    runtime = after_create(refused="size=500")
    assert [n["title"] for n in sized(runtime, "2").structured["body"]] == ["alpha", "beta"]
    assert [n["title"] for n in sized(runtime, "3").structured["body"]] == ["alpha", "beta", "gamma"]
    for outside in ("4", "101", "1", "0", "-1"):
        answer = sized(runtime, outside)
        assert answer.is_error and "from 2 to 3" in answer.structured["message"], (outside, answer.structured)


def test_a_size_below_the_answered_ones_refused_bounds_them_too():
    runtime = after_create(refused="size=0")
    assert sized(runtime, "5").is_error


def test_without_a_refused_size_any_size_is_served():
    runtime = after_create(refused=None)
    assert [n["title"] for n in sized(runtime, "4").structured["body"]] == ["alpha", "beta", "gamma", "delta"]
    assert [n["title"] for n in sized(runtime, "1").structured["body"]] == ["alpha"]


def test_a_refusal_within_the_answered_sizes_or_of_a_word_shows_no_bound():
    for refused in ("size=2&order=sideways", "size=many"):
        runtime = after_create(refused=refused)
        assert [n["title"] for n in sized(runtime, "4").structured["body"]] == ["alpha", "beta", "gamma", "delta"]
