"""Bad input gives one ``CaptureError`` per kind: one line, naming the file and the entry."""

from __future__ import annotations

import gzip
import pickle

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import CaptureError, load_evidence, parse_har_bytes


def good() -> HarBuilder:
    return HarBuilder().call("GET", "/a", response={"a": 1}).call("POST", "/a", body={"b": 2}, response={"b": 2})


def capture_error(data: bytes, source: str = "captures/x.har") -> CaptureError:
    with pytest.raises(CaptureError) as caught:
        parse_har_bytes(data, source=source)
    error = caught.value
    message = str(error)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"{source}: ")
    assert error.file == source
    return error


def assert_entry(error: CaptureError, index: int | None) -> None:
    assert error.entry_index == index
    if index is None:
        assert ": entry " not in str(error)
    else:
        assert str(error).startswith(f"{error.file}: entry {index}: ")


def test_not_json_names_line_and_column():
    error = capture_error(b'{"log": {"entries": [\n  {"startedDateTime": oops}\n]}}')
    assert_entry(error, None)
    assert "not JSON" in error.problem and "line 2 column" in error.problem


def test_not_har():
    error = capture_error(b'{"log": {"pages": []}}')
    assert_entry(error, None)
    assert "no log.entries list" in error.problem
    assert "no log.entries" in capture_error(b"[1, 2]").problem


@pytest.mark.parametrize(("remove", "named"), [
    (("startedDateTime",), "startedDateTime"),
    (("request", "method"), "request.method"),
    (("request", "url"), "request.url"),
    (("response",), "response"),
])
def test_missing_required_field(remove, named):
    har = good()
    holder = har.entries[1]
    for key in remove[:-1]:
        holder = holder[key]
    del holder[remove[-1]]
    error = capture_error(har.bytes())
    assert_entry(error, 1)
    assert error.problem == f"has no {named}"


def test_bad_base64():
    har = good()
    har.entries[0]["response"]["content"].update(text="not base64!", encoding="base64")
    error = capture_error(har.bytes())
    assert_entry(error, 0)
    assert "response.content.text is not valid base64" in error.problem


def test_non_utf8_file_text():
    data = good().bytes().replace(b'/a"', b'/\xe9"', 1)
    error = capture_error(data)
    assert_entry(error, None)
    assert "not UTF-8 text (byte 0xe9 at line 1 column" in error.problem


def test_bad_date():
    har = good()
    har.entries[1]["startedDateTime"] = "foo"
    error = capture_error(har.bytes())
    assert str(error) == 'captures/x.har: entry 1: startedDateTime "foo" is not an ISO-8601 date'


def test_naive_date():
    har = good()
    har.entries[0]["startedDateTime"] = "2026-01-01T00:00:00.000"
    error = capture_error(har.bytes())
    assert_entry(error, 0)
    assert "has no time zone" in error.problem


def test_truncated_file():
    data = good().bytes()
    error = capture_error(data[: len(data) // 2])
    assert_entry(error, None)
    assert "not JSON" in error.problem and "truncated" in error.problem


def test_truncated_gzip(tmp_path):
    path = good().write(tmp_path / "x.har.gz")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 12])
    with pytest.raises(CaptureError) as caught:
        load_evidence(path)
    assert str(caught.value).startswith(f"{path}: gzip data is truncated or corrupt")
    assert "\n" not in str(caught.value)


def test_gzip_of_truncated_json():
    data = good().bytes()
    error = capture_error(gzip.compress(data[:-3]), source="x.har.gz")
    assert "truncated" in error.problem


def test_entry_not_an_object():
    har = good()
    har.entries.insert(1, ["not", "an", "entry"])
    error = capture_error(har.bytes())
    assert_entry(error, 1)
    assert "not an object" in error.problem


@pytest.mark.parametrize("url", ["/relative/path", "ftp://example.com/x", "http:///no-host", "http://h:99999/x"])
def test_url_not_absolute_http(url):
    har = good()
    har.entries[1]["request"]["url"] = url
    error = capture_error(har.bytes())
    assert_entry(error, 1)
    assert error.problem.startswith(f'request.url "{url}"')


def test_bad_status():
    har = good()
    har.entries[0]["response"]["status"] = "OK"
    error = capture_error(har.bytes())
    assert_entry(error, 0)
    assert error.problem == 'response.status "OK" is not an integer'


def test_bad_headers():
    har = good()
    har.entries[1]["request"]["headers"].append({"name": "X-Count", "value": 3})
    error = capture_error(har.bytes())
    assert_entry(error, 1)
    assert error.problem.startswith("request.headers[")


def test_unreadable_file(tmp_path):
    with pytest.raises(CaptureError) as caught:
        load_evidence(tmp_path / "missing.har")
    assert str(caught.value) == f"{tmp_path / 'missing.har'}: cannot be read: No such file or directory"


def test_capture_error_pickles():
    error = CaptureError("a.har", 3, "broken")
    again = pickle.loads(pickle.dumps(error))
    assert (again.file, again.entry_index, again.problem, str(again)) == ("a.har", 3, "broken", "a.har: entry 3: broken")


def test_capture_error_is_one_line_even_when_the_problem_is_not():
    assert str(CaptureError("a.har", None, "two\nlines")) == "a.har: two lines"
