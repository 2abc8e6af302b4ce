"""Filter expressions in a query value (PocketBase's ``filter=(status='published' && views>=12)``):
comparisons of a field with a literal, joined by one conjunction, in optional parentheses; or a JSON
object of them (Waterline's ``where={"year": {">": 1970}, "genre": "fiction"}``).

Both sides read them alike: the build proposes and proves an expression spelling
(``view-learned-queries``), serving evaluates it over the state. Only this restricted form is read;
anything else (another conjunction, nested parentheses, a field compared with a field, an escape
in a string) is no expression, so serving refuses the call rather than guess.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

_FIELD = r"[A-Za-z_][A-Za-z0-9_]*"
_LITERAL = r"""'[^'\\]*'|"[^"\\]*"|-?[0-9]+(?:\.[0-9]+)?|true|false|null"""


@dataclass(frozen=True)
class Clause:
    field: str
    operator: str
    """The canonical operator the spelled one maps to (==, !=, >, >=, <, <=, icontains, !icontains)."""
    value: Any
    """The literal: a string, an int or float, True, False or None."""


def parse_expression(text: str, conjunction: str, operators: dict[str, str]) -> list[Clause] | None:
    """The clauses of ``text`` read with this spelling, or None when it is not one."""
    body = text.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    if not body.strip() or not operators:
        return None
    spelled = "|".join(re.escape(op) for op in sorted(operators, key=len, reverse=True))
    clause = re.compile(rf"\s*({_FIELD})\s*({spelled})\s*({_LITERAL})\s*")
    joiner = re.escape(conjunction)
    clauses: list[Clause] = []
    position = 0
    while True:
        found = clause.match(body, position)
        if found is None:
            return None
        clauses.append(Clause(found.group(1), operators[found.group(2)], _literal(found.group(3))))
        position = found.end()
        if position == len(body):
            return clauses
        joined = re.compile(rf"{joiner}").match(body, position)
        if joined is None:
            return None
        position = joined.end()


def parse_clauses(text: str, syntax: str, conjunction: str, operators: dict[str, str],
                  within: str | None = None, keys: tuple[str, ...] | None = None) -> list[Clause] | None:
    """The clauses of ``text`` in the spelling ``syntax`` names (``infix``, ``json-object``, its
    comparisons inside the member ``within`` when one is named, or ``column-objects``, each object
    naming its field, operator and literal by the members ``keys`` name)."""
    if syntax == "json-object":
        return parse_json_object(text, operators, within)
    if syntax == "column-objects":
        return parse_column_objects(text, operators, keys)
    return parse_expression(text, conjunction, operators)


def parse_column_objects(text: str, operators: dict[str, str], keys: tuple[str, ...] | None) -> list[Clause] | None:
    """The clauses of a JSON array of objects, each holding exactly the three members ``keys``
    names (field, operator, literal: Flask-AppBuilder's ``[{"col": "name", "opr": "ct", "value":
    "ent"}]``), the field named as a field could be, the operator a spelled one, the literal a
    text, number or boolean; every clause holds. None for anything else (an empty array, another
    member, a null or list literal)."""
    if keys is None or len(keys) != 3 or not operators:
        return None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return None
    if not isinstance(value, list) or not value:
        return None
    field_key, operator_key, literal_key = keys
    clauses: list[Clause] = []
    for item in value:
        if not isinstance(item, dict) or set(item) != set(keys):
            return None
        field, spelled, literal = item[field_key], item[operator_key], item[literal_key]
        if not isinstance(field, str) or not re.fullmatch(_FIELD, field) or not isinstance(spelled, str):
            return None
        operator = operators.get(spelled)
        if operator is None or operator in LIST_OPERATORS or literal is None or not _is_literal(literal):
            return None
        clauses.append(Clause(field, operator, literal))
    return clauses


def parse_json_object(text: str, operators: dict[str, str], within: str | None = None) -> list[Clause] | None:
    """The clauses of a JSON object whose every member names a field and holds a literal (an
    equality) or an object of spelled operators each holding a literal (a list operator, ``in``: a
    non-empty array of literals of one kind); None for anything else (an array, a nested object that
    is no operator, an unknown operator, a list where no list operator takes one, a member named as
    no field could be, ``or``/``and`` holding arrays)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return None
    if within is not None:  # {"where": {...}} and nothing beside it (an order or limit there is refused)
        if not isinstance(value, dict) or list(value) != [within]:
            return None
        value = value[within]
    if not isinstance(value, dict) or not value or not operators:
        return None
    clauses: list[Clause] = []
    for field, held in value.items():
        if not re.fullmatch(_FIELD, field):
            return None
        if _is_literal(held):
            clauses.append(Clause(field, "==", held))
            continue
        if not isinstance(held, dict) or not held:
            return None
        for spelled, literal in held.items():
            operator = operators.get(spelled)
            if operator in LIST_OPERATORS:
                literal = _literal_list(literal)
                if literal is None:
                    return None
            elif operator is None or not _is_literal(literal):
                return None
            clauses.append(Clause(field, operator, literal))
    return clauses


LIST_OPERATORS = frozenset({"in", "!in"})
"""Canonical operators whose literal is a list of values (one of them, none of them)."""


def _literal_list(value: Any) -> tuple[Any, ...] | None:
    """A non-empty JSON array of literals of one kind, other than null, as a tuple; else None."""
    if not isinstance(value, list) or not value or not all(_is_literal(v) and v is not None for v in value):
        return None
    return tuple(value) if len({literal_kind(v) for v in value}) == 1 else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON literal")


def _is_literal(value: Any) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return value is None or isinstance(value, (str, bool, int, float))


def _literal(text: str) -> Any:
    if text[0] in "'\"":
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    return float(text) if "." in text else int(text)


def literal_kind(value: Any) -> str:
    """The kind of a clause's literal: text, number, boolean or null (a list's: its elements')."""
    if isinstance(value, tuple):
        return literal_kind(value[0])
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "text" if isinstance(value, str) else "number"


def clause_shape(clause: Clause, syntax: str = "infix") -> str:
    """What a clause compares, as the recordings prove it: ``>=:number``, ``==:text``; for
    ``column-objects``, led by the field (``name icontains:text``): such an application filters
    only the columns it lists as searchable, each by its own operators, refusing the rest."""
    listed = "list-" if isinstance(clause.value, tuple) else ""
    shape = f"{clause.operator}:{listed}{literal_kind(clause.value)}"
    return f"{clause.field} {shape}" if syntax == "column-objects" else shape
