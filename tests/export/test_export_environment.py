"""``capenv export BUNDLE|CAPTURE -o DIR`` (DESIGN.md §7 "Export", §10; issue 7 item 4): a
self-contained bundle directory with a README that counts the tools the catalog lists
(served write tools included), names the writes not served with their reasons, and says how
to serve, grade and reset; ``capenv serve DIR`` runs it with no capture at hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from mcp import Client

from readme_sections import readme_tools
from support.served import CALL_TIMEOUT_SECONDS, built_capture, capenv, capture_names, capture_path, stdio_parameters

from capenv.interpreter.bundle.io import FILES, read_bundle, write_bundle
from capenv.serving.export.directory import DOCKERFILE, README, export_environment
from capenv.serving.runtime import EnvironmentRuntime


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """``built(name)``: (bundle, bundle directory) of a capture, built once."""
    cache = {}

    def get(name: str):
        if name not in cache:
            directory = tmp_path_factory.mktemp(f"export-source-{name}")
            bundle = built_capture(name)
            write_bundle(directory, bundle)
            cache[name] = (bundle, directory)
        return cache[name]

    return get


def catalog_names(directory: Path) -> tuple[list[str], list[str]]:
    """(read tools, write tools) as a runtime over the directory lists them."""
    runtime = EnvironmentRuntime(read_bundle(directory))
    try:
        entries = list(runtime.catalog.entries.values())
        return [e.name for e in entries if e.handler == "read"], [e.name for e in entries if e.handler == "write"]
    finally:
        runtime.close()


def listed_over_stdio(directory: Path) -> list[str]:
    async def main() -> list[str]:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(stdio_parameters(directory)) as client:
                return [tool.name for tool in (await client.list_tools()).tools]

    return anyio.run(main)


def test_an_export_of_a_capture_serves_exactly_its_catalog_with_no_capture_at_hand(tmp_path: Path) -> None:
    capture = tmp_path / "json-server.har"
    shutil.copyfile(capture_path("json-server"), capture)
    out = tmp_path / "env"
    done = capenv("export", str(capture), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith(f"exported {out}: ")
    assert sorted(p.name for p in out.iterdir()) == sorted([*FILES, README, DOCKERFILE])
    capture.unlink()  # serving the export needs no capture

    reads, writes = catalog_names(out)
    assert writes, "json-server serves write tools"
    assert listed_over_stdio(out) == reads + writes

    tools = readme_tools((out / README).read_text())
    assert (tools.total, tools.reads, tools.writes) == (len(reads) + len(writes), len(reads), len(writes))


@pytest.mark.parametrize("name", capture_names())
def test_the_readme_counts_and_lists_what_the_catalog_lists(name: str, built, tmp_path: Path) -> None:
    bundle, _ = built(name)
    summary = export_environment(bundle, tmp_path / "env")
    text = (tmp_path / "env" / README).read_text()
    tools = readme_tools(text)
    reads, writes = catalog_names(tmp_path / "env")
    runtime = EnvironmentRuntime(bundle)
    report = runtime.catalog_report()
    assert tools.total == report["tools"] == len(reads) + len(writes) == summary.tools
    assert tools.reads_from_state == report["from_state"] - len(writes)
    assert tools.sections["Read tools"] == (len(reads), reads)
    assert tools.sections["Write tools"] == (len(writes), writes)
    unserved = [p.tool for p in bundle.view.writes if not p.served]
    assert tools.sections["Writes not served"] == (len(unserved), unserved)
    for plan in bundle.view.writes:
        if not plan.served:
            line = next(line for line in text.splitlines() if line.startswith(f"- `{plan.tool}` "))
            assert f"): {plan.reason}" in line, line
    info = bundle.info
    for needed in (info.source, info.evidence_id, info.rules_revision, "--stdio", "--http 127.0.0.1:8765",
                   "capenv data get --url", "capenv data reset --url", '"collections"', '"documents"',
                   "python -m capenv.serving.transport.agentenv"):
        assert needed in text, needed
    assert summary.checked_with in reads  # the export's own check calls a read tool


def test_an_export_of_a_bundle_hands_over_the_same_bundle(built, tmp_path: Path) -> None:
    _, source = built("json-server")
    out = tmp_path / "env"
    done = capenv("export", str(source), "-o", str(out))
    assert done.returncode == 0, done.stderr
    for name in FILES:
        assert (out / name).read_bytes() == (source / name).read_bytes(), name


def test_an_earlier_export_is_replaced(built, tmp_path: Path) -> None:
    _, source = built("kinto")
    out = tmp_path / "env"
    assert capenv("export", str(source), "-o", str(out)).returncode == 0
    (out / README).write_text("stale")
    again = capenv("export", str(source), "-o", str(out))
    assert again.returncode == 0, again.stderr
    assert (out / README).read_text().startswith("# capenv environment: ")


@pytest.mark.parametrize("occupant", ["file", "directory"])
def test_a_non_empty_directory_that_is_not_a_bundle_is_refused(occupant: str, built, tmp_path: Path) -> None:
    _, source = built("json-server")
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep me") if occupant == "file" else (out / "sub").mkdir()
    before = sorted(p.name for p in out.iterdir())
    done = capenv("export", str(source), "-o", str(out))
    assert done.returncode == 2
    message = done.stderr.decode().strip()
    assert len(message.splitlines()) == 1 and str(out) in message and "not a bundle" in message
    assert sorted(p.name for p in out.iterdir()) == before


def test_a_file_is_refused_before_a_capture_is_built(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    done = capenv("export", str(capture_path("json-server")), "-o", str(target))
    assert done.returncode == 2 and len(done.stderr.decode().strip().splitlines()) == 1
    assert target.read_text() == "x"


def test_a_missing_source_is_bad_input(tmp_path: Path) -> None:
    done = capenv("export", str(tmp_path / "nothing.har"), "-o", str(tmp_path / "env"))
    assert done.returncode == 2 and "no such file" in done.stderr.decode()
    assert not (tmp_path / "env").exists()


def test_an_environment_whose_state_is_unavailable_lists_no_write_tool(built, tmp_path: Path) -> None:
    bundle, _ = built("json-server")
    unavailable = bundle.model_copy(update={"view": bundle.view.model_copy(update={"state_available": False})})
    summary = export_environment(unavailable, tmp_path / "env")
    text = (tmp_path / "env" / README).read_text()
    tools = readme_tools(text)
    assert summary.writes_served == tools.writes == 0 and tools.reads_from_state == 0
    assert tools.sections["Write tools"] == (0, [])
    assert "The state is unavailable" in text
    assert tools.sections["Writes not served"][0] == len(bundle.view.writes)
    assert "`post_posts` (POST /posts, create of \"posts\"): state unavailable" in text
    assert catalog_names(tmp_path / "env")[1] == []
