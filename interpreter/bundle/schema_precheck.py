"""A published input schema compiled to plain Python, run before ``jsonschema`` on every call
(serving's argument check, and the write checks of ``WritePlan.unproven_values``, whose keywords
the schema publishes).

It only ever *accepts*: when it says yes, the Draft 2020-12 validator would say yes too, so
the call goes on without walking the validator (~50 µs a served create). When it says no, or
meets a value or a keyword it does not know, ``ArgumentSchema.check`` asks ``jsonschema`` as
before, which decides and words the refusal. So it is stricter than the schema wherever that
is simpler: an ``integer`` or a ``number`` is a Python ``int`` (a float, ``1.0`` or a
``JsonNumber``, goes to jsonschema), a ``const`` or ``enum`` matches a scalar of the same type,
and a value of any type but the six plain ones (``str``, ``int``, ``bool``, ``None``, ``dict``,
``list``, exactly) is never accepted here.

A schema holding any keyword outside ``KEYWORDS`` (and the annotations) compiles to nothing:
that tool's calls all go to ``jsonschema``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"description", "examples", "title", "default"})
KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "minProperties", "maxProperties",
                      "minLength", "maxLength", "const", "enum", "items", "minItems", "maxItems", "anyOf",
                      "pattern", "not", "minimum", "maximum", "allOf", "uniqueItems"})
_STRING_KEYWORDS = frozenset({"type", "minLength", "maxLength", "pattern", "not"}) | ANNOTATIONS
"""A schema of ``"type": "string"`` with only these keywords is one check (``_string``)."""
_SCALARS = (str, int, bool, type(None))
_PLAIN = frozenset({str, int, bool, type(None), dict, list})
"""The types a keyword that applies to one kind lets through untouched; any other (a float, a
``JsonNumber``, a tuple, a subclass) is not judged here."""
_TYPES: dict[str, Check] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
}


class NotCompiled(Exception):
    """The schema uses something this check does not decide."""


def compile_precheck(schema: Any) -> Check | None:
    """The accepting check of ``schema``, or None when it holds a keyword this module leaves to jsonschema."""
    try:
        return _compile(schema)
    except NotCompiled:
        return None


def _compile(schema: Any) -> Check:
    if schema is True or schema == {}:
        return lambda value: True
    if type(schema) is not dict:
        raise NotCompiled(repr(schema))
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise NotCompiled(", ".join(sorted(unknown)))
    if schema.get("type") == "string" and _STRING_KEYWORDS.issuperset(schema):
        return _string(schema)
    checks: list[Check] = []
    if "type" in schema:
        checks.append(_type_check(schema["type"]))
    if "const" in schema or "enum" in schema:
        checks.append(_one_of_values([schema["const"]] if "const" in schema else schema["enum"]))
    if "minLength" in schema or "maxLength" in schema:
        checks.append(_bounded(str, schema.get("minLength", 0), schema.get("maxLength")))
    if "pattern" in schema:
        checks.append(_matching(schema["pattern"]))
    if "minimum" in schema or "maximum" in schema:
        checks.append(_ranged(schema.get("minimum"), schema.get("maximum")))
    if "minItems" in schema or "maxItems" in schema:
        checks.append(_bounded(list, schema.get("minItems", 0), schema.get("maxItems")))
    if schema.get("uniqueItems") is True:
        checks.append(_unique_scalars)
    if "minProperties" in schema or "maxProperties" in schema:
        checks.append(_bounded(dict, schema.get("minProperties", 0), schema.get("maxProperties")))
    if "items" in schema:
        checks.append(_items(_compile(schema["items"])))
    if {"properties", "required", "additionalProperties"} & set(schema):
        checks.append(_object(schema))
    if "allOf" in schema:
        checks.append(_every([_compile(part) for part in schema["allOf"]]))
    if "not" in schema:
        checks.append(_not_matching(schema["not"]))
    if "anyOf" in schema:
        checks.append(_either([_compile(option) for option in schema["anyOf"]]))
    return _every(checks)


def _every(checks: list[Check]) -> Check:
    """Whether every check holds: a loop, not ``all`` of a generator, which costs an object and a
    frame per call (a served create runs a dozen of these)."""
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:  # the usual pair (a type and a bound)
        first, second = checks
        return lambda value: first(value) and second(value)

    def every(value: Any) -> bool:
        for check in checks:
            if not check(value):
                return False
        return True
    return every


def _either(checks: list[Check]) -> Check:
    """Whether any check holds (``_every``'s loop, for ``anyOf`` and a list of types)."""
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) or second(value)

    def either(value: Any) -> bool:
        for check in checks:
            if check(value):
                return True
        return False
    return either


