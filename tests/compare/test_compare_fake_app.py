"""``capenv compare`` end to end against a tiny fake application on loopback (no real apps)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.cli.main import main
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import DIFFERENT, REFUSED, SAME, compare, parse_probes, render_json, render_text

from fake_notes_app import SEED, NotesApp, serving  # noqa: E402  (tests/compare is on sys.path)
from support.har_builder import HarBuilder

CREATED = "3f2b8d8e-6d0e-4c1e-9a51-0c6c1b3a9d10"

PROBES = """
- {name: all notes, method: GET, path: /notes, expect: same}
- {name: note 1, method: GET, path: /notes/1, expect: same}
- name: create
  method: POST
  path: /notes
  body: {title: probe, done: false}
  save: {note: /id}
  expect: same
- {name: the new note, method: GET, path: "/notes/{note}", expect: same}
- {name: create without save, method: POST, path: /notes, body: {title: auto}, expect: same}
- {name: notes after the creates, method: GET, path: /notes, expect: same}
- {name: patch, method: PATCH, path: "/notes/{note}", body: {title: patched}, expect: different}
- {name: delete, method: DELETE, path: "/notes/{note}", expect: refused}
- {name: the deleted note, method: GET, path: "/notes/{note}", expect: different}
"""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory):
    har = (HarBuilder()
           .call("GET", "/notes", response=SEED)
           .call("GET", "/notes/1", response=SEED[0])
           .call("GET", "/notes/2", response=SEED[1])
           .call("POST", "/notes", body={"title": "third"}, status=201,
                 response={"title": "third", "id": CREATED, "created": "2026-01-01T00:00:00.400000Z"})
           .call("GET", f"/notes/{CREATED}", response={"title": "third", "id": CREATED,
                                                      "created": "2026-01-01T00:00:00.400000Z"})
           .call("PATCH", f"/notes/{CREATED}", body={"done": True},
                 response={"title": "third", "id": CREATED, "created": "2026-01-01T00:00:00.400000Z", "done": True})
           .call("DELETE", f"/notes/{CREATED}", status=204)
           .call("GET", f"/notes/{CREATED}", status=404, response={"message": "no such note"}))
    path = har.write(tmp_path_factory.mktemp("capture") / "notes.har")
    built = build_bundle(path)
    directory = write_bundle(tmp_path_factory.mktemp("bundle") / "notes", built)
    return built, directory


def test_two_applications_compared_call_by_call(bundle):
    with serving(NotesApp()) as live, serving(NotesApp(quirky=True)) as model:
        results = compare(bundle[0], parse_probes(PROBES), live, model)
    verdicts = [r.verdict for r in results]
    assert verdicts == [SAME, SAME, SAME, SAME, SAME, SAME, DIFFERENT, REFUSED, DIFFERENT]
    assert all(r.expectation_met for r in results)
    create, read_back = results[2], results[3]
    # each side got its own id, and each later call used its own side's id
    live_id, model_id = (json.loads(create.answers[side].body)["id"] for side in ("live", "model"))
    assert live_id != model_id
    assert read_back.requests["live"].path == f"/notes/{live_id}"
    assert read_back.requests["model"].path == f"/notes/{model_id}"
    patch = results[6]
    assert [(d.pointer, d.live, d.model) for d in patch.differences] == [("/title", "patched", "PATCHED")]
    refused = results[7]
    assert refused.judgement.note == f"capenv refused: DELETE /notes/{model_id} is not served"
    assert results[8].diverged_by == [7, 8]  # the differing patch and the refused delete left the states apart
    assert [d.pointer for d in results[8].differences][:1] == ["status"]


def test_text_report_ends_with_the_summary_line(bundle):
    with serving(NotesApp()) as live, serving(NotesApp(quirky=True)) as model:
        results = compare(bundle[0], parse_probes(PROBES), live, model)
        text = render_text(results, live, model)
    lines = text.splitlines()
    assert lines[-1] == "9 calls, 6 same, 2 different, 1 refused"
    assert any(line.split()[:2] == ["7", "different"] for line in lines)
    assert '      /title: live "patched" | model "PATCHED"' in lines
    assert "      after diverging write(s) #7, #8" in lines


def test_json_report_has_calls_and_summary(bundle):
    with serving(NotesApp()) as live, serving(NotesApp(quirky=True)) as model:
        document = json.loads(render_json(compare(bundle[0], parse_probes(PROBES), live, model), live, model))
    assert document["summary"] == {"calls": 9, "same": 6, "different": 2, "refused": 1, "expectations_unmet": []}
    patch = document["calls"][6]
    assert patch["differences"] == [{"pointer": "/title", "live": "patched", "model": "PATCHED"}]
    assert patch["status"] == {"live": 200, "model": 200} and patch["tool"] == "patch_notes_by_note_id"
    assert document["calls"][3]["path"] != document["calls"][3]["model_path"]
    deleted = {d["pointer"]: d for d in document["calls"][8]["differences"]}
    assert deleted["status"] == {"pointer": "status", "live": 404, "model": 200}
    assert deleted["/message"] == {"pointer": "/message", "live": "no such note"}  # an absent side has no key
    assert document["calls"][8]["diverged_by"] == [7, 8]


def test_the_in_process_model_answers_the_seed_reads(bundle):
    probes = parse_probes("- {method: GET, path: /notes}\n- {method: GET, path: /notes/2}\n"
                          "- {method: GET, path: /notes/1}")
    with serving(NotesApp()) as live:
        results = compare(bundle[0], probes, live)
    assert [r.verdict for r in results] == [SAME, SAME, SAME]
    assert all(r.tool.served for r in results)


def _write_probes(tmp_path: Path, text: str = PROBES) -> Path:
    path = tmp_path / "probes.yaml"
    path.write_text(text)
    return path


def test_cli_json(bundle, tmp_path, capsys):
    with serving(NotesApp()) as live, serving(NotesApp(quirky=True)) as model:
        code = main(["compare", str(bundle[1]), "--live", live, "--model", model,
                     "--probes", str(_write_probes(tmp_path)), "--json"])
    assert code == 0  # a report: differences are not a failure
    document = json.loads(capsys.readouterr().out)
    assert set(document) >= {"calls", "summary"} and document["summary"]["different"] == 2


def test_cli_text_in_process(bundle, tmp_path, capsys):
    with serving(NotesApp()) as live:
        code = main(["compare", str(bundle[1]), "--live", live,
                     "--probes", str(_write_probes(tmp_path, "- {method: GET, path: /notes/1}\n"))])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 calls, 1 same, 0 different, 0 refused"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("args, message", [
    (["--live", "http://127.0.0.1:1", "--probes", "missing.yaml"], "missing.yaml: cannot read the probe file"),
    (["--live", "ftp://x", "--probes", "{probes}"], "live: 'ftp://x' is not an http(s) URL"),
    (["--live", "http://127.0.0.1:{port}", "--probes", "{probes}"], "cannot reach live http://127.0.0.1:"),
    (["--live", "http://127.0.0.1:1", "--probes", "{bad}"], "probe 1: bogus: unknown key"),
])
def test_cli_bad_input_exits_2_with_one_line(bundle, tmp_path, capsys, args, message):
    probes = _write_probes(tmp_path, "- {method: GET, path: /notes}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("- {method: GET, path: /notes, bogus: 1}\n")
    args = [a.format(probes=probes, bad=bad, port=_closed_port()) for a in args]
    code = main(["compare", str(bundle[1]), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cli_a_directory_that_is_not_a_bundle_exits_2(tmp_path, capsys):
    code = main(["compare", str(tmp_path), "--live", "http://127.0.0.1:1",
                 "--probes", str(_write_probes(tmp_path, "- {method: GET, path: /}\n"))])
    assert code == 2 and "not a bundle" in capsys.readouterr().err
