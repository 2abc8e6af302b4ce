"""Probe files: the format, its validation errors (file, probe, key), and the real probe files."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.serving.compare import ProbeFileError, load_probes, parse_probes

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


@pytest.mark.parametrize("app", ["json-server", "kinto", "prefect"])
def test_the_capture_probe_files_cover_the_write_kinds(app):
    probes = load_probes(CAPTURES / app / "probes.yaml").probes
    assert len(probes) >= 25
    methods = {p.method for p in probes}
    assert {"GET", "POST", "PATCH", "DELETE"} <= methods
    assert any(p.save for p in probes if p.method == "POST"), "a create saves the id it got"
    deleted = [p.path for p in probes if p.method == "DELETE"]
    assert any(p.method == "GET" and p.path in deleted for p in probes), "the deleted is read again"
    if app != "prefect":  # Prefect's PUTs are upserts the capture barely shows
        assert "PUT" in methods


def test_json_server_probes_write_the_profile_document():
    probes = load_probes(CAPTURES / "json-server" / "probes.yaml").probes
    assert {p.method for p in probes if p.path == "/profile"} >= {"GET", "PATCH", "PUT"}
