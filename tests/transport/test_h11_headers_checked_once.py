"""An answer's headers are checked by h11 once per distinct header (``h11_headers``): the headers h11
is handed, the bytes on the wire and every refusal are h11's own, as when it checked each list whole."""

from __future__ import annotations

import socket

import h11
import pytest
from h11._headers import normalize_and_validate
from uvicorn.protocols.http.h11_impl import RequestResponseCycle
from support.http_thread import http_in_thread
from transport_example_runtime import ExampleRuntime

from capenv.serving.runtime_api import HttpAnswer
from capenv.serving.transport import http_deadline
from capenv.serving.transport.h11_headers import _checked, checked_headers
from capenv.serving.transport.http_app import Access

LISTS = [
    [],
    [(b"content-type", b"application/json"), (b"content-length", b"12")],
    [(b"X-Powered-By", b"Express"), (b"vary", b"Origin, Accept-Encoding"), (b"etag", b'W/"7b-x"'),
     (b"content-length", b"12"), (b"location", b"/comments/5")],
    [("x-text", "as str"), (b"content-length", b"3,3")],  # h11 takes str too, and one length spelled twice
    [(b"content-length", b"3"), (b"Content-Length", b"3")],  # the same length twice: one kept
    [(b"transfer-encoding", b"Chunked"), (b"x", b"")],
    [(b"x-a", b"1"), (b"x-a", b"2")],
]
REFUSED = [
    [(b"content-length", b"3"), (b"content-length", b"4")],  # conflicting
    [(b"transfer-encoding", b"chunked"), (b"transfer-encoding", b"chunked")],
    [(b"transfer-encoding", b"gzip")],
    [(b"content-length", b"3"), (b"x-bad", b"a\r\nb")],
    [(b"x bad", b"v")],
    [(b"content-length", b"-1")],
    [(b"x-padded", b" v ")],
    [(b"content-length", b"3"), (b"x-late", b"\x00"), (b"content-length", b"4")],  # which error h11 names first
]


def _h11_error(headers: list) -> str:
    with pytest.raises(h11.LocalProtocolError) as raised:
        normalize_and_validate(headers)
    return str(raised.value)


@pytest.mark.parametrize("headers", LISTS)
def test_the_headers_are_h11s_own(headers: list) -> None:
    for _ in range(2):  # made, then looked up
        assert checked_headers(headers)._full_items == normalize_and_validate(headers)._full_items


@pytest.mark.parametrize("headers", REFUSED)
def test_a_list_h11_refuses_is_refused_with_its_words(headers: list) -> None:
    expected = _h11_error(headers)
    for _ in range(2):
        with pytest.raises(h11.LocalProtocolError) as raised:
            checked_headers(headers)
        assert str(raised.value) == expected


class _Answering(ExampleRuntime):
    def __init__(self, answer: HttpAnswer) -> None:
        super().__init__()
        self.answer = answer

    def http(self, request):  # type: ignore[override]
        return self.answer


def _raw_exchange(port: int, target: str) -> tuple[bytes, bytes]:
    """The request sent, and the answer's bytes (its head and its body of ``content-length``)."""
    request = f"GET {target} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < _length(received):
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
    return request, received


def _length(received: bytes) -> int:
    for line in received.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            return int(value)
    return 0


def _answers(answer: HttpAnswer, target: str, times: int = 2) -> list[bytes]:
    with http_in_thread(_Answering(answer), access=Access(data_token="t")) as serving:
        return [_raw_exchange(serving.port, target)[1] for _ in range(times)]


def _as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn's own ``send``: h11 checks each answer's list whole."""
    monkeypatch.setattr(http_deadline, "send_checked_once", RequestResponseCycle.send)


def test_an_answer_on_the_wire_is_the_one_h11_writes_of_the_whole_list(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = HttpAnswer(201, (("X-Powered-By", "Express"), ("Vary", "Origin"), ("location", "/items/7")), b"hello")
    conn = h11.Connection(h11.SERVER)
    conn.receive_data(b"GET /items/7 HTTP/1.1\r\nhost: x\r\n\r\n")
    conn.next_event()
    conn.next_event()
    expected = conn.send(h11.Response(status_code=201, reason=b"Created", headers=[
        (b"x-powered-by", b"Express"), (b"vary", b"Origin"), (b"location", b"/items/7"),
        (b"content-length", b"5")])) + b"hello"
    hits = _checked.cache_info().hits
    checked_once = _answers(answer, "/items/7")  # the second answer from the kept checks
    assert _checked.cache_info().hits >= hits + 4  # the second answer's four headers were looked up
    _as_before(monkeypatch)
    assert checked_once == _answers(answer, "/items/7") == [expected, expected]


def test_an_answer_h11_refuses_ends_as_it_did(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn has started the answer when h11 refuses its headers: the connection is closed, unanswered."""
    answer = HttpAnswer(200, (("x-bad", "a\rb"),), b"hello")
    checked_once = _answers(answer, "/x", times=1)
    _as_before(monkeypatch)
    assert checked_once == _answers(answer, "/x", times=1) == [b""]
