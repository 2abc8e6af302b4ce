"""A replayed read of a part of a document the state holds (``serving/reads/unrecorded``): the
application reads one configuration at ``/settings`` and its members at their own paths
(``/settings/theme`` answering ``"dark"``), which serving replays. Once a served write changed the
document, that recording shows the part as it was: refused (409, saying why), never answered. A
related read that shows no part of it (an index at the root) is still answered."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime

SETTINGS = {"theme": "dark", "lang": "en", "listen": [":80", ":443"]}
INDEX = {"links": ["/settings"], "version": "1.2"}


def settings_app() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/", response=INDEX)
    har.call("GET", "/settings", response=SETTINGS)
    har.call("GET", "/settings/theme", response=json.dumps("dark"))
    for lang, theme in (("fr", "dark"), ("de", "blue")):
        body = {"lang": lang} if theme == "dark" else {"lang": lang, "theme": theme}
        after = {**SETTINGS, "lang": lang, "theme": theme}
        har.call("PATCH", "/settings", body=body, response=after)
        har.call("GET", "/settings", response=after)
    return har


def test_a_replayed_part_of_a_written_document_is_refused_after_the_write():
    bundle = build_from(settings_app())
    assert plan(bundle, "PATCH", "/settings").served
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            assert send(serving, "GET", "/settings/theme") == (200, "dark")  # the state is as the capture began
            status, _ = send(serving, "PATCH", "/settings", {"theme": "green", "lang": "it"})
            assert status == 200
            assert send(serving, "GET", "/settings")[1]["theme"] == "green"
            status, answer = send(serving, "GET", "/settings/theme")
            assert status == 409, answer  # never the recorded "dark"
            assert "part of the document the state holds at /settings" in answer["message"]
            assert send(serving, "GET", "/") == (200, INDEX)  # shows no part of it: still answered
    finally:
        runtime.close()
