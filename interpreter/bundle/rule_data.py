"""Rule data the serving side reads: a rule's parameters, or a setting, from the packaged rule files.

A heuristic is written once, in ``rules/*.yaml``; where serving needs the same data (compare's
clock formats take the relative-time words of ``list-projection.relative-time``) it reads the
table's YAML here, as plain data: no predicate runs and the evaluator is never imported.
"""

from __future__ import annotations

import functools
import importlib.resources
from typing import Any

import yaml


@functools.cache
def rule_params(table: str, rule_id: str) -> dict[str, Any]:
    """The ``params`` of rule ``rule_id`` in ``rules/<table>.yaml`` (a KeyError names a rule the
    table does not hold: the data serving relies on has moved)."""
    text = importlib.resources.files("capenv.rules").joinpath(f"{table}.yaml").read_text(encoding="utf-8")
    document = yaml.safe_load(text)
    for rule in document.get("rules", []):
        if rule.get("id") == rule_id:
            return dict(rule.get("params") or {})
    raise KeyError(f"rules/{table}.yaml holds no rule {rule_id}")


@functools.cache
def setting_value(settings_file: str, key: str) -> Any:
    """Value ``key`` of the settings file ``rules/<settings_file>.yaml`` (its ``values``), as plain data."""
    text = importlib.resources.files("capenv.rules").joinpath(f"{settings_file}.yaml").read_text(encoding="utf-8")
    values = yaml.safe_load(text).get("values") or {}
    if key not in values:
        raise KeyError(f"rules/{settings_file}.yaml holds no setting {key}")
    return values[key]
