"""User corrections to the inferred manifest (``--overrides FILE``): rename, drop, force a
template; bad files fail with exit 2 naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.cli.main import main
from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.manifest.overrides import Overrides, load_overrides
from capenv.interpreter.rules_engine import RuleFileError, load_rules


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=[{"id": 1}])
            .call("GET", "/posts/1", response={"id": 1})
            .call("GET", "/posts/2", response={"id": 2})
            .call("GET", "/reports/2024", response={})
            .call("POST", "/posts/1/comments", body={"b": 1}, response={"id": 9}, status=201)
            .call("GET", "/nonexistent", status=404, response={}))


def build(ruleset, overrides: Overrides | None = None):
    return build_manifest(parse_har_bytes(capture().bytes(), source="t.har"), ruleset, overrides)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "overrides.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_rename_changes_only_the_name(ruleset):
    before = build(ruleset)
    after = build(ruleset, Overrides.model_validate({"tools": {"get_posts": {"rename": "list_posts"}}}))
    assert [t.name for t in after.tools] == ["list_posts" if t.name == "get_posts" else t.name for t in before.tools]
    renamed = after.tool("list_posts")
    original = before.tool("get_posts")
    assert (renamed.template, renamed.record_ordinals) == (original.template, original.record_ordinals)


def test_drop_removes_the_tool_and_keeps_its_records_unassigned(ruleset):
    before = build(ruleset)
    dropped = before.tool("get_nonexistent")
    after = build(ruleset, Overrides.model_validate({"tools": {"get_nonexistent": {"drop": True}}}))
    assert "get_nonexistent" not in {t.name for t in after.tools}
    assert after.unassigned_ordinals == dropped.record_ordinals
    assert len(after.tools) == len(before.tools) - 1


def test_forced_template_makes_a_one_value_segment_a_parameter(ruleset):
    assert ("GET", "/reports/2024") in {(t.method, t.template) for t in build(ruleset).tools}
    after = build(ruleset, Overrides.model_validate({"templates": ["/reports/{year}"]}))
    tool = after.tool_for("GET", "/reports/2025")[0]
    assert tool.template == "/reports/{year}" and tool.params == ("year",)
    assert tool.record_ordinals == (4,)


def test_forced_template_renames_an_inferred_parameter(ruleset):
    after = build(ruleset, Overrides.model_validate({"templates": ["/posts/{pid}/comments"]}))
    templates = {t.template for t in after.tools}
    assert "/posts/{pid}/comments" in templates and "/posts/{post_id}" in templates
    assert after.tool_for("POST", "/posts/1/comments")[1] == {"pid": "1"}


def test_overrides_file_applies_through_inspect(tmp_path, capsys):
    har = capture().write(tmp_path / "t.har")
    path = write(tmp_path, "templates:\n  - /reports/{year}\ntools:\n  get_posts: {rename: list_posts}\n"
                           "  get_nonexistent: {drop: true}\n")
    assert main(["inspect", str(har), "--json", "--overrides", str(path)]) == 0
    out = capsys.readouterr().out
    assert '"list_posts"' in out and '"/reports/{year}"' in out and "get_nonexistent" not in out


def test_unknown_key_fails_with_exit_2_naming_the_file_and_key(tmp_path, capsys):
    har = capture().write(tmp_path / "t.har")
    path = write(tmp_path, "templates:\n  - /reports/{year}\ntool:\n  get_posts: {rename: x}\n")
    assert main(["inspect", str(har), "--overrides", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert f"{path}:3" in captured.err and "'tool'" in captured.err
    assert "templates" in captured.err and "tools" in captured.err  # the accepted keys


def test_unknown_key_of_a_tool_names_the_dotted_key(tmp_path):
    path = write(tmp_path, "tools:\n  get_posts:\n    rename: list_posts\n    colour: red\n")
    with pytest.raises(RuleFileError) as info:
        load_overrides(path)
    assert str(path) in str(info.value) and "tools.get_posts.colour" in str(info.value)


@pytest.mark.parametrize(("text", "phrase"), [
    ("tools:\n  get_posts: {rename: a, drop: true}\n", "either renamed or dropped"),
    ("templates:\n  - posts/{id}\n", "must start with /"),
    ("tools:\n  get_posts: {rename: 'has space'}\n", "tools.get_posts.rename"),
    ("tools:\n  get_posts: {rename: a}\n  get_posts: {drop: true}\n", "duplicate key"),
])
def test_invalid_overrides_files(tmp_path, text, phrase):
    with pytest.raises(RuleFileError) as info:
        load_overrides(write(tmp_path, text))
    assert str(path_of(tmp_path)) in str(info.value) and phrase in str(info.value)


def path_of(tmp_path: Path) -> Path:
    return tmp_path / "overrides.yaml"


def test_empty_overrides_file_changes_nothing(tmp_path, ruleset):
    overrides = load_overrides(write(tmp_path, ""))
    assert build(ruleset, overrides).model_dump() == build(ruleset).model_dump()


def test_overrides_naming_a_missing_tool_list_the_tools(ruleset, tmp_path, capsys):
    with pytest.raises(UserError) as info:
        build(ruleset, Overrides.model_validate({"tools": {"get_postz": {"drop": True}}}))
    message = str(info.value)
    assert "get_postz" in message
    for tool in build(ruleset).tools:
        assert tool.name in message
    har = capture().write(tmp_path / "t.har")
    path = write(tmp_path, "tools:\n  get_postz: {drop: true}\n")
    assert main(["inspect", str(har), "--overrides", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "get_postz" in err and "get_posts_by_post_id" in err


def test_renaming_onto_another_tool_is_refused(ruleset):
    with pytest.raises(UserError, match="get_posts_by_post_id"):
        build(ruleset, Overrides.model_validate({"tools": {"get_posts": {"rename": "get_posts_by_post_id"}}}))


def test_missing_overrides_file_exits_2(tmp_path, capsys):
    har = capture().write(tmp_path / "t.har")
    assert main(["inspect", str(har), "--overrides", str(tmp_path / "absent.yaml")]) == 2
    err = capsys.readouterr().err
    assert "absent.yaml" in err and err.count("\n") == 1
