"""An absence answer naming the call's path value (``Record not found: ['ghost']``): a value the
call sends percent-escaped (``caf%C3%A9``) is written by some applications as sent and by others
decoded, and a capture whose recorded absences named only unescaped values shows neither. Serving
refuses such a call (404, saying why and what is answered) rather than name the value in a spelling
the application may not use, for a delete's own recorded absence and for an item read's; an
unescaped value is answered with the recording, naming it."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import runtime_over_http, send


def _missing(slug: str) -> dict:
    return {"ok": False, "error": f"Record not found: ['{slug}']"}


def capture() -> HarBuilder:
    """Tags by slug, listed and read; one deleted and read missing; a delete and a read of a slug
    never held, each answered 404 naming it."""
    har = HarBuilder()
    tags = [{"slug": "alpha", "label": "Alpha"}, {"slug": "beta", "label": "Beta"}, {"slug": "gamma", "label": "G"}]
    har.call("GET", "/tags", response=tags)
    for tag in tags:
        har.call("GET", f"/tags/{tag['slug']}", response=tag)
    har.call("DELETE", "/tags/beta", status=204)
    har.call("GET", "/tags/beta", status=404, response=_missing("beta"))
    har.call("GET", "/tags", response=[tags[0], tags[2]])
    har.call("DELETE", "/tags/ghost", status=404, response=_missing("ghost"))
    har.call("GET", "/tags/phantom", status=404, response=_missing("phantom"))
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("e") / "capture.har")


@pytest.mark.parametrize("method", ["DELETE", "GET"])
def test_an_escaped_value_is_refused_where_the_answer_names_it(bundle, method) -> None:
    assert plan(bundle, "DELETE", "/tags/{tag_id}").served
    with runtime_over_http(bundle) as (_, serving):
        status, answer = send(serving, method, "/tags/caf%C3%A9")
        assert status == 404 and "percent-escaped" in answer.get("message", ""), answer
        assert "café" not in str(answer.get("error", "")), answer
        status, answer = send(serving, method, "/tags/omega")
        assert status == 404 and answer == _missing("omega"), answer
