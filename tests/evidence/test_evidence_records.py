"""HAR entries become records exactly as DESIGN.md §3's table says."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.evidence.records import NOT_JSON


def ingest(har: HarBuilder, **options):
    return parse_har_bytes(har.bytes(), source="t.har", **options)


def one(har: HarBuilder):
    (record,) = ingest(har).records
    return record


# --- order and time -------------------------------------------------------------------------

def test_ordinals_follow_a_stable_sort_by_start_time():
    har = (HarBuilder()
           .call("GET", "/c", started="2026-01-01T00:00:03Z")
           .call("GET", "/a", started="2026-01-01T00:00:01Z")
           .call("GET", "/b1", started="2026-01-01T00:00:02Z")
           .call("GET", "/b2", started="2026-01-01T00:00:02Z")  # a tie keeps file order
           .call("GET", "/b3", started="2026-01-01T01:00:02+01:00"))  # the same instant, another zone
    records = ingest(har).records
    assert [r.path for r in records] == ["/a", "/b1", "/b2", "/b3", "/c"]
    assert [r.ordinal for r in records] == [1, 2, 3, 4, 5]
    assert [r.entry_index for r in records] == [1, 2, 3, 4, 0]


def test_times_are_timezone_aware_with_microseconds():
    record = one(HarBuilder().call("GET", "/", started="2026-01-01T02:00:00.123456+02:00", duration_ms=20.5))
    assert record.started_at == datetime(2026, 1, 1, 0, 0, 0, 123456, tzinfo=timezone.utc)
    assert record.started_at.utcoffset() == timedelta(0)
    assert record.finished_at - record.started_at == timedelta(microseconds=20500)


def test_finished_at_falls_back_to_timings_then_zero():
    har = HarBuilder().call("GET", "/no-time").call("GET", "/negative-time").call("GET", "/nothing")
    del har.entries[0]["time"]
    har.entries[0]["timings"] = {"blocked": 1, "dns": -1, "connect": 2, "ssl": 1.5, "send": 0.5, "wait": 3, "receive": 1}
    har.entries[1]["time"] = -1
    har.entries[1]["timings"] = {"wait": 4}
    del har.entries[2]["time"], har.entries[2]["timings"]
    durations = [r.finished_at - r.started_at for r in ingest(har).records]
    # ssl is inside connect in HAR, so it is not added again
    assert durations == [timedelta(milliseconds=7.5), timedelta(milliseconds=4), timedelta(0)]


# --- request line ---------------------------------------------------------------------------

def test_method_is_upper_cased():
    assert one(HarBuilder().call("patch", "/x")).method == "PATCH"


@pytest.mark.parametrize(("url_origin", "origin"), [
    ("HTTP://Example.COM:80", "http://example.com"),
    ("https://api.example.com:443", "https://api.example.com"),
    ("https://api.example.com:8443", "https://api.example.com:8443"),
    ("http://user:pw@127.0.0.1:3000", "http://127.0.0.1:3000"),
    ("http://[::1]:8080", "http://[::1]:8080"),
])
def test_origin_is_normalised(url_origin, origin):
    assert one(HarBuilder(origin=url_origin).call("GET", "/x")).origin == origin


def test_path_keeps_its_raw_spelling():
    records = ingest(HarBuilder().call("GET", "/orgs/%61cme1/a%2Fb").call("GET", "/orgs/acme1/a%2fb")).records
    assert [r.path for r in records] == ["/orgs/%61cme1/a%2Fb", "/orgs/acme1/a%2fb"]


def test_empty_path_is_slash_and_fragment_is_dropped():
    records = ingest(HarBuilder().call("GET", "").call("GET", "/p#frag")).records
    assert [(r.path, r.query) for r in records] == [("/", ()), ("/p", ())]


def test_query_is_raw_ordered_pairs():
    record = one(HarBuilder().call("GET", "/items", query="b=%20x&a=1&flag&a=2&&empty=&x=y=z"))
    assert record.query == (("b", "%20x"), ("a", "1"), ("flag", ""), ("a", "2"), ("empty", ""), ("x", "y=z"))


def test_headers_are_ordered_tuples():
    record = one(HarBuilder().call("GET", "/", headers=[("X-B", "2"), ("x-a", "1")],
                                   response=[], response_headers=[("ETag", '"7"')]))
    assert record.request_headers == (("Host", "127.0.0.1:3000"), ("X-B", "2"), ("x-a", "1"))
    assert record.header("etag") == '"7"'
    assert record.header("X-A", response=False) == "1"


# --- request bodies -------------------------------------------------------------------------

def test_request_json_body_is_parsed():
    record = one(HarBuilder().call("POST", "/posts", body={"title": "a", "n": 1}, status=201, response={"id": 1}))
    assert record.request.text == '{"title":"a","n":1}'
    assert record.request.json == {"title": "a", "n": 1}
    assert record.request.retained and record.request.size == len(record.request.text)


def test_request_body_without_text_is_not_retained():
    record = one(HarBuilder().call("PUT", "/posts/1", body={"title": "a"}, retained=False))
    assert record.request.retained is False
    assert record.request.text is None and record.request.json is NOT_JSON
    assert record.request.mime_type == "application/json"


def test_body_sent_but_no_post_data_is_not_retained():
    har = HarBuilder().call("DELETE", "/posts", headers=[("Content-Length", "12")])
    assert one(har).request.retained is False


@pytest.mark.parametrize("method", ["GET", "DELETE", "POST"])
def test_no_body_sent_is_absent(method):
    har = HarBuilder().call(method, "/x", headers=[("Content-Length", "0")] if method == "POST" else None)
    body = one(har).request
    assert body.retained is True and body.text is None and body.size == 0


# --- response bodies ------------------------------------------------------------------------

def test_base64_response_is_decoded():
    record = one(HarBuilder().call("GET", "/x", response=b'{"a": [1, 2]}'))
    assert record.response.text == '{"a": [1, 2]}'
    assert record.response.json == {"a": [1, 2]}
    assert record.response.binary is False and record.response.size == 13


def test_non_utf8_bytes_are_binary():
    record = one(HarBuilder().call("GET", "/logo", response=b"\x89PNG\r\n\x1a\n\xff", response_type="image/png"))
    assert record.response.binary is True
    assert record.response.text is None and record.response.size == 9 and record.response.json is NOT_JSON


def test_response_numbers_are_exact():
    text = '{"big": 123456789012345678901234567890, "f": 1.10, "e": 1e3, "i": 7}'
    value = one(HarBuilder().call("GET", "/n", response=text)).response.json
    assert isinstance(value["big"], JsonNumber) and value["big"].text == "123456789012345678901234567890"
    assert isinstance(value["f"], JsonNumber) and value["f"].text == "1.10"
    assert value["e"].text == "1e3"
    assert value["i"] == 7 and type(value["i"]) is int


@pytest.mark.parametrize(("mime_type", "text", "is_json", "has_error"), [
    ("application/json; charset=utf-8", "[1]", True, False),
    ("application/problem+json", '{"title": "x"}', True, False),
    ("text/json", "{}", True, False),
    ("application/openstack-images-v2.1-json-patch", '[{"op": "remove", "path": "/x"}]', True, False),
    ("application/vnd.acme.json", "{}", True, False),     # json as a word of a vendor subtype
    ("application/x-ndjson", '{"a": 1}', False, False),   # newline-delimited JSON is no one JSON text
    ("application/jsonl", "{}", False, False),
    ("application/json", "{oops", False, True),
    ("application/json", "", False, False),          # an empty answer is absent, not malformed
    ("", '{"sniffed": true}', True, False),           # no media type: sniffed by the first character
    ("text/plain", "[1, 2]", True, False),
    ("text/plain", "{not json", False, False),        # never claimed JSON, so no error
    ("text/html", '{"declared": "html"}', False, False),  # a declared non-JSON type is believed
])
def test_json_detection(mime_type, text, is_json, has_error):
    body = one(HarBuilder().call("GET", "/x", response=text, response_type=mime_type)).response
    assert body.is_json is is_json
    assert (body.json_error is not None) is has_error


def test_response_text_missing_for_a_sized_body_is_not_retained():
    har = HarBuilder().call("GET", "/x", response={"a": 1})
    del har.entries[0]["response"]["content"]["text"]
    assert one(har).response.retained is False


# --- status and redirects -------------------------------------------------------------------

def test_unanswered_is_status_zero():
    har = HarBuilder().call("GET", "/zero", status=0).call("GET", "/minus", status=-1).call("GET", "/missing")
    del har.entries[2]["response"]["status"]
    records = ingest(har).records
    assert [r.status for r in records] == [0, 0, 0]
    assert not any(r.answered for r in records)


def test_redirects():
    har = (HarBuilder()
           .call("GET", "/old", status=301, response_headers=[("Location", "/new")])
           .call("GET", "/moved", status=200, redirect_url="http://127.0.0.1:3000/elsewhere")
           .call("GET", "/plain"))
    records = ingest(har).records
    assert [r.redirected for r in records] == [True, True, False]
    assert records[1].redirect_url == "http://127.0.0.1:3000/elsewhere"
