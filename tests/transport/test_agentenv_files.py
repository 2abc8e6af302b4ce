"""AgentEnv data/add ``file://`` parts (serving/transport/agentenv_files): only regular files under
the operator's ``--data-root``, read within the size limit whatever ``st_size`` says, and no
refusal that tells whether a path outside the root exists or what a refused file holds."""

from __future__ import annotations

import json
import os
import resource
from pathlib import Path
from typing import Any

import pytest

from support.capture_runs import build_from, items_app

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest
from capenv.serving.transport import agentenv
from capenv.serving.transport.agentenv_files import FileRefused, read_staged
from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    staged = tmp_path / "staged"
    staged.mkdir()
    return staged


def add_file(served: AgentEnvRuntime, uri: str) -> dict[str, Any]:
    body = dumps({"jsonrpc": "2.0", "id": 1, "method": "data/add",
                  "params": {"parts": [{"kind": "file", "file": {"uri": uri}}]}})
    answer = served.http(HttpRequest("POST", "/agentenv", (), (("content-type", "application/json"),), body))
    assert answer.status == 200, answer.body
    return json.loads(answer.body)


def refused(served: AgentEnvRuntime, uri: str) -> dict[str, Any]:
    before = served.data_get()
    reply = add_file(served, uri)
    assert "error" in reply and reply["error"]["code"] == -32000, reply
    assert served.data_get() == before
    return reply["error"]


def test_without_a_data_root_no_file_uri_is_read(bundle, root: Path) -> None:
    staged = root / "state.json"
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items")
    staged.write_bytes(served.data_get())
    error = refused(served, staged.as_uri())
    assert "--data-root" in error["message"] and "bytes" in error["message"]


def test_a_file_under_the_root_installs(bundle, root: Path) -> None:
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=root)
    document = json.loads(served.data_get())
    document["collections"][0]["entities"].pop()
    (root / "state.json").write_bytes(dumps(document))
    assert add_file(served, (root / "state.json").as_uri())["result"] == {}
    assert json.loads(served.data_get()) == document


def test_paths_outside_the_root_get_one_message_whether_they_exist_or_not(bundle, root: Path, tmp_path: Path) -> None:
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=root)
    secret = tmp_path / "secret.json"
    secret.write_text('{"api_key": "s3cr3t"}')
    (root / "link.json").symlink_to(secret)
    uris = [secret.as_uri(), (tmp_path / "missing.json").as_uri(), "file:///etc/passwd",
            (root / "link.json").as_uri(), root.as_uri() + "/../secret.json", "file://localhost/etc/hostname"]
    messages = {refused(served, uri)["message"].replace(str(root.resolve()), "ROOT") for uri in uris}
    assert len(messages) == 1, messages
    assert "s3cr3t" not in messages.pop()


def test_a_refused_file_under_the_root_leaks_none_of_its_keys(bundle, root: Path) -> None:
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=root)
    (root / "other.json").write_text('{"collections": [], "documents": [], "private_token_field": 1}')
    error = refused(served, (root / "other.json").as_uri())
    assert "private_token_field" not in error["message"] and error["data"]["reason"] == "invalid"


def test_devices_fifos_and_directories_are_refused_without_reading(bundle, root: Path) -> None:
    os.mkfifo(root / "pipe")
    (root / "dir").mkdir()
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=root)
    for name in ("pipe", "dir"):
        assert "not a regular file" in refused(served, (root / name).as_uri())["message"]
    on_dev = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=Path("/dev"))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert "not a regular file" in refused(on_dev, "file:///dev/zero")["message"]
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024  # KiB: nothing was read


def test_the_size_is_enforced_while_reading_never_from_st_size(root: Path) -> None:
    # /proc files are regular with st_size 0; read past the limit they are refused, whatever they hold.
    with pytest.raises(FileRefused) as raised:
        read_staged("file:///proc/self/maps", Path("/proc"), 16)
    assert raised.value.too_large
    (root / "big.json").write_bytes(b" " * 4096)
    with pytest.raises(FileRefused) as raised:
        read_staged((root / "big.json").as_uri(), root, 4095)
    assert raised.value.too_large and "4095" in str(raised.value)
    assert read_staged((root / "big.json").as_uri(), root, 4096) == b" " * 4096


def test_a_proc_file_under_a_proc_root_is_read_within_the_limit_and_refused_as_a_document(bundle) -> None:
    served = AgentEnvRuntime(EnvironmentRuntime(bundle), "items", data_root=Path("/proc"))
    error = refused(served, "file:///proc/self/status")
    assert error["data"]["reason"] == "invalid"


def test_the_server_refuses_a_data_root_that_is_not_a_directory(tmp_path: Path, capsys) -> None:
    assert agentenv.main([str(tmp_path), "--http", "127.0.0.1:0", "--data-root", str(tmp_path / "none")]) == 2
    assert "--data-root" in capsys.readouterr().err