def _type_check(wanted: Any) -> Check:
    names = wanted if type(wanted) is list else [wanted]
    if not names or any(name not in _TYPES for name in names):
        raise NotCompiled(f"type {wanted!r}")
    return _either([_TYPES[name] for name in names])


def _one_of_values(values: Any) -> Check:
    if type(values) is not list:
        raise NotCompiled("enum")
    # Scalars only, matched with their exact type (True is not 1): anything else goes to jsonschema.
    allowed = {(type(v), v) for v in values if type(v) in _SCALARS}
    return lambda value: type(value) in _SCALARS and (type(value), value) in allowed


def _bounded(kind: type, least: Any, most: Any) -> Check:
    if type(least) is not int or (most is not None and type(most) is not int):
        raise NotCompiled("a bound that is not an integer")
    if most is None:
        return lambda value: len(value) >= least if type(value) is kind else type(value) in _PLAIN
    return lambda value: least <= len(value) <= most if type(value) is kind else type(value) in _PLAIN


def _unique_scalars(value: Any) -> bool:
    """``uniqueItems``: an array of scalars none repeated (by type and value: true is not 1) is
    accepted, a value of another plain kind too; an array holding an object or an array is left
    to jsonschema."""
    if type(value) is not list:
        return type(value) in _PLAIN
    seen = set()
    for element in value:  # one loop, no set comprehension (a function made per call)
        if type(element) not in _SCALARS:
            return False
        seen.add((type(element), element))
    return len(seen) == len(value)


def _ranged(least: Any, most: Any) -> Check:
    """``minimum``/``maximum``: an ``int`` within them is accepted, a value of another plain kind
    (which the keywords leave alone) too; a float or a ``JsonNumber`` is left to jsonschema."""
    if any(bound is not None and type(bound) is not int for bound in (least, most)):
        raise NotCompiled("a numeric bound that is not an integer")
    low = float("-inf") if least is None else least
    high = float("inf") if most is None else most
    return lambda value: low <= value <= high if type(value) is int else type(value) in _PLAIN and \
        type(value) is not float


def _matching(pattern: Any) -> Check:
    """``pattern`` as jsonschema applies it (``re.search``); one Python cannot compile is left to it."""
    try:
        compiled = re.compile(pattern)
    except (re.error, TypeError):
        raise NotCompiled(f"pattern {pattern!r}") from None
    return lambda value: compiled.search(value) is not None if type(value) is str else type(value) in _PLAIN


def _string(schema: dict[str, Any]) -> Check:
    """``{"type": "string"}`` with string keywords only (lengths, a pattern, refused text classes),
    the usual text member: one check, where ``_every`` of each keyword's would call one per keyword
    and each would test the value's type again. The same answer as theirs: a value that is no
    string is refused by the type, and for a string each keyword asks what its own check asks."""
    least, most = schema.get("minLength", 0), schema.get("maxLength")
    if type(least) is not int or (most is not None and type(most) is not int):
        raise NotCompiled("a bound that is not an integer")
    longest = float("inf") if most is None else most
    search = None
    if "pattern" in schema:
        try:
            search = re.compile(schema["pattern"]).search
        except (re.error, TypeError):
            raise NotCompiled(f"pattern {schema['pattern']!r}") from None
    refused = _refused_classes(schema["not"]) if "not" in schema else None

    def string(value: Any) -> bool:
        if type(value) is not str or not least <= len(value) <= longest:
            return False
        if search is not None and search(value) is None:
            return False
        return refused is None or not refused(value)
    return string


