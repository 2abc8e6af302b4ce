"""Compiled rule tables cached on disk between processes (issue 15): a build from the cache is the
build from the tables, byte for byte; any edit to a table or to the code that compiles them
(a predicate plugin) makes a new key, so a stale entry is never used; a damaged entry is compiled
afresh."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support.capture_runs import build_from, has_plan, items_app
from support.rules_copy import edit_pattern

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.rules_engine import cache, loader


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CAPENV_CACHE_DIR", str(folder))
    monkeypatch.setattr(loader, "_LOADED", {})  # each load below is a new process's
    return folder


def fresh_load(directory: Path | None = None) -> loader.RuleSet:
    loader._LOADED.clear()
    return loader.load_rules(directory)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("rules-*.pickle"))


def bundle_bytes(bundle, folder: Path) -> dict[str, bytes]:
    write_bundle(folder, bundle)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def capture():
    return items_app().call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3, "title": "c"})


def test_a_build_from_cached_tables_is_the_build_from_the_tables(cache_dir, tmp_path, monkeypatch) -> None:
    compiled = fresh_load()
    assert len(entries(cache_dir)) == 1
    calls = []
    monkeypatch.setattr(loader, "_load_rules", lambda *a, **k: calls.append(a))
    from_cache = fresh_load()
    assert calls == []  # nothing compiled: the entry was read
    assert from_cache.revision == compiled.revision
    assert [r.id for r in from_cache.all_rules()] == [r.id for r in compiled.all_rules()]
    monkeypatch.undo()
    monkeypatch.setenv("CAPENV_CACHE_DIR", str(cache_dir))
    cached_build = bundle_bytes(build_from(capture()), tmp_path / "cached")
    monkeypatch.setenv("CAPENV_CACHE_DIR", "")  # off: compiled in this process
    loader._LOADED.clear()
    assert bundle_bytes(build_from(capture()), tmp_path / "compiled") == cached_build


def test_an_edited_table_gets_its_own_entry_and_its_decisions(cache_dir, rules_dir) -> None:
    packaged = fresh_load(rules_dir)
    assert has_plan(build_from(items_app().call("POST", "/items/tally", body={"title": "t1"},
                                                response={"matches": 1}), rules=rules_dir), "POST", "/items/tally")
    edit_pattern(rules_dir / "readonly-ways.yaml", r"(query_words: \[)", r"\1tally, ")
    edited = fresh_load(rules_dir)
    assert edited.revision != packaged.revision and len(entries(cache_dir)) == 2
    loader._LOADED.clear()
    assert not has_plan(build_from(items_app().call("POST", "/items/tally", body={"title": "t1"},
                                                    response={"matches": 1}), rules=rules_dir), "POST", "/items/tally")


def test_the_key_follows_every_table_fixture_and_plugin_source(tmp_path, rules_dir) -> None:
    sources = tmp_path / "interpreter"
    (sources / "predicates").mkdir(parents=True)
    plugin = sources / "predicates" / "words.py"
    plugin.write_text("WORDS = ('a',)\n")
    key = cache.cache_key(rules_dir, True, sources)
    assert cache.cache_key(rules_dir, True, sources) == key
    plugin.write_text("WORDS = ('a', 'b')\n")
    after_plugin = cache.cache_key(rules_dir, True, sources)
    assert after_plugin != key
    fixture = next((rules_dir / "fixtures").glob("*.yaml"))
    fixture.write_text(fixture.read_text() + "\n# edited\n")
    assert cache.cache_key(rules_dir, True, sources) != after_plugin
    assert cache.cache_key(rules_dir, False, sources) == cache.cache_key(rules_dir, False, sources)
    moved = shutil.copytree(rules_dir, tmp_path / "elsewhere")
    assert cache.cache_key(moved, False, sources) != cache.cache_key(rules_dir, False, sources)


def test_a_damaged_entry_is_compiled_afresh_and_replaced(cache_dir) -> None:
    compiled = fresh_load()
    [entry] = entries(cache_dir)
    entry.write_bytes(entry.read_bytes()[:100])
    again = fresh_load()
    assert again.revision == compiled.revision
    assert entry.stat().st_size > 100  # written whole again


def test_an_empty_cache_dir_setting_turns_the_cache_off(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CAPENV_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(loader, "_LOADED", {})
    fresh_load()
    assert not list(tmp_path.rglob("rules-*.pickle"))


def test_cached_tables_are_unpickled_at_their_first_use_and_alike(cache_dir) -> None:
    compiled = fresh_load()
    from_cache = fresh_load()
    tables = from_cache.tables
    assert isinstance(tables, loader.LazyTables)
    assert list(tables) == list(compiled.tables) and len(tables) == len(compiled.tables)
    assert tables._tables == {}  # names, order and membership known, nothing unpickled yet
    name = next(iter(compiled.tables))
    assert name in tables and "no-such-table" not in tables
    table = from_cache.table(name)
    assert list(tables._tables) == [name]  # only the table asked
    assert from_cache.table(name) is table  # unpickled once
    assert [r.id for r in table.rules] == [r.id for r in compiled.table(name).rules]
    assert [c.spec.func for r in table.rules for c in r.calls] == [
        c.spec.func for r in compiled.table(name).rules for c in r.calls]  # the plugins' own functions
    other = list(compiled.tables)[-1]
    rule_id = compiled.table(other).rules[0].id
    assert from_cache.rule(rule_id).location == compiled.rule(rule_id).location
    assert set(tables._tables) == {name, other}  # a rule looked up unpickles its table only
    with pytest.raises(KeyError, match="no rule table"):
        from_cache.table("no-such-table")
    with pytest.raises(KeyError):
        from_cache.rule("no-such-rule")
    old, new = next(iter(compiled.redirects.items()), (None, None))
    if old is not None:
        assert from_cache.rule(old).id == new
