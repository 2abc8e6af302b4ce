"""A text absence answer that quotes the requested id (Jupyter's "file or directory '/x.txt' does
not exist") is answered for the call's id, never naming the recorded one (no wrong answers)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def _missing(path: str) -> str:
    return f"file or directory '/{path}' does not exist"


def notes() -> HarBuilder:
    a, b = {"key": "alpha.txt", "text": "a"}, {"key": "beta.txt", "text": "b"}
    return (HarBuilder()
            .call("GET", "/notes/alpha.txt", response=a)
            .call("GET", "/notes/beta.txt", response=b)
            .call("GET", "/notes/gamma.txt", status=404, response=_missing("gamma.txt"), response_type="text/plain"))


def test_the_text_absence_answer_names_the_requested_id():
    bundle = build_from(notes())
    view = next(v for v in bundle.view.views if v.absence is not None)
    assert view.absence.id_pointers == ("",)
    answer = EnvironmentRuntime(bundle).read(view.tool, {view.tool.rsplit("_by_", 1)[-1]: "delta.md"})
    assert answer["status"] == 404 and answer["body"] == _missing("delta.md")


def _no_tag(name: str) -> str:
    return f"<html><body><h1>404 Not Found</h1>Could not find metadata tag {name}<br /></body></html>"


def tags(absent: tuple[str, ...]) -> HarBuilder:
    """Tags named by short words; each name in ``absent`` read missing, the application's HTML
    quoting it (too short for an id carried anywhere in a text: a path text, proven by two)."""
    har = HarBuilder()
    for name in ("ssd", "hdd"):
        har.call("GET", f"/tags/{name}", response={"name": name, "created": "2026-01-01"})
    for name in absent:
        har.call("GET", f"/tags/{name}", status=404, response=_no_tag(name), response_type="text/html")
    return har


def test_a_text_absence_quoting_a_short_id_names_the_requested_one():
    """Once such a text was answered as recorded for every missing tag: ``zz`` was told
    "Could not find metadata tag ovs", another entity's recording."""
    runtime = EnvironmentRuntime(build_from(tags(("ovs", "nic"))))
    answer = runtime.read("get_tags_by_tag_id", {"tag_id": "zz"})
    assert answer["status"] == 404 and answer["body"] == _no_tag("zz")


def test_a_text_absence_shown_for_one_short_id_only_answers_that_id():
    """One recording cannot prove how the text reads for another name: refused, never quoting ovs."""
    runtime = EnvironmentRuntime(build_from(tags(("ovs",))))
    recorded = runtime.read("get_tags_by_tag_id", {"tag_id": "ovs"})
    assert recorded["status"] == 404 and recorded["body"] == _no_tag("ovs")
    refused = runtime.call_tool("get_tags_by_tag_id", {"tag_id": "zz"})
    assert refused.is_error and "only a call naming 'ovs' there is answered" in str(refused.structured), \
        refused.structured