def _not_matching(refused: Any) -> Check:
    """``not: {type: string, anyOf: [{pattern}, ...]}`` (text classes a member refuses,
    ``writes/stored_text``): a value that is no string, or a string none of them matches, is
    accepted; any other ``not`` is left to jsonschema."""
    held = _refused_classes(refused)
    return lambda value: type(value) is not str and type(value) in _PLAIN or \
        type(value) is str and not held(value)


def _refused_classes(refused: Any) -> Callable[[str], bool]:
    """Whether a text is of one of the classes a ``not: {type: string, anyOf: [{pattern}, ...]}``
    refuses (``_not_matching``); NotCompiled for any other ``not``."""
    options = refused.get("anyOf") if type(refused) is dict and set(refused) == {"type", "anyOf"} \
        and refused["type"] == "string" else None
    if type(options) is not list or not all(type(o) is dict and "pattern" in o and set(o) - ANNOTATIONS == {"pattern"}
                                            for o in options):
        raise NotCompiled("not")
    try:
        return any_pattern([o["pattern"] for o in options])
    except (re.error, TypeError):
        raise NotCompiled("not: a pattern Python cannot compile") from None


def any_pattern(patterns: list[str]) -> Callable[[str], bool]:
    """Whether ``re.search`` finds any of ``patterns`` in a text: one search of their alternation
    when that is the same question (no pattern holds a group, so none refers back to one, and no
    global flag sits inside it, which Python refuses), else one search per pattern. Raises
    ``re.error`` for a pattern Python cannot compile.

    One search is made per list of patterns and kept (``_held_search``), and it answers a text it
    was asked among the last few again without searching: a served write's text members are each
    searched for their refused classes twice, by the published schema's ``not`` (every member in
    turn) and by ``stored_text``'s check (again in turn), each alternation costing ~4k
    instructions."""
    return _held_search(tuple(patterns))


@lru_cache(maxsize=1024)
def _held_search(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    found = _any_pattern(patterns)
    held: dict[str, bool] = {}  # the texts last asked (``_HELD_TEXTS`` at most) and their answers

    def search(text: str) -> bool:
        answer = held.get(text)  # a search is a function of the text alone
        if answer is None:
            answer = found(text)
            if len(held) >= _HELD_TEXTS:
                held.clear()
            held[text] = answer
        return answer
    return search


_HELD_TEXTS = 4
"""Texts a search keeps its answer for: a body's text members (each asked again by ``stored_text``'s
check after the schema's); not a budget, no answer depends on it."""


def _any_pattern(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    compiled = [re.compile(pattern) for pattern in patterns]
    if not compiled:
        return lambda text: False
    if len(compiled) > 1 and not any(c.groups for c in compiled):
        try:
            either = re.compile("|".join(f"(?:{pattern})" for pattern in patterns))
        except re.error:  # a global flag, valid alone, refused inside the alternation
            either = None
        if either is not None:
            search = either.search
            return lambda text: search(text) is not None
    return lambda text: any(c.search(text) for c in compiled)


def _items(item: Check) -> Check:
    def items(value: Any) -> bool:
        if type(value) is not list:
            return type(value) in _PLAIN
        for element in value:
            if not item(element):
                return False
        return True
    return items


def _object(schema: dict[str, Any]) -> Check:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if type(properties) is not dict or type(required) is not list:
        raise NotCompiled("properties")
    members = {name: _compile(sub) for name, sub in properties.items()}
    others = None if extra is True else (lambda value: False) if extra is False else _compile(extra)

    def check(value: Any) -> bool:
        if type(value) is not dict:
            return type(value) in _PLAIN
        for name in required:
            if name not in value:
                return False
        for name, member in value.items():
            if type(name) is not str:
                return False
            if name in members:  # tested, then taken, without a method call per member
                if not members[name](member):
                    return False
            elif others is not None and not others(member):
                return False
        return True
    return check
