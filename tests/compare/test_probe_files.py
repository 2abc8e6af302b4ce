"""Probe files: the format, its validation errors (file, probe, key), and the real probe files."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from support.served import built_capture

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.evidence.har import load_evidence
from capenv.serving.compare import ProbeFileError, ToolIndex, load_probes, parse_probes

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


def test_a_list_of_probes_with_every_key():
    probes = parse_probes("""
- name: create
  method: post
  path: /posts
  query: {a: 1, b: "x y"}
  headers: {Content-Type: application/merge-patch+json}
  body: {title: T, when: 2024-01-01}
  save: {post: /id}
  affects: [/comments]
  expect: same
- {method: GET, path: "/posts/{post}", query: [[tag, a], [tag, b]]}
""").probes
    first, second = probes
    assert first.method == "POST" and first.query == (("a", "1"), ("b", "x y"))
    assert first.headers == {"content-type": "application/merge-patch+json"}
    assert first.body == {"title": "T", "when": "2024-01-01"}  # YAML dates stay JSON strings
    assert first.save == {"post": "/id"} and first.affects == ("/comments",) and first.expect == "same"
    assert second.query == (("tag", "a"), ("tag", "b")) and not second.has_body
    assert second.label() == "GET /posts/{post}"


def test_the_mapping_form_carries_headers_for_every_probe():
    probe_file = parse_probes("headers: {Authorization: Basic abc}\nprobes:\n  - {method: GET, path: /}\n")
    assert probe_file.headers == {"authorization": "Basic abc"} and len(probe_file.probes) == 1


def test_body_null_is_sent_and_no_body_is_not():
    with_null, without = parse_probes("- {method: POST, path: /a, body: null}\n- {method: POST, path: /a}\n").probes
    assert with_null.has_body and with_null.body is None and with_null.sends_body
    assert not without.has_body and not without.sends_body


@pytest.mark.parametrize("text, message", [
    ("- {method: GET, path: /a, bogus: 1}", "probes.yaml: probe 1: bogus: unknown key"),
    ("- {method: GET, path: /a}\n- {name: two, method: FETCH, path: /a}",
     "probe 2 (two): method: 'FETCH' is not one of"),
    ("- {method: GET, path: 'a/b'}", "probe 1: path: a path starting with /"),
    ("- {method: GET, path: '/a?b=1'}", "put the query under `query`"),
    ("- {method: GET, path: /a, query: [[a]]}", "probe 1: query: ['a'] is not a [name, value] pair"),
    ("- {method: POST, path: /a, body: {1: x}}", "probe 1: body: /: member name 1 is not a string"),
    ("- {method: POST, path: /a, body: {}, raw_body: x}", "body and raw_body: give one of them"),
    ("- {method: GET, path: /a, save: {post: id}}", "probe 1: save: post: 'id' is not a JSON pointer"),
    ("- {method: GET, path: /a, unordered: [components]}", "probe 1: unordered: 'components' is not a JSON pointer"),
    ("- {method: GET, path: /a, expect: maybe}", "probe 1: expect: Input should be 'same', 'different' or 'refused'"),
    ("- {method: GET, path: '/a/{post}'}", "probe 1: path: {post} is not saved by an earlier probe (saved: none yet)"),
    ("- {method: GET, path: /a, save: {p: /id}}\n- {method: GET, path: /b, body: {x: 'a {q}'}}",
     "probe 2: body/x: {q} is not saved by an earlier probe (saved: p)"),
    ("- {method: GET, path: '/a/{'}", "probe 1: path: stray '{' at offset 3"),
    ("[]", "probes: expected a non-empty list"),
    ("just text", "expected a list of probes"),
    ("- {method: GET, path: /a", "not YAML"),
])
def test_errors_name_the_file_the_probe_and_the_key(text, message):
    with pytest.raises(ProbeFileError) as caught:
        parse_probes(text, "probes.yaml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("probes.yaml: ")


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ProbeFileError, match=r"nope.yaml: cannot read the probe file"):
        load_probes(tmp_path / "nope.yaml")


PROBED = sorted(p.parent.name for p in CAPTURES.glob("*/capture.har"))
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def recorded_writes(app: str) -> list:
    """The capture's successful calls with a write method (read-only POSTs included)."""
    evidence = load_evidence(CAPTURES / app / "capture.har")
    return [r for r in evidence.records if r.method in WRITE_METHODS and 200 <= r.status < 300]


