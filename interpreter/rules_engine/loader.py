"""Load and validate the rule tables of a directory into a ``RuleSet``.

Everything is checked at load, never at evaluation: schema (unknown keys refused), rule id
shape and uniqueness, predicate names and contexts (with "did you mean"), param types,
serving op names, required yields. Errors are ``RuleFileError``: one line naming
``rules/<file>.yaml:LINE``, the rule id and the key.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.resources
import pickle
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .cache import cached
from .models import FixtureFile, PredicateCall, RuleModel, SettingsModel, TableModel
from .registry import CONTEXTS, PREDICATES, PredicateSpec, known_serving_ops, load_plugins
from .yaml_source import RuleFileError, SpannedDict, SpannedList, load_yaml


@dataclass(frozen=True)
class CompiledCall:
    spec: PredicateSpec
    params: BaseModel
    negated: bool = False


@dataclass(frozen=True)
class CompiledRule:
    id: str
    summary: str
    table: str
    calls: tuple[CompiledCall, ...]
    unless: tuple[CompiledCall, ...]
    yields: dict[str, Any]
    serve: str | None
    file: str
    line: int
    model: RuleModel

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class CompiledTable:
    name: str
    summary: str
    context: str
    evaluation: str
    default: dict[str, Any] | None
    rules: tuple[CompiledRule, ...]
    file: str
    line: int

    def rule(self, rule_id: str) -> CompiledRule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)


class LazyTables(Mapping[str, CompiledTable]):
    """Compiled tables kept pickled one by one and unpickled at their first use: what the disk
    cache (``cache.py``) holds for a ``RuleSet``. A table names its predicates' functions and
    params models by reference, so unpickling it imports the plugin modules it calls; a build
    imports those of the tables it evaluates, not all of them (about half the tables of a small
    capture are never asked). Names, order and membership are known without unpickling."""

    __slots__ = ("_blobs", "_tables")

    def __init__(self, blobs: dict[str, bytes]) -> None:
        self._blobs = blobs
        self._tables: dict[str, CompiledTable] = {}

    @classmethod
    def of(cls, tables: dict[str, CompiledTable]) -> LazyTables:
        """The tables of a compile, each pickled now (for the cache) and kept as compiled."""
        made = cls({name: pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL) for name, table in tables.items()})
        made._tables.update(tables)
        return made

    def __getitem__(self, name: str) -> CompiledTable:
        table = self._tables.get(name)
        if table is None:
            loaded = pickle.loads(self._blobs[name])  # KeyError: no such table
            table = self._tables.setdefault(name, loaded)  # a concurrent first use keeps one copy
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(self._blobs)

    def __len__(self) -> int:
        return len(self._blobs)

    def __contains__(self, name: object) -> bool:
        return name in self._blobs

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyTables, (self._blobs,))


@dataclass
class RuleSet:
    directory: Path
    tables: Mapping[str, CompiledTable]
    settings: dict[str, dict[str, Any]]
    revision: str
    redirects: dict[str, str] = field(default_factory=dict)
    fixtures: dict[str, tuple[str, FixtureFile]] = field(default_factory=dict)
    rule_tables: dict[str, str] = field(default_factory=dict)
    """Each rule id's table: ``rule`` unpickles that table only."""

    def table(self, name: str) -> CompiledTable:
        try:
            return self.tables[name]
        except KeyError:
            raise KeyError(f"no rule table {name!r} in {self.directory}") from None

    def rule(self, rule_id: str) -> CompiledRule:
        rule_id = self.redirects.get(rule_id, rule_id)
        name = self.rule_tables.get(rule_id)
        if name is not None and name in self.tables:
            for rule in self.tables[name].rules:
                if rule.id == rule_id:
                    return rule
        for table in self.tables.values():
            for rule in table.rules:
                if rule.id == rule_id:
                    return rule
        raise KeyError(rule_id)

    def setting(self, settings: str, key: str) -> Any:
        return self.settings[settings][key]

    def all_rules(self) -> list[CompiledRule]:
        return [rule for table in self.tables.values() for rule in table.rules]


def default_rules_dir() -> Path:
    return Path(str(importlib.resources.files("capenv.rules")))


_LOADED: dict[tuple, RuleSet] = {}


