"""One source of truth for a tool's arguments: the input schema a tool publishes is the one
validation enforces (issue #13 item 2), with ``jsonschema``'s Draft 2020-12 validator.

A refusal the schema decides names the argument and what the schema wants, in the words the
hand-written checks used before (``"post_id" is missing``, ``does not take "limit"``), and
ends with what the tool accepts. The few checks a schema cannot express (the entity must be
held, exact numbers, 64-bit integers, UTF-8 strings, ``__proto__``, nesting depth) stay with
the write checks and are named in each write tool's description (``SCHEMA_CANNOT_SAY``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.schema_precheck import compile_precheck
from capenv.serving.read_call import CallRefused, json_kind_of
from capenv.serving.writes.stored_text import class_held, refusal

SCHEMA_CANNOT_SAY = ("Beyond the schema, a call is refused only for: an entity the state does not hold (or already "
                     "holds under the identity a create would give), a value another held entity has in a member "
                     "whose recorded values were all distinct, a change to an entity another held entity shows a "
                     "copy of, an entity lacking a field the answer must show, an update sending only values the "
                     "entity already holds, an entity named by another key member than its recorded calls named it by, "
                     "an identity member sent with another value than the id the path names, "
                     "a create under a parent in a state no recorded create found its parent in, "
                     "an object leaving out a key the held entity holds in that member (or nesting an empty text or "
                     "null below its own keys where its own keys may hold neither), "
                     "a number that is not exact, an integer past 64 bits, a lone surrogate, a __proto__ member, or "
                     "a body nested past the nesting budget.")

DIGITS = re.compile(r"-?[0-9]+")


def integer_like(samples: tuple[str, ...]) -> bool:
    """Every recorded value of a path parameter is an integer's digits: clients send such ids as numbers."""
    return bool(samples) and all(DIGITS.fullmatch(s) for s in samples)


def path_param_schema(samples: tuple[str, ...], description: str) -> dict[str, Any]:
    """A path parameter: a non-empty string, or, for an integer id, also an integer."""
    if integer_like(samples):
        return {"type": ["string", "integer"], "minLength": 1,
                "description": f"{description} (an integer id: a number or its digits)"}
    return {"type": "string", "minLength": 1, "description": description}


def path_value(value: Any) -> str:
    """A validated path argument as the path segment it spells (an integer as its digits)."""
    return value if isinstance(value, str) else str(value)


class ArgumentSchema:
    """A compiled validator for one published input schema."""

    def __init__(self, schema: dict[str, Any], tool: str) -> None:
        self.schema = json.loads(dumps(schema))  # plain JSON values, exactly as a client reads it
        Draft202012Validator.check_schema(self.schema)
        self.validator = Draft202012Validator(self.schema)
        self.precheck = compile_precheck(self.schema)
        self.tool = tool

    def check(self, arguments: Any, accepted: Callable[[], str]) -> None:
        """Raise ``CallRefused`` when ``arguments`` do not validate, naming what is accepted
        (``accepted()``, worded only for a refusal). The compiled precheck accepts the usual
        call at once; jsonschema decides the rest."""
        if self.precheck is not None and self.precheck(arguments):
            return
        error = best_match(self.validator.iter_errors(_plain(arguments)))
        if error is not None:
            raise CallRefused(f"{self._message(error)}; {self.tool} accepts {accepted()}")

    def _message(self, error: ValidationError) -> str:
        where = _where(error.absolute_path)
        leaf = str(error.absolute_path[-1]) if error.absolute_path else where
        in_body = where.startswith("body.")
        value = error.instance
        if error.validator == "required":
            missing = next((name for name in error.validator_value if isinstance(value, dict) and name not in value),
                           error.validator_value[0])
            if where == "body" or in_body:
                return f"missing required member(s): {missing}"
            described = error.schema.get("properties", {}).get(missing, {}).get("description")
            return f'"{_join(where, missing)}" is missing' + (f" ({described})" if described else "")
        if error.validator == "additionalProperties":
            allowed = set(error.schema.get("properties", {}))
            extra = [name for name in value if name not in allowed] if isinstance(value, dict) else []
            if where == "query":
                return f"query parameter {_quoted(extra)} was never recorded for {self.tool}: not accepted"
            if where == "body" or in_body:
                names = _quoted(extra, "'")
                return f"member {names} is not accepted; accepted members: {', '.join(sorted(allowed))}"
            return f"{self.tool} does not take {_quoted(extra)}: not accepted"
        if error.validator == "minProperties":
            return f"send at least {error.validator_value} of: {', '.join(error.schema.get('properties', {}))}"
        if error.validator == "type":
            wanted = " or ".join(error.validator_value if isinstance(error.validator_value, list)
                                 else [error.validator_value])
            if where == "body" or in_body:
                return f"member '{leaf}' must be a JSON {wanted}, not {json_kind_of(value)}" if in_body else \
                    f'"body" must be a JSON {wanted}, not {json_kind_of(value)}'
            article = "an" if wanted[0] in "aeiou" else "a"
            described = error.schema.get("description")
            return f'"{leaf or "arguments"}" must be {article} {wanted}, not {json_kind_of(value)}' + (
                f" ({described})" if described else "")
        held = class_held(error.validator_value, value) if error.validator == "not" and in_body else None
        if held is not None:  # a text class the member (or an element of its array) refuses (write-stored-text)
            path = list(error.absolute_path)
            element = len(path) >= 2 and isinstance(path[-1], int)
            return refusal(f"{path[-2]}[{path[-1]}]" if element else leaf, held)
        if error.validator == "not" and in_body and "description" in error.schema:  # values an object member refuses
            return f"member '{where[len('body.'):]}' is {_shown(value)}: accepted only as {error.schema['description']}"
        if error.validator == "pattern" or (error.validator == "anyOf" and "description" in error.schema):
            return f'"{leaf or where}" is not accepted: {error.schema.get("description", "it must match " + str(error.validator_value))}'
        if error.validator == "minLength":
            return f'"{where}" must not be empty'
        if error.validator == "maxLength" and error.validator_value == 0:
            return f'"{where}" must be empty, as recorded'
        if error.validator in ("const", "enum"):
            wanted = [error.validator_value] if error.validator == "const" else error.validator_value
            shown = " or ".join(_shown(v) for v in wanted)
            if in_body and error.validator == "enum" and error.schema.get("description"):  # a validated member says why
                return f"member '{leaf}' is {_shown(value)}: accepted only with {shown} ({error.schema['description']})"
            return f"member '{leaf}' is accepted only with its recorded value {shown}" if in_body else \
                f'"{where}" is accepted only as recorded: {shown}'
        return f'"{where or "arguments"}": {error.message}'


def _shown(value: Any) -> str:
    """``value`` as JSON text for a refusal: the standard library's where orjson refuses it (an integer past
    64 bits, which a call may send and the schema refuses)."""
    try:
        return dumps(value).decode()
    except TypeError:
        return json.dumps(value, default=str)


def _plain(value: Any) -> Any:
    try:
        return json.loads(dumps(value))
    except (TypeError, ValueError):
        return value


def _where(path: Any) -> str:
    return ".".join(str(p) for p in path)


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _quoted(names: list[str], mark: str = '"') -> str:
    return ", ".join(f"{mark}{n}{mark}" for n in names) or "that"
