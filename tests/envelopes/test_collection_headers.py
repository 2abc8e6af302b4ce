"""Headers that count or page a list as recorded (``rules/list-headers.yaml``): json-server's
``X-Total-Count``, WordPress's ``X-WP-Total``/``X-WP-TotalPages``, a ``Link`` to the next page.
An answer rendered from the state for another query, or after the collection changed, would carry
the recording's count: it is refused, naming the header; the recording's own query over the
collection it recorded keeps them; a list whose recordings carry no such header is answered as
before, and an API-discovery ``Link`` (no page relation) is no such header.
(regression: WordPress's ``tags?per_page=2&page=1`` answered ``X-WP-TotalPages: 1`` copied from the
whole list's recording, where the application answers 2.)"""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

N1, N2, N3 = ({"id": n, "title": t} for n, t in ((1, "alpha"), (2, "beta"), (3, "gamma")))
DISCOVERY = ("Link", '<http://api.test/>; rel="https://api.w.org/"')


def capture(headers) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/notes", response=[N1, N2, N3], response_headers=headers(3))
            .call("GET", "/notes/1", response=N1)
            .call("GET", "/notes/2", response=N2)
            .call("GET", "/notes", query="_limit=2", response=[N1, N2], response_headers=headers(3))
            .call("PATCH", "/notes/2", body={"title": "beta 2"}, response={**N2, "title": "beta 2"})
            .call("GET", "/notes/2", response={**N2, "title": "beta 2"})
            .call("GET", "/notes", response=[N1, {**N2, "title": "beta 2"}, N3], response_headers=headers(3)))


def counted(total: int):
    return (("X-Total-Count", str(total)), DISCOVERY)


def test_a_counting_header_keeps_the_answer_to_the_recorded_query_over_the_recorded_collection():
    runtime = EnvironmentRuntime(build_from(capture(counted)))
    whole = runtime.call_tool("get_notes", {})
    assert not whole.is_error and [n["id"] for n in whole.structured["body"]] == [1, 2, 3], whole.structured
    other = runtime.call_tool("get_notes", {"query": {"_limit": "1"}})
    assert other.is_error and "X-Total-Count" in other.structured["message"], other.structured
    runtime.call_tool("patch_notes_by_note_id", {"note_id": "1", "body": {"title": "alpha 2"}})
    changed = runtime.call_tool("get_notes", {})
    assert changed.is_error and "X-Total-Count" in changed.structured["message"], changed.structured


def test_a_paging_link_is_a_counting_header_and_a_discovery_link_is_not():
    paged = lambda total: (("Link", '<http://api.test/notes?_page=2>; rel="next"'),)  # noqa: E731
    runtime = EnvironmentRuntime(build_from(capture(paged)))
    assert runtime.call_tool("get_notes", {"query": {"_limit": "1"}}).is_error
    runtime = EnvironmentRuntime(build_from(capture(lambda total: (DISCOVERY,))))
    answer = runtime.call_tool("get_notes", {"query": {"_limit": "1"}})
    assert not answer.is_error and [n["id"] for n in answer.structured["body"]] == [1], answer.structured
