"""A read at a path of its own for another key member (``/posts/slug/{slug}`` beside
``/posts/{id}``) answers a slug the state does not hold with an absence only where the capture
shows one at that path (``absence-key-path.other-key-member``): the id path's 404 tells nothing of
how the slug's route answers a missing slug, so without one of its own the read is refused,
naming the slugs held."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

P1 = {"id": "5f1a2b3c4d5e6f7a8b9c0d1e", "slug": "welcome", "title": "Welcome"}
P2 = {"id": "5f1a2b3c4d5e6f7a8b9c0d2f", "slug": "about", "title": "About"}
GONE = "5f1a2b3c4d5e6f7a8b9c0d3a"


def capture(slug_absence: bool) -> HarBuilder:
    builder = (HarBuilder().call("GET", "/posts", response={"posts": [P1, P2]})
               .call("GET", f"/posts/{P1['id']}", response=P1).call("GET", f"/posts/{P2['id']}", response=P2)
               .call("GET", "/posts/slug/welcome", response=P1).call("GET", "/posts/slug/about", response=P2)
               .call("GET", f"/posts/{GONE}", status=404, response={"error": "post not found"}))
    if slug_absence:
        builder.call("GET", "/posts/slug/gone", status=404, response={"error": "no post with that slug"})
    return builder


def _slug_tool(runtime: EnvironmentRuntime) -> str:
    return next(v.tool for v in runtime.bundle.view.views if v.kind == "item" and v.key_field == "slug")


def test_a_missing_slug_is_refused_without_an_absence_recorded_at_the_slug_path():
    runtime = EnvironmentRuntime(build_from(capture(slug_absence=False)))
    tool = _slug_tool(runtime)
    assert runtime.call_tool(tool, {"slug": "about"}).structured["body"] == P2
    missing = runtime.call_tool(tool, {"slug": "no-such-post"})
    assert missing.is_error and '"welcome", "about"' in missing.structured["message"]
    by_id = runtime.call_tool("get_posts_by_post_id", {"post_id": "5f1a2b3c4d5e6f7a8b9c0d4b"})
    assert by_id.structured["status"] == 404 and by_id.structured["body"] == {"error": "post not found"}


def test_a_missing_slug_answers_the_absence_recorded_at_the_slug_path():
    runtime = EnvironmentRuntime(build_from(capture(slug_absence=True)))
    missing = runtime.call_tool(_slug_tool(runtime), {"slug": "no-such-post"})
    assert missing.structured["status"] == 404 and missing.structured["body"] == {"error": "no post with that slug"}
