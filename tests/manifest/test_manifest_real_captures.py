"""The manifest of the real captures (acceptance: DESIGN.md §4 on captures/).

The expected templates come from the captures' READMEs; the methods and ordinals are checked
against the records themselves, never against a stored copy of the output.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.rules_engine import load_rules

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
APPS = ["json-server", "kinto", "prefect"]
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
READS = {"GET", "HEAD", "OPTIONS"}


def _capenv() -> list[str]:
    script = Path(sys.executable).with_name("capenv")
    return [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]


@lru_cache(maxsize=None)
def inspect_json(app: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "CAPENV_DEBUG"}
    result = subprocess.run(_capenv() + ["inspect", str(CAPTURES / app / "capture.har"), "--json"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@lru_cache(maxsize=None)
def evidence(app: str, name: str = "capture.har"):
    return load_evidence(CAPTURES / app / name)


def shape(template: str) -> str:
    """``/posts/{post_id}`` -> ``/posts/{}``: the template with parameter names left out."""
    return re.sub(r"\{[^/{}]*\}", "{}", template)


def fits(template: str, path: str) -> bool:
    """Does a raw request path fit a template (a parameter takes one non-empty segment)?"""
    want, have = template.split("/"), path.split("/")
    if len(want) != len(have):
        return False
    return all(h != "" if re.fullmatch(r"\{[^/{}]*\}", w) else w == h for w, h in zip(want, have))


def literal_count(template: str) -> int:
    return sum(1 for part in template.split("/")[1:] if not re.fullmatch(r"\{[^/{}]*\}", part))


def by_ordinal(app: str) -> dict:
    return {r.ordinal: r for r in evidence(app).records}


def expected_methods(app: str, family_shape: str) -> set[str]:
    """Methods of the primary records that fit a template shape, less those a more literal
    template of the same capture answers (a literal wins over a parameter)."""
    tools = inspect_json(app)["tools"]
    methods = set()
    for record in evidence(app).primary_records:
        if not fits(family_shape, record.path):
            continue
        rivals = [t for t in tools if t["method"] == record.method and fits(t["template"], record.path)
                  and literal_count(t["template"]) > literal_count(family_shape)]
        if not rivals:
            methods.add(record.method)
    return methods


def tools_of_shape(app: str, family_shape: str) -> list[dict]:
    return [t for t in inspect_json(app)["tools"] if shape(t["template"]) == family_shape]


# --- the acceptance families ---------------------------------------------------------------

JSON_SERVER = ["/posts", "/posts/{}", "/comments", "/comments/{}", "/users", "/users/{}", "/profile",
               "/posts/{}/comments"]
KINTO = ["/v1/buckets", "/v1/buckets/{}", "/v1/buckets/{}/collections", "/v1/buckets/{}/collections/{}",
         "/v1/buckets/{}/collections/{}/records", "/v1/buckets/{}/collections/{}/records/{}"]
PREFECT = ["/api/flows/{}", "/api/flows/filter", "/api/flows/", "/api/flows/count", "/api/flows/name/{}"]


@pytest.mark.parametrize(("app", "family_shape"), [("json-server", s) for s in JSON_SERVER]
                         + [("kinto", s) for s in KINTO] + [("prefect", s) for s in PREFECT])
def test_family_has_a_tool_per_recorded_method(app, family_shape):
    tools = tools_of_shape(app, family_shape)
    assert tools, f"no tool for {family_shape} in {app}"
    methods = [t["method"] for t in tools]
    assert len(methods) == len(set(methods)), f"two tools for one method of {family_shape}: {methods}"
    assert set(methods) == expected_methods(app, family_shape)
    assert len({t["template"] for t in tools}) == 1, "one template (same parameter names) per shape"


def test_json_server_parameters_are_named_after_the_collection():
    templates = {t["template"] for t in inspect_json("json-server")["tools"]}
    assert {"/posts/{post_id}", "/comments/{comment_id}", "/users/{user_id}",
            "/posts/{post_id}/comments"} <= templates
    by_template = {(t["method"], t["template"]): t for t in inspect_json("json-server")["tools"]}
    assert by_template[("GET", "/posts/{post_id}")]["params"] == ["post_id"]
    assert by_template[("GET", "/posts")]["name"] == "get_posts"
    assert by_template[("GET", "/posts/{post_id}")]["name"] == "get_posts_by_post_id"


def test_json_server_profile_is_a_document_with_its_writes():
    methods = {t["method"] for t in tools_of_shape("json-server", "/profile")}
    assert {"GET", "PATCH", "PUT"} <= methods


def test_kinto_record_family_names_each_level():
    (tool,) = [t for t in tools_of_shape("kinto", "/v1/buckets/{}/collections/{}/records/{}") if t["method"] == "GET"]
    assert tool["params"] == ["bucket_id", "collection_id", "record_id"]
    assert tool["template"] == "/v1/buckets/{bucket_id}/collections/{collection_id}/records/{record_id}"


def test_kinto_bad_record_id_stays_literal():
    """``bad%20id!`` is not identifier-shaped and appears once: it is not merged into {record_id}."""
    records = [r for r in evidence("kinto").records if r.path.endswith("/records/bad%20id!")]
    assert records
    owners = [t for t in inspect_json("kinto")["tools"]
              if any(r.ordinal in t["record_ordinals"] for r in records)]
    assert owners and all(t["template"].endswith("/records/bad%20id!") for t in owners)


def test_prefect_filter_is_a_literal_tool_beside_the_flow_id():
    tools = inspect_json("prefect")["tools"]
    (filter_tool,) = [t for t in tools if t["template"] == "/api/flows/filter"]
    assert filter_tool["method"] == "POST" and filter_tool["params"] == []
    recorded = [r.ordinal for r in evidence("prefect").primary_records
                if r.method == "POST" and r.path == "/api/flows/filter"]
    assert filter_tool["record_ordinals"] == recorded
    flow_id = [t for t in tools if t["template"] == "/api/flows/{flow_id}"]
    assert {t["method"] for t in flow_id} == {"GET", "PATCH", "DELETE"}
    for tool in flow_id:  # no word (filter, count, name…) was taken for a flow id
        for ordinal in tool["record_ordinals"]:
            assert by_ordinal("prefect")[ordinal].path.split("/")[-1] not in {"filter", "count", "paginate",
                                                                              "bulk_delete", ""}


# --- invariants over every capture -------------------------------------------------------

@pytest.mark.parametrize("app", APPS)
def test_inspect_json_invariants(app):
    document = inspect_json(app)
    tools = document["tools"]
    records = by_ordinal(app)
    primary = [r.ordinal for r in evidence(app).primary_records]
    assert document["primary_origin"] == evidence(app).primary_origin
    assert document["records"] == len(records)
    assert document["evidence_id"] == evidence(app).evidence_id
    names = [t["name"] for t in tools]
    assert len(names) == len(set(names))
    assert all(TOOL_NAME.fullmatch(n) for n in names), [n for n in names if not TOOL_NAME.fullmatch(n)]
    held = sorted(o for t in tools for o in t["record_ordinals"])
    assert held == sorted(primary), "every primary record belongs to exactly one tool"
    for tool in tools:
        assert tool["changes_state"] == (tool["method"] not in READS)
        assert tool["records"] == len(tool["record_ordinals"]) > 0
        assert tool["record_ordinals"] == sorted(tool["record_ordinals"])
        assert tool["params"] == re.findall(r"\{([^/{}]+)\}", tool["template"])
        assert len(set(tool["params"])) == len(tool["params"])
        for ordinal in tool["record_ordinals"]:
            record = records[ordinal]
            assert record.method == tool["method"], (tool["name"], ordinal)
            assert fits(tool["template"], record.path), (tool["template"], record.path)
            for name, _ in record.query:
                assert name in tool["query_names"]
    keys = [(t["method"], t["template"]) for t in tools]
    assert len(keys) == len(set(keys)), "one tool per method and template"


@pytest.mark.parametrize("app", APPS)
def test_large_capture_invariants(app):
    """The same invariants on the large captures (thousands of entries), in-process."""
    ev = evidence(app, "large.har.gz")
    manifest = build_manifest(ev, load_rules())
    names = [t.name for t in manifest.tools]
    assert len(names) == len(set(names)) and all(TOOL_NAME.fullmatch(n) for n in names)
    records = {r.ordinal: r for r in ev.records}
    held = sorted(o for t in manifest.tools for o in t.record_ordinals)
    assert held == sorted(r.ordinal for r in ev.primary_records)
    for tool in manifest.tools:
        assert tool.changes_state == (tool.method not in READS)
        for ordinal in tool.record_ordinals:
            assert records[ordinal].method == tool.method
            assert fits(tool.template, records[ordinal].path)
        assert manifest.tool_for(tool.method, records[tool.record_ordinals[0]].path)[0].template == tool.template


@pytest.mark.parametrize("app", APPS)
def test_manifest_is_deterministic(app):
    first = build_manifest(evidence(app), load_rules())
    second = build_manifest(load_evidence(CAPTURES / app / "capture.har"), load_rules())
    assert first.model_dump() == second.model_dump()
    assert [t["name"] for t in inspect_json(app)["tools"]] == [t.name for t in first.tools]