def load_rules(directory: str | Path | None = None, *, with_fixtures: bool = False) -> RuleSet:
    """Load every table and settings file of ``directory`` (default: the packaged ``rules/``).

    A directory whose files are unchanged (names, sizes, modification times) is compiled once
    per process: validation is the slow part and a build needs it once. Across processes the
    compiled tables come from ``cache.py`` while neither they nor the code compiling them change."""
    root = Path(directory) if directory else default_rules_dir()
    try:
        stamp = tuple(sorted((str(p.relative_to(root)), p.stat().st_mtime_ns, p.stat().st_size)
                             for p in root.rglob("*.yaml")))
    except OSError:
        stamp = None
    key = (str(root.resolve()), with_fixtures, stamp)
    if stamp is not None and key in _LOADED:
        return _LOADED[key]
    ruleset = cached(root, with_fixtures, lambda: _load_rules(root, with_fixtures=with_fixtures))
    if with_fixtures:  # the fixtures' contexts are read from the registry (``fixture_run``), as a compile leaves it
        load_plugins()
    # Otherwise the plugins a table calls are imported when it is first used (``LazyTables``).
    if stamp is not None:
        _LOADED[key] = ruleset
    return ruleset


def _load_rules(directory: Path, *, with_fixtures: bool) -> RuleSet:
    load_plugins()
    root = directory
    if not root.is_dir():
        raise RuleFileError(str(root), None, "not a directory of rule tables")
    files = sorted(root.glob("*.yaml"))
    if not files:
        raise RuleFileError(str(root), None, "holds no *.yaml rule tables")
    tables: dict[str, CompiledTable] = {}
    settings: dict[str, dict[str, Any]] = {}
    seen_ids: dict[str, str] = {}
    redirects: dict[str, str] = {}
    digest = hashlib.sha256()
    ops = known_serving_ops()
    for path in files:
        display = _display(root, path)
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        data = load_yaml(path, display)
        if not isinstance(data, dict):
            raise RuleFileError(display, 1, "a rule file is a mapping with `table:` or `settings:`")
        if "settings" in data:
            model = _validate(SettingsModel, data, display)
            settings[model.settings] = dict(model.values)
            continue
        table = _compile_table(data, display, ops)
        if table.name in tables:
            raise RuleFileError(display, table.line, f"table {table.name!r} is also defined in {tables[table.name].file}")
        for rule in table.rules:
            if rule.id in seen_ids:
                raise RuleFileError(display, rule.line, f"duplicate rule id (first in {seen_ids[rule.id]})",
                                    rule_id=rule.id, key="id")
            seen_ids[rule.id] = rule.location
            for old in rule.model.redirect_from:
                redirects[old] = rule.id
        tables[table.name] = table
    for old, new in redirects.items():
        if old in seen_ids:
            raise RuleFileError(seen_ids[new], None, f"redirect_from names {old!r}, a live rule id", rule_id=new)
    ruleset = RuleSet(root, LazyTables.of(tables), settings, "rules-" + digest.hexdigest()[:16], redirects,
                      rule_tables={rule.id: table.name for table in tables.values() for rule in table.rules})
    if with_fixtures:
        ruleset.fixtures = load_fixtures(root, ruleset)
    return ruleset


def load_fixtures(root: Path, ruleset: RuleSet) -> dict[str, tuple[str, FixtureFile]]:
    """Fixture files ``fixtures/<table>.yaml``: named match/no_match cases per rule."""
    found: dict[str, tuple[str, FixtureFile]] = {}
    for path in sorted((root / "fixtures").glob("*.yaml")):
        display = _display(root, path)
        fixture = _validate(FixtureFile, load_yaml(path, display), display)
        if fixture.table not in ruleset.tables:
            raise RuleFileError(display, 1, f"names table {fixture.table!r}, which does not exist", key="table")
        found[fixture.table] = (display, fixture)
    return found


def _display(root: Path, path: Path) -> str:
    return f"{root.name}/{path.relative_to(root)}"


def _compile_table(data: SpannedDict, display: str, ops: set[str]) -> CompiledTable:
    model = _validate(TableModel, data, display)
    if model.context not in CONTEXTS:
        raise RuleFileError(display, data.line_of("context"), _unknown("context", model.context, CONTEXTS),
                            key="context")
    rules = []
    raw_rules = data["rules"]
    for index, rule_model in enumerate(model.rules):
        raw = raw_rules[index]
        rules.append(_compile_rule(rule_model, raw, model, display, ops))
    return CompiledTable(model.table, model.summary, model.context, model.evaluation, model.default,
                         tuple(rules), display, data.line)


