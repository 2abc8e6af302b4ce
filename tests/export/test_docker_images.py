"""Both container images built and run (issue #13 item 6), where a Docker engine answers
(``docker info``): capenv's own image from the repository's ``Dockerfile``, then an exported
environment's image on top of it, run with its ports published on loopback; the agent's listener
answers the application's path and not the data plane, the grader's listener answers the data
plane, and with ``CAPENV_DATA_TOKEN`` in the container's environment only with that bearer.
Without an engine (this project's machines have the docker client only) the test skips and
``test_dockerfiles.py`` lints both files with hadolint instead."""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.export.directory import export_environment
from support.har_builder import HarBuilder

REPO = Path(__file__).resolve().parents[2]
BUILD_SECONDS = 900
READY_SECONDS = 60
TOKEN = "image-grader-token"


def _engine() -> str | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    try:
        answered = subprocess.run([docker, "info"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return None
    return docker if answered else None


def _get(port: int, path: str, host: str, token: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Host": host}  # the name the listener answers to
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _published(docker: str, container: str, port: int) -> int:
    mapped = subprocess.run([docker, "port", container, str(port)], capture_output=True, text=True, check=True)
    return int(mapped.stdout.splitlines()[0].rsplit(":", 1)[1])


@pytest.mark.slow
@pytest.mark.skipif(_engine() is None, reason="no Docker engine answers `docker info` (hadolint checks the files)")
def test_both_images_build_and_the_export_serves(tmp_path: Path) -> None:
    docker = _engine()
    har = (HarBuilder().call("GET", "/items", response=[{"id": 1}])
           .call("GET", "/items/1", response={"id": 1})).write(tmp_path / "c.har")
    exported = tmp_path / "env"
    export_environment(build_bundle(har), exported)
    tag = f"capenv-test-{uuid.uuid4().hex[:12]}"
    container = None
    try:
        subprocess.run([docker, "build", "-t", f"{tag}:base", str(REPO)], check=True, timeout=BUILD_SECONDS)
        subprocess.run([docker, "build", "--build-arg", f"CAPENV_IMAGE={tag}:base", "-t", f"{tag}:env",
                        str(exported)], check=True, timeout=BUILD_SECONDS)
        container = subprocess.run([docker, "run", "-d", "-p", "127.0.0.1::8000", "-p", "127.0.0.1::8001",
                                    f"{tag}:env"], capture_output=True, text=True, check=True).stdout.strip()
        agent, grader = _published(docker, container, 8000), _published(docker, container, 8001)
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                status, body = _get(agent, "/items/1", "127.0.0.1:8000")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        assert status == 200 and b'"id"' in body
        assert _get(agent, "/_capenv/data/get", "127.0.0.1:8000")[0] in (401, 404)  # never the agent's
        status, document = _get(grader, "/_capenv/data/get", "127.0.0.1:8001")
        assert status == 200 and document.startswith(b"{")
        # With the grader's token in the container's environment its listener needs that bearer.
        subprocess.run([docker, "rm", "-f", container], capture_output=True)
        container = subprocess.run([docker, "run", "-d", "-e", "CAPENV_DATA_TOKEN", "-p", "127.0.0.1::8001",
                                    f"{tag}:env"], capture_output=True, text=True, check=True,
                                   env={**os.environ, "CAPENV_DATA_TOKEN": TOKEN}).stdout.strip()
        grader = _published(docker, container, 8001)
        deadline = time.monotonic() + READY_SECONDS
        while True:
            try:
                status, _ = _get(grader, "/_capenv/data/get", "127.0.0.1:8001")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        assert status == 401
        status, document = _get(grader, "/_capenv/data/get", "127.0.0.1:8001", TOKEN)
        assert status == 200 and document.startswith(b"{")
    finally:
        if container:
            subprocess.run([docker, "rm", "-f", container], capture_output=True)
        subprocess.run([docker, "rmi", "-f", f"{tag}:env", f"{tag}:base"], capture_output=True)
