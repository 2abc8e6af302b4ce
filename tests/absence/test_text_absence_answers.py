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