def _compile_rule(rule: RuleModel, raw: SpannedDict, table: TableModel, display: str, ops: set[str]) -> CompiledRule:
    def fail(key: str, message: str, line: int | None = None) -> RuleFileError:
        return RuleFileError(display, line or raw.line_of(key), message, rule_id=rule.id, key=key)

    if isinstance(rule.when, str):
        calls_in = [PredicateCall(predicate=rule.when, params=rule.params)]
        call_lines = [raw.line_of("when")]
        params_nodes = [raw.get("params")]
    else:
        if rule.params:
            raise fail("params", "with a list under `when`, give params per predicate call")
        calls_in = rule.when
        call_lines = list(getattr(raw["when"], "item_lines", [raw.line_of("when")] * len(calls_in)))
        params_nodes = [_get(item, "params") for item in raw["when"]]
    calls = tuple(_compile_call(c, table.context, fail, "when", line, params_node=node)
                  for c, line, node in zip(calls_in, call_lines, params_nodes))
    unless_lines = list(getattr(raw.get("unless"), "item_lines", [raw.line_of("unless")] * len(rule.unless)))
    unless_params = [_get(item, "params") for item in raw.get("unless") or []]
    unless = tuple(_compile_call(c, table.context, fail, "unless", line, negated=True, params_node=node)
                   for c, line, node in zip(rule.unless, unless_lines, unless_params))
    missing = [key for key in table.yields_required if key not in rule.yields]
    if missing:
        raise fail("yields", f"missing required yields {missing} (this table requires {table.yields_required})")
    if rule.serve is not None and rule.serve not in ops:
        raise fail("serve", _unknown("serving op", rule.serve, ops))
    return CompiledRule(rule.id, rule.summary, table.table, calls, unless, dict(rule.yields), rule.serve,
                        display, raw.line, rule)


def _get(node: Any, key: str) -> Any:
    return node.get(key) if isinstance(node, dict) else None


def _compile_call(call: PredicateCall, context: str, fail: Any, key: str, line: int,
                  negated: bool = False, params_node: Any = None) -> CompiledCall:
    spec = PREDICATES.get(call.predicate)
    if spec is None:
        raise fail(key, _unknown("predicate", call.predicate, PREDICATES), line)
    if spec.context != context:
        raise fail(key, f"predicate {call.predicate!r} reads context {spec.context!r}, "
                        f"but this table's context is {context!r}", line)
    try:
        params = spec.params_model.model_validate(dict(call.params))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "params"
        if isinstance(params_node, SpannedDict):  # point at the param itself, not at the `when:` line
            line = params_node.line_of(str(first["loc"][0])) if first["loc"] else params_node.line
        raise fail(f"params.{where}", f"{first['msg']} (predicate {call.predicate!r} takes "
                                      f"{_describe_params(spec.params_model)})", line) from None
    return CompiledCall(spec, params, negated)


def _describe_params(model: type[BaseModel]) -> str:
    fields = model.model_fields
    if not fields:
        return "no params"
    return ", ".join(f"{name}: {getattr(f.annotation, '__name__', f.annotation)}" for name, f in fields.items())


def _unknown(kind: str, name: str, known: Any) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {kind} {name!r}{hint}"


def _validate(model: type[BaseModel], data: Any, display: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        line, rule_id, key = _locate(data, first["loc"])
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            message = "unknown key"
            allowed = _allowed_keys(model, first["loc"])
            if allowed:
                message += f"; expected one of: {', '.join(allowed)}"
        elif first["type"] == "missing":
            message = "required key is missing"
        raise RuleFileError(display, line, message, rule_id=rule_id, key=key) from None


def _locate(data: Any, loc: tuple[Any, ...]) -> tuple[int | None, str | None, str | None]:
    """Walk a pydantic error location through the spanned YAML to a line, rule id and key."""
    node, line, rule_id, key = data, getattr(data, "line", None), None, None
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            line = node.line_of(part) if isinstance(node, SpannedDict) else line
            key = part if key is None or not isinstance(node.get("id"), str) else part
            if isinstance(node.get("id"), str):
                rule_id = node["id"]
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            if isinstance(node, SpannedList):
                line = node.item_lines[part]
            node = node[part]
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                rule_id = node["id"]
        else:
            if isinstance(part, str) and not part.startswith("function-"):
                key = part
                if isinstance(node, SpannedDict):
                    line = node.line
            break
    return line, rule_id, key


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    from .models import RuleModel as _Rule

    if "rules" in loc and model is TableModel and len(loc) >= 3:
        return list(_Rule.model_fields)
    return list(model.model_fields) if len(loc) <= 1 else []


def fixture_problems(ruleset: RuleSet) -> list[str]:
    """Rules lacking a ``match_`` or ``no_match_`` case, and cases naming no rule of their table."""
    problems = []
    for table in ruleset.tables.values():
        display, fixture = ruleset.fixtures.get(table.name, (f"fixtures/{table.name}.yaml", None))
        cases = fixture.cases if fixture else {}
        for rule in table.rules:
            names = list(cases.get(rule.id, {}))
            for kind in ("match_", "no_match_"):
                if not any(name.startswith(kind) for name in names):
                    problems.append(f"{rule.location}: rule {rule.id}: no {kind}… case in {display}")
        for rule_id, named in cases.items():
            if rule_id not in {r.id for r in table.rules}:
                problems.append(f"{display}: cases for {rule_id!r}, which is not a rule of table {table.name}")
            for name in named:
                if not name.startswith(("match_", "no_match_")):
                    problems.append(f"{display}: rule {rule_id}: case {name!r} must start with match_ or no_match_")
    return problems
