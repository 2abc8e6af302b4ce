"""YAML loading that keeps line numbers and refuses duplicate keys.

Every mapping comes back as a ``SpannedDict``: a plain dict that also knows the line of
itself and of each of its keys, so a validation error can point at ``rules/<file>.yaml:LINE``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class RuleFileError(ValueError):
    """A rule file that does not load; ``str()`` is one line naming file, line, rule and key."""

    def __init__(self, file: str, line: int | None, message: str, *, rule_id: str | None = None,
                 key: str | None = None) -> None:
        self.file, self.line, self.rule_id, self.key, self.message = file, line, rule_id, key, message
        where = f"{file}:{line}" if line else file
        parts = [where]
        if rule_id:
            parts.append(f"rule {rule_id}")
        if key:
            parts.append(f"key {key!r}")
        super().__init__(": ".join(parts) + ": " + message)


class SpannedDict(dict):
    """A mapping read from YAML, with the 1-based line of the mapping and of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class SpannedList(list):
    line: int = 0
    item_lines: list[int]


class _Loader(yaml.SafeLoader):
    """SafeLoader with spans and duplicate-key errors."""

    source = "<yaml>"


# libyaml parses the rule tables several times faster (a build loads them all); its syntax errors
# word things differently, so a file it refuses is parsed again by the pure-Python loader above,
# whose message is the one a user sees.
_FastLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(yaml.CSafeLoader):  # type: ignore[no-redef]
        source = "<yaml>"


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> SpannedDict:
    loader.flatten_mapping(node)
    result = SpannedDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise RuleFileError(loader.source, key_node.start_mark.line + 1, f"keys must be strings, not {key!r}")
        if key in result:
            rule_id = next((v.value for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "id"
                            and isinstance(v, yaml.ScalarNode)), None)  # name the rule, as every error does
            raise RuleFileError(loader.source, key_node.start_mark.line + 1,
                                f"duplicate key (first at line {result.key_lines[key]})", rule_id=rule_id, key=key)
        result.key_lines[key] = key_node.start_mark.line + 1
        result[key] = loader.construct_object(value_node, deep=True)
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> SpannedList:
    result = SpannedList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


for _loader_class in (_Loader, _FastLoader):
    if _loader_class is not None:
        _loader_class.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
        _loader_class.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml(path: Path, display: str | None = None) -> Any:
    """Parse one YAML file; syntax errors and duplicate keys become ``RuleFileError``."""
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(name, None, f"cannot read: {exc}") from exc
    return load_yaml_text(text, name)


def load_yaml_text(text: str, name: str) -> Any:
    if _FastLoader is not None:
        fast = _FastLoader(text)
        fast.source = name
        try:
            return fast.get_single_data()
        except yaml.YAMLError:
            pass  # worded by the pure-Python parser below
        finally:
            fast.dispose()
    loader = _Loader(text)
    loader.source = name
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise RuleFileError(name, line, f"YAML syntax: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise RuleFileError(name, None, f"YAML syntax: {exc}") from exc
    finally:
        loader.dispose()
