"""Whatever a HAR holds, ingest gives Evidence or a one-line CaptureError, never a traceback."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.har_builder import HarBuilder

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.evidence.har import CaptureError, parse_har_bytes
from capenv.interpreter.evidence.origin import UrlError, normalise_origin, split_query, split_url

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=6)

# Places in an entry a recorder (or a corruption) may put anything.
FIELDS = [
    ("startedDateTime",), ("time",), ("timings",), ("timings", "wait"),
    ("request",), ("request", "method"), ("request", "url"), ("request", "headers"), ("request", "headers", 0),
    ("request", "postData"), ("request", "postData", "text"), ("request", "postData", "mimeType"),
    ("request", "postData", "encoding"), ("request", "bodySize"),
    ("response",), ("response", "status"), ("response", "statusText"), ("response", "redirectURL"),
    ("response", "headers"), ("response", "content"), ("response", "content", "text"),
    ("response", "content", "mimeType"), ("response", "content", "encoding"), ("response", "content", "size"),
    ("response", "bodySize"),
]

BASE = (HarBuilder()
        .call("POST", "/a", body={"b": 2}, status=201, response={"b": 2}, headers=[("X", "1")])
        .call("GET", "/a", response=b"\xff\xfe", response_type="application/octet-stream"))


def _set(entry: dict, path: tuple, value) -> None:
    holder = entry
    for key in path[:-1]:
        if isinstance(holder, dict) and key in holder:
            holder = holder[key]
        elif isinstance(holder, list) and isinstance(key, int) and key < len(holder):
            holder = holder[key]
        else:
            return
    if isinstance(holder, dict):
        holder[path[-1]] = value
    elif isinstance(holder, list) and isinstance(path[-1], int) and path[-1] < len(holder):
        holder[path[-1]] = value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from(FIELDS), JSON_VALUES), min_size=1, max_size=3))
def test_any_field_value_gives_evidence_or_a_capture_error(changes):
    har = copy.deepcopy(BASE.har())
    for index, path, value in changes:
        _set(har["log"]["entries"][index], path, value)
    try:
        data = jsonvalue.dumps(har)
    except TypeError:  # orjson cannot write a >64-bit int; not a HAR anyone could read
        return
    try:
        parse_har_bytes(data, source="f.har")
    except CaptureError as error:
        assert "\n" not in str(error) and str(error).startswith("f.har: ")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_evidence_or_a_capture_error(data):
    try:
        parse_har_bytes(data, source="f.har")
    except CaptureError as error:
        assert "\n" not in str(error)


@given(st.integers(0, len(BASE.bytes()) - 1))
def test_every_truncation_is_a_capture_error(cut):
    with pytest.raises(CaptureError):
        parse_har_bytes(BASE.bytes()[:cut], source="f.har")


# --- URL splitting --------------------------------------------------------------------------

def test_split_url_keeps_path_and_query_raw():
    split = split_url("HTTPS://Api.Example.com:443/v1/%7Euser/a%2Fb;x=1?q=%E2%9C%93&q=2&flag#frag")
    assert split.origin == "https://api.example.com"
    assert split.path == "/v1/%7Euser/a%2Fb;x=1"
    assert split.query == (("q", "%E2%9C%93"), ("q", "2"), ("flag", ""))


def test_split_query_skips_empty_pieces():
    assert split_query("&a=&&=b&") == (("a", ""), ("", "b"))


@pytest.mark.parametrize("url", ["", "example.com/x", "mailto:x@y", "http://", "http://h:x/", "http://[::1/"])
def test_split_url_refuses(url):
    with pytest.raises(UrlError):
        split_url(url)


@pytest.mark.parametrize(("text", "origin"), [
    ("http://LOCALHOST:80", "http://localhost"), ("https://h.example/", "https://h.example"),
    (" http://127.0.0.1:3000 ", "http://127.0.0.1:3000"),
])
def test_normalise_origin(text, origin):
    assert normalise_origin(text) == origin


@pytest.mark.parametrize("status", [1000, 2**64, 1.8e19])
def test_a_status_past_three_digits_is_a_capture_error(status):
    har = copy.deepcopy(BASE.har())
    har["log"]["entries"][0]["response"]["status"] = status
    try:
        evidence = parse_har_bytes(json.dumps(har).encode(), source="f.har")
    except CaptureError as exc:
        assert "status" in str(exc) and "\n" not in str(exc)
    else:  # a lenient reader may set the entry aside, but never keeps the number
        assert all(r.response.status <= 999 for r in evidence.records)
