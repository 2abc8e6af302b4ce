"""The live side over HTTPS: an application that serves only TLS with a certificate of its own
making (a test instance on loopback) is compared with its certificate unchecked when asked
(``verify_tls=False``, ``capenv compare --insecure``), and refused as unreachable otherwise."""

from __future__ import annotations

import shutil
import socket
import ssl
import struct
import subprocess
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import SAME, HttpSide, Outgoing, SideUnreachable, compare, parse_probes

from fake_notes_app import SEED, NotesApp, _handler, serving  # noqa: E402  (tests/compare is on sys.path)
from support.har_builder import HarBuilder

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the self-signed certificate")


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> ssl.SSLContext:
    """A server context with a fresh self-signed certificate (no CA anyone trusts)."""
    directory = tmp_path_factory.mktemp("tls")
    key, cert = directory / "key.pem", directory / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=notes.test",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def _get(path: str) -> Outgoing:
    return Outgoing("GET", path, (), (("accept", "application/json"),), None)


def test_an_unverified_https_side_reads_a_self_signed_application(tls):
    with serving(NotesApp(), tls) as live:
        assert live.startswith("https://")
        observed = HttpSide(live, "live", verify_tls=False).send(_get("/notes/1"))
    assert observed.status == 200 and observed.media_type == "application/json"


def test_a_verifying_https_side_refuses_the_self_signed_certificate(tls):
    with serving(NotesApp(), tls) as live:
        with pytest.raises(SideUnreachable, match="CERTIFICATE_VERIFY_FAILED"):
            HttpSide(live, "live").send(_get("/notes/1"))


def test_compare_reaches_an_https_application_without_verification(tls, tmp_path: Path):
    har = HarBuilder().call("GET", "/notes", response=SEED).call("GET", "/notes/1", response=SEED[0])
    bundle = build_bundle(har.write(tmp_path / "notes.har"))
    probes = parse_probes("- {method: GET, path: /notes}\n- {method: GET, path: /notes/1}")
    with serving(NotesApp(), tls) as live:
        results = compare(bundle, probes, live, verify_tls=False)
    assert [r.verdict for r in results] == [SAME, SAME]


def test_cli_insecure_compares_an_https_application(tls, tmp_path: Path, capsys):
    from capenv.interpreter.cli.main import main

    har = HarBuilder().call("GET", "/notes/1", response=SEED[0])
    capture = har.write(tmp_path / "notes.har")
    probes = tmp_path / "probes.yaml"
    probes.write_text("- {method: GET, path: /notes/1}\n")
    with serving(NotesApp(), tls) as live:
        code = main(["compare", str(capture), "--live", live, "--insecure", "--probes", str(probes)])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 calls, 1 same, 0 different, 0 refused"


class _ResetsFirstHandshake(ThreadingHTTPServer):
    """An HTTPS server that resets its first connection before the handshake (as an application
    under load may), then serves every later one."""

    def __init__(self, app: NotesApp, tls: ssl.SSLContext) -> None:
        super().__init__(("127.0.0.1", 0), _handler(app))
        self.tls, self.resets = tls, 0

    def get_request(self):
        connection, address = self.socket.accept()
        if self.resets == 0:
            self.resets += 1
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()  # a linger of 0: the client's handshake meets a reset
            self.socket.settimeout(10)  # a client that never comes back fails the test, never hangs it
            connection, address = self.socket.accept()
        return self.tls.wrap_socket(connection, server_side=True), address


def test_a_handshake_reset_once_is_tried_again_since_nothing_was_sent(tls):
    server = _ResetsFirstHandshake(NotesApp(), tls)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        observed = HttpSide(f"https://127.0.0.1:{server.server_address[1]}", "live", verify_tls=False
                            ).send(_get("/notes/1"))
    finally:
        server.shutdown()
        server.server_close()
    assert server.resets == 1
    assert observed.status == 200 and observed.media_type == "application/json"


def test_a_refused_connection_is_unreachable_at_once():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(SideUnreachable, match="refused"):
        HttpSide(f"http://127.0.0.1:{port}", "live").send(_get("/notes/1"))