def form_fields(probe) -> dict[str, str]:
    """The fields of a form-encoded raw body (an action API's ``action=delete&title=...``)."""
    if probe.raw_body is None or "=" not in probe.raw_body:
        return {}
    return dict(parse_qsl(probe.raw_body))


def is_delete(probe) -> bool:
    """A DELETE, or a POST whose path ends in a delete action (Datasette's ``/-/delete``) or whose
    form body names one (MediaWiki's ``action=delete``)."""
    return probe.method == "DELETE" or (probe.method == "POST" and (
        probe.path.rstrip("/").endswith("/delete") or form_fields(probe).get("action") == "delete"))


def named_ids(probe) -> set[str]:
    """What a delete names its entity by: path segments with a digit or a saved {name}, and the
    scalar values of its body (MLflow deletes name the entity in the body)."""
    ids = {s for s in probe.path.split("/") if s != "-" and (any(c.isdigit() for c in s) or "{" in s)}
    if isinstance(probe.body, dict):
        ids |= {str(v) for v in probe.body.values() if isinstance(v, (str, int)) and not isinstance(v, bool)}
    # a form's values, and a title's spaces as the path spells them (MediaWiki's Travel_policy)
    values = [v for k, v in form_fields(probe).items() if k not in ("action", "token", "format", "formatversion")]
    ids |= {spelled for v in values for spelled in (v, v.replace(" ", "_"))}
    return ids


def mentions(probe, ids: set[str]) -> bool:
    segments = {s.split(".")[0] if "." in s and "{" not in s else s for s in probe.path.split("/")}
    values = {value for _, value in probe.query}
    return bool(ids & (segments | values | set(probe.path.split("/"))))


@pytest.mark.parametrize("app", PROBED)
def test_every_capture_has_a_probe_file_of_20_calls_a_user_would_make_after_the_session(app):
    probes = load_probes(CAPTURES / app / "probes.yaml").probes
    assert len(probes) >= 20
    writes = recorded_writes(app)
    written = {r.method for r in writes}
    assert written <= {p.method for p in probes}, "every method the capture writes with is probed"
    if any(r.method == "POST" and r.response.text for r in writes):  # Syncthing's creates answer no body
        assert any(p.save for p in probes if p.method == "POST"), "a create saves the id it got"
    deletes = [i for i, p in enumerate(probes) if is_delete(p)]
    assert deletes, "a delete is probed"
    assert any(p.method == "GET" and mentions(p, named_ids(probes[i])) for i in deletes for p in probes[i + 1:]), \
        "the deleted is read again"


@pytest.mark.parametrize("app", PROBED)
def test_probe_writes_are_not_replays_of_the_recorded_session(app):
    """A write probe sending exactly what a recorded call sent (same method, path, query and
    body) would only measure replay; the probes make new calls. Read-only POSTs (a filter, a
    count) are reads: asking again after the probes' writes is what a user does."""
    recorded = {(r.method, r.path, r.query, dumps(r.request.json_value) if r.request.is_json else None)
                for r in recorded_writes(app)}
    tools = ToolIndex(built_capture(app))
    probe_file = load_probes(CAPTURES / app / "probes.yaml")
    writes = [p for p in probe_file.probes
              if p.method in WRITE_METHODS and p.has_body and tools.tool(p.method, p.path).writes]
    replays = [p.label() for p in writes
               if (p.method, p.path, p.query, dumps(p.body)) in recorded]
    assert len(replays) <= len(writes) // 4, f"{app}: probes replaying recorded writes: {replays}"


def test_json_server_probes_write_the_profile_document():
    probes = load_probes(CAPTURES / "json-server" / "probes.yaml").probes
    assert {p.method for p in probes if p.path == "/profile"} >= {"GET", "PATCH", "PUT"}
